import { describe, expect, it } from 'vitest';
import { allergenKeys, allergens, type LabelType, labelTypes } from './constants';
import {
  allergenLetter,
  allergenLetters,
  boundProbeState,
  compareNames,
  copyName,
  freeformPreview,
  freeformTooLong,
  fromLabelHours,
  type LabelValues,
  labelTypeFields,
  mergeStoreRows,
  newLabelValues,
  normalizeDuration,
  normalizeLabel,
  printLabel,
  resolveInheritance,
  toLabelHours,
  validateElement,
  validateLabel,
} from './rules';

/* ---------- Inheritance ---------- */

describe('resolveInheritance', () => {
  type Key = 'name' | 'active' | 'maximum_polarity' | 'allergens';
  type Value = string | boolean | number | string[];
  const keys: Key[] = ['name', 'active', 'maximum_polarity', 'allergens'];
  const origin = (
    values: Partial<Record<Key, Value | null>>,
    locks: Partial<Record<Key, boolean>> = {},
  ) => ({ values, locks });
  const databaseValues = {
    name: 'Frigo',
    active: true,
    maximum_polarity: 25,
    allergens: ['egg'],
  };

  it('without an origin, every field is the record’s own, null included', () => {
    const result = resolveInheritance<Key, Value>(
      keys,
      { name: 'Mine', active: false, maximum_polarity: null },
      null,
    );
    expect(result.values).toEqual({
      name: 'Mine',
      active: false,
      maximum_polarity: null,
      allergens: null,
    });
    expect(Object.values(result.states)).toEqual(['own', 'own', 'own', 'own']);
  });

  it('a null (or missing) store value inherits the origin value', () => {
    const result = resolveInheritance<Key, Value>(
      keys,
      { name: null, active: null },
      origin(databaseValues),
    );
    expect(result.values).toEqual(databaseValues);
    expect(result.states).toEqual({
      name: 'inherited',
      active: 'inherited',
      maximum_polarity: 'inherited',
      allergens: 'inherited',
    });
  });

  it('a text set in the store overrides', () => {
    const result = resolveInheritance<Key, Value>(
      keys,
      { name: 'Frigo du bar' },
      origin(databaseValues),
    );
    expect(result.values.name).toBe('Frigo du bar');
    expect(result.states.name).toBe('overridden');
  });

  it('boolean false overrides; null inherits', () => {
    const overridden = resolveInheritance<Key, Value>(
      keys,
      { active: false },
      origin(databaseValues),
    );
    expect(overridden.values.active).toBe(false);
    expect(overridden.states.active).toBe('overridden');
    const inherited = resolveInheritance<Key, Value>(
      keys,
      { active: null },
      origin(databaseValues),
    );
    expect(inherited.values.active).toBe(true);
    expect(inherited.states.active).toBe('inherited');
  });

  it('number 0 overrides; null inherits', () => {
    const overridden = resolveInheritance<Key, Value>(
      keys,
      { maximum_polarity: 0 },
      origin(databaseValues),
    );
    expect(overridden.values.maximum_polarity).toBe(0);
    expect(overridden.states.maximum_polarity).toBe('overridden');
    const inherited = resolveInheritance<Key, Value>(
      keys,
      { maximum_polarity: null },
      origin(databaseValues),
    );
    expect(inherited.values.maximum_polarity).toBe(25);
    expect(inherited.states.maximum_polarity).toBe('inherited');
  });

  it('an array set in the store overrides, even empty; null inherits', () => {
    const own = resolveInheritance<Key, Value>(
      keys,
      { allergens: ['fish', 'soy'] },
      origin(databaseValues),
    );
    expect(own.values.allergens).toEqual(['fish', 'soy']);
    expect(own.states.allergens).toBe('overridden');
    const empty = resolveInheritance<Key, Value>(keys, { allergens: [] }, origin(databaseValues));
    expect(empty.values.allergens).toEqual([]);
    expect(empty.states.allergens).toBe('overridden');
    const inherited = resolveInheritance<Key, Value>(
      keys,
      { allergens: null },
      origin(databaseValues),
    );
    expect(inherited.values.allergens).toEqual(['egg']);
  });

  it('a locked field takes the origin value even when the store has its own', () => {
    const result = resolveInheritance<Key, Value>(
      keys,
      { name: 'Mine', active: false, maximum_polarity: 0, allergens: [] },
      origin(databaseValues, { name: true, active: true, maximum_polarity: true, allergens: true }),
    );
    expect(result.values).toEqual(databaseValues);
    expect(Object.values(result.states)).toEqual(['locked', 'locked', 'locked', 'locked']);
  });

  it('a lock set false (or absent) lets the store value through', () => {
    const result = resolveInheritance<Key, Value>(
      keys,
      { name: 'Mine', active: false },
      origin(databaseValues, { name: false }),
    );
    expect(result.values.name).toBe('Mine');
    expect(result.states.name).toBe('overridden');
    expect(result.values.active).toBe(false);
    expect(result.states.active).toBe('overridden');
  });

  it('a locked field whose origin value is null is null, still locked', () => {
    const result = resolveInheritance<Key, Value>(
      keys,
      { name: 'Mine' },
      origin({ name: null }, { name: true }),
    );
    expect(result.values.name).toBeNull();
    expect(result.states.name).toBe('locked');
  });

  it('a later change of the origin shows through, unless overridden; locked always follows', () => {
    const store = { name: null, active: false, maximum_polarity: 40 };
    const locks = { maximum_polarity: true };
    const before = resolveInheritance<Key, Value>(keys, store, origin(databaseValues, locks));
    expect(before.values).toMatchObject({ name: 'Frigo', active: false, maximum_polarity: 25 });
    const changed = { name: 'Chambre froide', active: true, maximum_polarity: 30, allergens: [] };
    const after = resolveInheritance<Key, Value>(keys, store, origin(changed, locks));
    expect(after.values).toEqual({
      name: 'Chambre froide',
      active: false,
      maximum_polarity: 30,
      allergens: [],
    });
    expect(after.states).toEqual({
      name: 'inherited',
      active: 'overridden',
      maximum_polarity: 'locked',
      allergens: 'inherited',
    });
  });
});

/* ---------- Store list ---------- */

describe('mergeStoreRows', () => {
  const database = [
    { id: 'd1', name: 'Frigo' },
    { id: 'd2', name: 'congélateur' },
    { id: 'd3', name: 'Éclair' },
  ];

  it('lists an overridden database element once, as the store row', () => {
    const merged = mergeStoreRows(database, [
      { id: 's1', origin_id: 'd1', name: 'Frigo (bar)' },
      { id: 's2', origin_id: null, name: 'Armoire' },
    ]);
    expect(merged.map((entry) => [entry.kind, entry.row.id])).toEqual([
      ['store', 's2'],
      ['database', 'd2'],
      ['database', 'd3'],
      ['store', 's1'],
    ]);
    expect(merged.filter((entry) => entry.row.id === 'd1')).toHaveLength(0);
  });

  it('sorts by name ignoring case and accents, then by id', () => {
    const merged = mergeStoreRows(
      [
        { id: 'b', name: 'éclair' },
        { id: 'x', name: 'Zeste' },
        { id: 'y', name: 'abricot' },
      ],
      [
        { id: 'a', origin_id: null, name: 'Eclair' },
        { id: 'z', origin_id: null, name: 'Banane' },
        { id: 'c', origin_id: null, name: 'ÉCLAIR' },
      ],
    );
    expect(merged.map((entry) => entry.row.name)).toEqual([
      'abricot',
      'Banane',
      'Eclair',
      'éclair',
      'ÉCLAIR',
      'Zeste',
    ]);
    expect(merged.slice(2, 5).map((entry) => entry.row.id)).toEqual(['a', 'b', 'c']);
  });

  it('keeps a store row whose origin is unknown and answers nothing for nothing', () => {
    expect(mergeStoreRows([], [])).toEqual([]);
    const merged = mergeStoreRows(database.slice(0, 1), [
      { id: 's', origin_id: 'gone', name: 'Orphan' },
    ]);
    expect(merged.map((entry) => entry.row.id)).toEqual(['d1', 's']);
  });

  it('compareNames treats case and accents alike and numbers naturally', () => {
    expect(compareNames('Crème', 'creme')).toBe(0);
    expect(compareNames('Frigo 2', 'Frigo 10')).toBeLessThan(0);
  });
});

/* ---------- Elements ---------- */

describe('validateElement', () => {
  const valid = {
    name: 'Frigo',
    minimum_temperature: 0,
    maximum_temperature: 4,
    type_id: 'type-1',
  };

  it('accepts a valid element at both levels, equal bounds and missing bounds', () => {
    expect(validateElement(valid, 'database')).toBeNull();
    expect(validateElement(valid, 'store')).toBeNull();
    expect(
      validateElement({ ...valid, minimum_temperature: 4, maximum_temperature: 4 }, 'store'),
    ).toBeNull();
    expect(
      validateElement({ ...valid, minimum_temperature: 10, maximum_temperature: null }, 'store'),
    ).toBeNull();
    expect(
      validateElement({ ...valid, minimum_temperature: null, maximum_temperature: -20 }, 'store'),
    ).toBeNull();
  });

  it('refuses an empty or blank name', () => {
    for (const name of ['', '   ', null]) {
      expect(validateElement({ ...valid, name }, 'database')).toBe('element/invalid-name');
    }
  });

  it('refuses a minimum above the maximum', () => {
    expect(
      validateElement({ ...valid, minimum_temperature: 5, maximum_temperature: 4 }, 'database'),
    ).toBe('invalid-temperature-input');
    expect(
      validateElement({ ...valid, minimum_temperature: -1, maximum_temperature: -2 }, 'store'),
    ).toBe('invalid-temperature-input');
  });

  it('needs a type at store level only', () => {
    expect(validateElement({ ...valid, type_id: null }, 'store')).toBe('element/select-type');
    expect(validateElement({ ...valid, type_id: null }, 'database')).toBeNull();
  });

  it('reports in the spec order: temperatures, then name, then type', () => {
    const allWrong = {
      name: ' ',
      minimum_temperature: 8,
      maximum_temperature: 2,
      type_id: null,
    };
    expect(validateElement(allWrong, 'store')).toBe('invalid-temperature-input');
    expect(validateElement({ ...allWrong, maximum_temperature: 9 }, 'store')).toBe(
      'element/invalid-name',
    );
    expect(validateElement({ ...allWrong, maximum_temperature: 9, name: 'Frigo' }, 'store')).toBe(
      'element/select-type',
    );
  });
});

describe('normalizeDuration', () => {
  it('stores 0 (and nothing) as null, keeps other minutes', () => {
    expect(normalizeDuration(0)).toBeNull();
    expect(normalizeDuration(null)).toBeNull();
    expect(normalizeDuration(undefined)).toBeNull();
    expect(normalizeDuration(60)).toBe(60);
    expect(normalizeDuration(1)).toBe(1);
  });
});

describe('copyName', () => {
  it('adds the suffix " (Copy)"', () => {
    expect(copyName('Frigo')).toBe('Frigo (Copy)');
    expect(copyName('Frigo (Copy)')).toBe('Frigo (Copy) (Copy)');
    expect(copyName('')).toBe(' (Copy)');
  });
});

/* ---------- Allergens ---------- */

describe('allergen letters', () => {
  const expected: [string, string][] = [
    ['glutenGrains', 'A'],
    ['crustaceans', 'B'],
    ['egg', 'C'],
    ['fish', 'D'],
    ['peanut', 'E'],
    ['soy', 'F'],
    ['milkOrLactose', 'G'],
    ['edibleNuts', 'H'],
    ['celery', 'L'],
    ['mustard', 'M'],
    ['sesame', 'N'],
    ['sulphites', 'O'],
    ['lupines', 'P'],
    ['molluscs', 'R'],
  ];

  it('has the 14 allergens of the spec, in its order', () => {
    expect(allergens.map((allergen) => [allergen.key, allergen.letter])).toEqual(expected);
    expect(allergenKeys).toEqual(expected.map(([key]) => key));
  });

  it.each(expected)('%s is %s', (key, letter) => {
    expect(allergenLetter(key as (typeof allergenKeys)[number])).toBe(letter);
    expect(allergenLetters([key])).toEqual([letter]);
  });

  it('gives all letters in the spec order, without duplicates, whatever the input order', () => {
    const shuffled = [...allergenKeys].reverse();
    expect(allergenLetters([...shuffled, ...shuffled]).join(' ')).toBe(
      'A B C D E F G H L M N O P R',
    );
    expect(allergenLetters(['molluscs', 'egg', 'egg', 'glutenGrains'])).toEqual(['A', 'C', 'R']);
  });

  it('ignores unknown keys and answers nothing for nothing', () => {
    expect(allergenLetters([])).toEqual([]);
    expect(allergenLetters(['peanuts', 'Egg'])).toEqual([]);
  });
});

/* ---------- Labels ---------- */

describe('label hours', () => {
  it('stores days × 24 + hours', () => {
    expect(toLabelHours(0, 0)).toBe(0);
    expect(toLabelHours(3, 5)).toBe(77);
    expect(toLabelHours(0, 30)).toBe(30);
  });

  it('shows days and remainder hours', () => {
    expect(fromLabelHours(0)).toEqual({ days: 0, hours: 0 });
    expect(fromLabelHours(23)).toEqual({ days: 0, hours: 23 });
    expect(fromLabelHours(24)).toEqual({ days: 1, hours: 0 });
    expect(fromLabelHours(77)).toEqual({ days: 3, hours: 5 });
    expect(fromLabelHours(30)).toEqual({ days: 1, hours: 6 });
  });

  it('round-trips', () => {
    for (const total of [0, 1, 24, 25, 71, 72, 1000]) {
      const { days, hours } = fromLabelHours(total);
      expect(toLabelHours(days, hours)).toBe(total);
    }
  });
});

describe('labelTypeFields', () => {
  // expiration, expirationHours, defrosting, freeform, hourAndWeekday, cumulate
  const table: Record<LabelType, [boolean, boolean, boolean, boolean, boolean, boolean]> = {
    expiration: [true, true, false, false, true, false],
    defrosting: [true, true, true, false, false, true],
    name: [false, true, false, false, false, false],
    customer_expiration: [true, false, false, false, false, false],
    hourless_expiration: [true, false, false, false, false, false],
    freeform_expiration: [false, true, false, true, false, false],
    opening: [true, true, false, false, false, false],
    frozen: [true, true, false, false, false, false],
    expiration_editable: [true, true, false, false, true, false],
    defrosting_editable: [true, true, true, false, false, true],
  };

  it('covers the ten label types of the spec', () => {
    expect(Object.keys(table).sort()).toEqual([...labelTypes].sort());
    expect(labelTypes).toHaveLength(10);
  });

  it.each(labelTypes)('%s', (type) => {
    const [expiration, expirationHours, defrosting, freeform, hourAndWeekday, cumulate] =
      table[type];
    expect(labelTypeFields(type)).toEqual({
      expiration,
      expirationHours,
      defrosting,
      freeform,
      hourAndWeekday,
      cumulate,
    });
  });
});

describe('freeform text limits', () => {
  const lines = (count: number, separator = '\n') =>
    Array.from({ length: count }, (_, index) => `line ${index + 1}`).join(separator);

  it('accepts 4 lines and refuses 5', () => {
    expect(freeformTooLong(lines(4))).toBe(false);
    expect(freeformTooLong(lines(5))).toBe(true);
    expect(freeformTooLong('a\nb\nc\nd\n')).toBe(true);
  });

  it('accepts 200 characters and refuses 201', () => {
    expect(freeformTooLong('x'.repeat(200))).toBe(false);
    expect(freeformTooLong('x'.repeat(201))).toBe(true);
  });

  it('counts CRLF and CR as one line break each, and one character', () => {
    expect(freeformTooLong(lines(4, '\r\n'))).toBe(false);
    expect(freeformTooLong(lines(5, '\r\n'))).toBe(true);
    expect(freeformTooLong(lines(5, '\r'))).toBe(true);
    // 4 lines of 49 characters and 3 breaks: 199 characters, whichever break is used.
    const text = Array.from({ length: 4 }, () => 'y'.repeat(49));
    expect(freeformTooLong(text.join('\n'))).toBe(false);
    expect(freeformTooLong(text.join('\r\n'))).toBe(false);
    expect(freeformTooLong(`${text.join('\r\n')}yy`)).toBe(true);
  });

  it('accepts nothing', () => {
    expect(freeformTooLong('')).toBe(false);
    expect(freeformTooLong(null)).toBe(false);
    expect(freeformTooLong(undefined)).toBe(false);
  });

  it('previews the first 30 characters then "..."', () => {
    const thirty = 'abcdefghijklmnopqrstuvwxyz0123';
    expect(freeformPreview(thirty)).toBe(thirty);
    expect(freeformPreview(`${thirty}4`)).toBe(`${thirty}...`);
    expect(freeformPreview('Short')).toBe('Short');
    expect(freeformPreview('')).toBe('');
    expect(freeformPreview(null)).toBe('');
  });
});

describe('newLabelValues and validateLabel', () => {
  it('a new label is a defrosting label, active, all durations 0', () => {
    expect(newLabelValues()).toEqual({
      active: true,
      name: '',
      type: 'defrosting',
      expiration_duration: 0,
      defrosting_duration: 0,
      expiration_text: null,
      cumulate_expiration_duration: false,
      show_expiration_hour: false,
      show_expiration_weekday: false,
    });
    expect(newLabelValues('DLC').name).toBe('DLC');
  });

  it('needs a name', () => {
    expect(validateLabel(newLabelValues(''))).toBe('label/invalid-name');
    expect(validateLabel(newLabelValues('   '))).toBe('label/invalid-name');
    expect(validateLabel(newLabelValues('DLC'))).toBeNull();
  });

  it('checks the freeform text of freeform labels only', () => {
    const tooLong = 'a\nb\nc\nd\ne';
    const freeform: LabelValues = {
      ...newLabelValues('Texte'),
      type: 'freeform_expiration',
      expiration_text: tooLong,
    };
    expect(validateLabel(freeform)).toBe('freeform-line-limit');
    expect(validateLabel({ ...freeform, expiration_text: 'a\nb' })).toBeNull();
    expect(validateLabel({ ...freeform, type: 'expiration' })).toBeNull();
    // The name is checked first.
    expect(validateLabel({ ...freeform, name: '' })).toBe('label/invalid-name');
  });
});

describe('printLabel', () => {
  const now = new Date('2026-11-22T08:00:00Z');
  const at = (iso: string) => new Date(iso);
  const label = (values: Partial<LabelValues>): LabelValues => ({
    ...newLabelValues('Étiquette'),
    ...values,
  });

  it('defrosting, not cumulated: defrosted after its duration, expires counted from now', () => {
    const printed = printLabel(
      label({ type: 'defrosting', defrosting_duration: 24, expiration_duration: 72 }),
      'Saumon',
      now,
    );
    expect(printed).toEqual({
      elementName: 'Saumon',
      labelName: 'Étiquette',
      printedAt: now,
      defrostedAt: at('2026-11-23T08:00:00Z'),
      expiresAt: at('2026-11-25T08:00:00Z'),
      showHour: true,
      showWeekday: false,
      text: null,
    });
  });

  it('defrosting, cumulated: expires counted from the end of defrosting', () => {
    const printed = printLabel(
      label({
        type: 'defrosting_editable',
        defrosting_duration: 24,
        expiration_duration: 72,
        cumulate_expiration_duration: true,
      }),
      'Saumon',
      now,
    );
    expect(printed.defrostedAt).toEqual(at('2026-11-23T08:00:00Z'));
    expect(printed.expiresAt).toEqual(at('2026-11-26T08:00:00Z'));
  });

  it('cumulate is ignored by types without defrosting', () => {
    const printed = printLabel(
      label({
        type: 'expiration',
        defrosting_duration: 24,
        expiration_duration: 5,
        cumulate_expiration_duration: true,
      }),
      'Sauce',
      now,
    );
    expect(printed.defrostedAt).toBeNull();
    expect(printed.expiresAt).toEqual(at('2026-11-22T13:00:00Z'));
  });

  it.each([
    ['expiration', false, false],
    ['expiration', true, false],
    ['expiration', false, true],
    ['expiration_editable', true, true],
  ] as const)(
    '%s prints the hour (%s) and the weekday (%s) only when asked',
    (type, hour, weekday) => {
      const printed = printLabel(
        label({
          type,
          expiration_duration: 48,
          show_expiration_hour: hour,
          show_expiration_weekday: weekday,
        }),
        'Sauce',
        now,
      );
      expect(printed.expiresAt).toEqual(at('2026-11-24T08:00:00Z'));
      expect(printed.showHour).toBe(hour);
      expect(printed.showWeekday).toBe(weekday);
    },
  );

  it.each(['customer_expiration', 'hourless_expiration'] as const)(
    '%s prints the date only, whatever the toggles',
    (type) => {
      const printed = printLabel(
        label({
          type,
          expiration_duration: 48,
          show_expiration_hour: true,
          show_expiration_weekday: true,
        }),
        'Sauce',
        now,
      );
      expect(printed.expiresAt).toEqual(at('2026-11-24T08:00:00Z'));
      expect(printed.showHour).toBe(false);
      expect(printed.showWeekday).toBe(false);
      expect(printed.defrostedAt).toBeNull();
    },
  );

  it.each(['opening', 'frozen'] as const)(
    '%s prints the expiry with its hour, no weekday',
    (type) => {
      const printed = printLabel(
        label({ type, expiration_duration: 10, show_expiration_weekday: true }),
        'Sauce',
        now,
      );
      expect(printed.expiresAt).toEqual(at('2026-11-22T18:00:00Z'));
      expect(printed.showHour).toBe(true);
      expect(printed.showWeekday).toBe(false);
    },
  );

  it('freeform prints its text and no date', () => {
    const printed = printLabel(
      label({ type: 'freeform_expiration', expiration_text: 'À consommer\nrapidement' }),
      'Sauce',
      now,
    );
    expect(printed.text).toBe('À consommer\nrapidement');
    expect(printed.expiresAt).toBeNull();
    expect(printed.defrostedAt).toBeNull();
  });

  it('the text of another type is not printed', () => {
    const printed = printLabel(
      label({ type: 'expiration', expiration_text: 'leftover' }),
      'Sauce',
      now,
    );
    expect(printed.text).toBeNull();
  });

  it('name prints the names only', () => {
    const printed = printLabel(
      label({ type: 'name', expiration_duration: 48, defrosting_duration: 12 }),
      'Sauce tomate',
      now,
    );
    expect(printed).toMatchObject({
      elementName: 'Sauce tomate',
      labelName: 'Étiquette',
      printedAt: now,
      defrostedAt: null,
      expiresAt: null,
      showWeekday: false,
      text: null,
    });
  });
});

describe('normalizeLabel', () => {
  it('clears what the label type does not use', () => {
    const full = {
      ...newLabelValues('Étiquette'),
      expiration_duration: 48,
      defrosting_duration: 12,
      expiration_text: 'a\nb\nc\nd\ne\nf',
      cumulate_expiration_duration: true,
      show_expiration_hour: true,
      show_expiration_weekday: true,
    };
    expect(normalizeLabel({ ...full, type: 'defrosting' })).toMatchObject({
      expiration_duration: 48,
      defrosting_duration: 12,
      expiration_text: null,
      cumulate_expiration_duration: true,
      show_expiration_hour: false,
      show_expiration_weekday: false,
    });
    expect(normalizeLabel({ ...full, type: 'expiration' })).toMatchObject({
      defrosting_duration: 0,
      expiration_text: null,
      cumulate_expiration_duration: false,
      show_expiration_hour: true,
      show_expiration_weekday: true,
    });
    expect(normalizeLabel({ ...full, type: 'freeform_expiration' })).toMatchObject({
      expiration_duration: 0,
      defrosting_duration: 0,
      expiration_text: full.expiration_text,
    });
    expect(normalizeLabel({ ...full, type: 'name' })).toMatchObject({
      expiration_duration: 0,
      defrosting_duration: 0,
      expiration_text: null,
      show_expiration_hour: false,
    });
  });
});

describe('boundProbeState (issue 15)', () => {
  const now = new Date('2026-11-24T12:00:00Z');
  const bounds = { minimum: 0, maximum: 4 };
  const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * 60_000);

  it('is in range between the bounds, both included', () => {
    expect(boundProbeState({ lastTemperature: 0, lastTimestamp: at(5) }, bounds, now)).toBe(
      'in-range',
    );
    expect(boundProbeState({ lastTemperature: 4, lastTimestamp: at(5) }, bounds, now)).toBe(
      'in-range',
    );
  });

  it('is out of range below the minimum or above the maximum', () => {
    expect(boundProbeState({ lastTemperature: -0.5, lastTimestamp: at(5) }, bounds, now)).toBe(
      'out-of-range',
    );
    expect(boundProbeState({ lastTemperature: 4.1, lastTimestamp: at(5) }, bounds, now)).toBe(
      'out-of-range',
    );
  });

  it('checks only the bounds that are set', () => {
    const onlyMaximum = { minimum: null, maximum: 4 };
    expect(boundProbeState({ lastTemperature: -30, lastTimestamp: at(5) }, onlyMaximum, now)).toBe(
      'in-range',
    );
  });

  it('is not working from exactly 2 hours without reading, or with no reading at all', () => {
    expect(boundProbeState({ lastTemperature: 2, lastTimestamp: at(119) }, bounds, now)).toBe(
      'in-range',
    );
    expect(boundProbeState({ lastTemperature: 2, lastTimestamp: at(120) }, bounds, now)).toBe(
      'not-working',
    );
    expect(boundProbeState({ lastTemperature: null, lastTimestamp: null }, bounds, now)).toBe(
      'not-working',
    );
  });
});
