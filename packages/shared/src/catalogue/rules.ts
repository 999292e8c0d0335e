import { probeWorking } from '../probes/rules';
import {
  type AllergenKey,
  allergens,
  freeformMaxCharacters,
  freeformMaxLinesExclusive,
  freeformPreviewLength,
  type LabelType,
} from './constants';

/* ---------- Inheritance database -> store (ARCHITECTURE.md) ---------- */

/**
 * Where a field's effective value comes from:
 * - own: the record has no origin (a database element, or a store element of its own);
 * - locked: the origin locks the field, its value wins and the store cannot change it;
 * - overridden: the store set its own value;
 * - inherited: the store value is unset (null), the origin's applies.
 */
export type FieldState = 'own' | 'locked' | 'overridden' | 'inherited';

export type Inherited<K extends string, V> = {
  values: { [P in K]: V | null };
  states: Record<K, FieldState>;
};

/**
 * The one inheritance rule: a field's effective value is the origin's when the origin locks
 * it, else the store's own value when set (not null or undefined), else the origin's.
 * Without an origin every field is the record's own.
 */
export function resolveInheritance<K extends string, V>(
  keys: readonly K[],
  own: Partial<Record<K, V | null>>,
  origin: { values: Partial<Record<K, V | null>>; locks: Partial<Record<K, boolean>> } | null,
): Inherited<K, V> {
  const values = {} as { [P in K]: V | null };
  const states = {} as Record<K, FieldState>;
  for (const key of keys) {
    const ownValue = own[key] ?? null;
    if (!origin) {
      values[key] = ownValue;
      states[key] = 'own';
    } else if (origin.locks[key] === true) {
      values[key] = origin.values[key] ?? null;
      states[key] = 'locked';
    } else if (ownValue !== null) {
      values[key] = ownValue;
      states[key] = 'overridden';
    } else {
      values[key] = origin.values[key] ?? null;
      states[key] = 'inherited';
    }
  }
  return { values, states };
}

/**
 * The store list (spec 001 §3.2): database elements the store has not overridden yet, and
 * the store's own rows, sorted by name (case- and accent-insensitive, then by id).
 */
export function mergeStoreRows<
  D extends { id: string; name: string },
  S extends { origin_id: string | null; name: string; id: string },
>(
  databaseRows: readonly D[],
  storeRows: readonly S[],
): ({ kind: 'database'; row: D } | { kind: 'store'; row: S })[] {
  const overridden = new Set(
    storeRows.map((row) => row.origin_id).filter((id): id is string => id !== null),
  );
  const merged = [
    ...databaseRows
      .filter((row) => !overridden.has(row.id))
      .map((row) => ({ kind: 'database' as const, row })),
    ...storeRows.map((row) => ({ kind: 'store' as const, row })),
  ];
  return merged.sort(
    (left, right) =>
      compareNames(left.row.name, right.row.name) ||
      (left.row.id < right.row.id ? -1 : left.row.id > right.row.id ? 1 : 0),
  );
}

const collator = new Intl.Collator('fr', { sensitivity: 'base', numeric: true });
export function compareNames(left: string, right: string): number {
  return collator.compare(left, right);
}

/* ---------- Elements (spec 001 §5, §8) ---------- */

export type ElementValidationError =
  | 'element/invalid-name'
  | 'invalid-temperature-input'
  | 'element/select-type';

/**
 * The checks of an element save, in the order spec 001 lists them (§5 and §8): minimum not
 * above maximum, a valid name, and at store level a type selected or already set.
 */
export function validateElement(
  values: {
    name: string | null;
    minimum_temperature: number | null;
    maximum_temperature: number | null;
    type_id: string | null;
  },
  level: 'database' | 'store',
): ElementValidationError | null {
  if (
    values.minimum_temperature !== null &&
    values.maximum_temperature !== null &&
    values.minimum_temperature > values.maximum_temperature
  )
    return 'invalid-temperature-input';
  if (!values.name || values.name.trim() === '') return 'element/invalid-name';
  if (level === 'store' && !values.type_id) return 'element/select-type';
  return null;
}

/** Reheating and cooling durations of 0 are stored as null (spec 001 §5). */
export function normalizeDuration(minutes: number | null | undefined): number | null {
  if (minutes === undefined || minutes === null || minutes === 0) return null;
  return minutes;
}

/** Name of a duplicate (spec 001 §9). */
export function copyName(name: string): string {
  return `${name} (Copy)`;
}

/* ---------- Allergens (spec 001 §3.5) ---------- */

const letterOf = new Map<string, string>(allergens.map((item) => [item.key, item.letter]));

export function allergenLetter(key: AllergenKey): string {
  return letterOf.get(key) ?? '';
}

/** The letters of a list of allergens, in the spec's order, without duplicates. */
export function allergenLetters(keys: readonly string[]): string[] {
  const set = new Set(keys);
  return allergens.filter((item) => set.has(item.key)).map((item) => item.letter);
}

/* ---------- Labels (spec 001 §3.4, §5) ---------- */

/** Stored hours = days × 24 + hours. */
export function toLabelHours(days: number, hours: number): number {
  return days * 24 + hours;
}

/** Shown as days and remainder hours (24 h per day). */
export function fromLabelHours(total: number): { days: number; hours: number } {
  return { days: Math.floor(total / 24), hours: total % 24 };
}

/** Which inputs a label type shows (spec 001 §5; docs/decisions.md for the unshown cases). */
export function labelTypeFields(type: LabelType): {
  expiration: boolean;
  expirationHours: boolean;
  defrosting: boolean;
  freeform: boolean;
  hourAndWeekday: boolean;
  cumulate: boolean;
} {
  const defrosting = type === 'defrosting' || type === 'defrosting_editable';
  return {
    expiration: type !== 'name' && type !== 'freeform_expiration',
    expirationHours: type !== 'customer_expiration' && type !== 'hourless_expiration',
    defrosting,
    freeform: type === 'freeform_expiration',
    hourAndWeekday: type === 'expiration' || type === 'expiration_editable',
    cumulate: defrosting,
  };
}

/**
 * 'freeform-line-limit' applies at 5 lines or more, or beyond 200 characters. A line break
 * counts as one character whichever way it is written (a browser form sends CRLF, its text
 * field counts LF), so the server and the web app judge the same text alike.
 */
export function freeformTooLong(text: string | null | undefined): boolean {
  if (!text) return false;
  const normalized = text.replace(/\r\n?/g, '\n');
  return (
    normalized.split('\n').length >= freeformMaxLinesExclusive ||
    normalized.length > freeformMaxCharacters
  );
}

/** Database lists show the first 30 characters of a freeform text, then '...'. */
export function freeformPreview(text: string | null | undefined): string {
  if (!text) return '';
  return text.length > freeformPreviewLength ? `${text.slice(0, freeformPreviewLength)}...` : text;
}

export type LabelValues = {
  active: boolean;
  name: string;
  type: LabelType;
  expiration_duration: number;
  defrosting_duration: number;
  expiration_text: string | null;
  cumulate_expiration_duration: boolean;
  show_expiration_hour: boolean;
  show_expiration_weekday: boolean;
};

/** A new label: type defrosting, active, all durations 0 (spec 001 §5). */
export function newLabelValues(name = ''): LabelValues {
  return {
    active: true,
    name,
    type: 'defrosting',
    expiration_duration: 0,
    defrosting_duration: 0,
    expiration_text: null,
    cumulate_expiration_duration: false,
    show_expiration_hour: false,
    show_expiration_weekday: false,
  };
}

/**
 * A label as stored and compared: what its type does not use is cleared (spec 001 §5,
 * labelTypeFields): the text unless freeform, the hour/weekday and cumulate flags the type
 * does not show (false), the durations it does not use (0).
 */
export function normalizeLabel<T extends LabelValues>(label: T): T {
  const fields = labelTypeFields(label.type);
  return {
    ...label,
    expiration_duration: fields.expiration ? label.expiration_duration : 0,
    defrosting_duration: fields.defrosting ? label.defrosting_duration : 0,
    expiration_text: fields.freeform ? label.expiration_text : null,
    cumulate_expiration_duration: fields.cumulate ? label.cumulate_expiration_duration : false,
    show_expiration_hour: fields.hourAndWeekday ? label.show_expiration_hour : false,
    show_expiration_weekday: fields.hourAndWeekday ? label.show_expiration_weekday : false,
  };
}

export type LabelValidationError = 'label/invalid-name' | 'freeform-line-limit';

export function validateLabel(values: LabelValues): LabelValidationError | null {
  if (values.name.trim() === '') return 'label/invalid-name';
  if (values.type === 'freeform_expiration' && freeformTooLong(values.expiration_text))
    return 'freeform-line-limit';
  return null;
}

/**
 * What a printed label carries, computed from the moment it is printed: the element's
 * name, the label's name, and its dates. Defrosting types print the end of defrosting, and
 * the expiration counts from that end when durations are cumulated, else from now.
 * Date-only types (customer_expiration, hourless_expiration) print no hour; expiration and
 * expiration_editable print the hour and the weekday when asked.
 */
export type LabelPrint = {
  elementName: string;
  labelName: string;
  printedAt: Date;
  defrostedAt: Date | null;
  expiresAt: Date | null;
  showHour: boolean;
  showWeekday: boolean;
  text: string | null;
};

export function printLabel(label: LabelValues, elementName: string, now: Date): LabelPrint {
  const fields = labelTypeFields(label.type);
  const hours = (count: number) => count * 3_600_000;
  const defrostedAt = fields.defrosting
    ? new Date(now.getTime() + hours(label.defrosting_duration))
    : null;
  const expirationStart = defrostedAt && label.cumulate_expiration_duration ? defrostedAt : now;
  const expiresAt = fields.expiration
    ? new Date(expirationStart.getTime() + hours(label.expiration_duration))
    : null;
  return {
    elementName,
    labelName: label.name,
    printedAt: now,
    defrostedAt,
    expiresAt,
    showHour: fields.expirationHours && (!fields.hourAndWeekday || label.show_expiration_hour),
    showWeekday: fields.hourAndWeekday && label.show_expiration_weekday,
    text: fields.freeform ? label.expiration_text : null,
  };
}

export type BoundProbeState = 'in-range' | 'out-of-range' | 'not-working';

/**
 * The state of the probe an element is bound to (issue 15): not working when its last reading
 * is 2 hours old or more (the shared probeWorking rule), out of range when that reading is
 * below the element's minimum or above its maximum (a missing bound checks nothing).
 */
export function boundProbeState(
  probe: { lastTemperature: number | null; lastTimestamp: Date | string | null },
  bounds: { minimum: number | null; maximum: number | null },
  now: Date,
): BoundProbeState {
  if (probe.lastTemperature === null || !probeWorking(probe.lastTimestamp, now)) {
    return 'not-working';
  }
  if (bounds.minimum !== null && probe.lastTemperature < bounds.minimum) return 'out-of-range';
  if (bounds.maximum !== null && probe.lastTemperature > bounds.maximum) return 'out-of-range';
  return 'in-range';
}
