import { DateTime } from 'luxon';
import { writeCsv } from '../csv/write-csv';
import { punchCardCsv, punchEntryStepMs } from './constants';

/*
 * Punch-card rules (spec 000 §4, §5, §9): one pure function each, shared by the server (save,
 * CSV, PDF) and the web screen. Entries carry ISO instants; `timestamp_modified` wins over
 * `timestamp` when present.
 */

export type PunchEntryLike = {
  is_in: boolean;
  timestamp: string;
  timestamp_modified?: string | null;
};

/** The time an entry counts at: the modified time when there is one, else the clock time. */
export function effectiveTime(entry: PunchEntryLike): number {
  return Date.parse(entry.timestamp_modified ?? entry.timestamp);
}

/**
 * Entries ordered by their effective time; at the same effective time the one clocked first
 * (original `timestamp`) comes first, and only then the given order (the server reads by id).
 */
export function sortEntries<T extends PunchEntryLike>(entries: readonly T[]): T[] {
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort(
      (a, b) =>
        effectiveTime(a.entry) - effectiveTime(b.entry) ||
        Date.parse(a.entry.timestamp) - Date.parse(b.entry.timestamp) ||
        a.index - b.index,
    )
    .map(({ entry }) => entry);
}

/**
 * Coherence of one employee's entries over a range (spec 000 §4): ordered by time, they must
 * strictly alternate entrance, exit, starting with an entrance. Answers, in time order, each
 * entry with whether it breaks the alternation (red border).
 */
export function flagIncoherences<T extends PunchEntryLike>(
  entries: readonly T[],
): { entry: T; isIncoherent: boolean }[] {
  let expectIn = true;
  return sortEntries(entries).map((entry) => {
    const isIncoherent = entry.is_in !== expectIn;
    // A breaking entry is flagged; the alternation continues from what it is.
    expectIn = !entry.is_in;
    return { entry, isIncoherent };
  });
}

export function isCoherent(entries: readonly PunchEntryLike[]): boolean {
  return flagIncoherences(entries).every((item) => !item.isIncoherent);
}

/**
 * A day's badges (spec 000 §2, §4): an entrance directly followed by an exit is paired; any
 * other entry stands alone.
 */
export function pairEntries<T extends PunchEntryLike>(
  dayEntries: readonly T[],
): { in: T | null; out: T | null }[] {
  const sorted = sortEntries(dayEntries);
  const pairs: { in: T | null; out: T | null }[] = [];
  for (let index = 0; index < sorted.length; index += 1) {
    const entry = sorted[index]!;
    const next = sorted[index + 1];
    if (entry.is_in && next && !next.is_in) {
      pairs.push({ in: entry, out: next });
      index += 1;
    } else pairs.push(entry.is_in ? { in: entry, out: null } : { in: null, out: entry });
  }
  return pairs;
}

/**
 * Total hours of an employee over a range (spec 000 §4): each entrance is paired with the next
 * exit (across midnight too); an exit without an open entrance is ignored; a second entrance
 * while one is open restarts the count from the later one (the earlier is flagged incoherent).
 */
export function totalHours(entries: readonly PunchEntryLike[]): number {
  let openedAt: number | null = null;
  let totalMs = 0;
  for (const entry of sortEntries(entries)) {
    const at = effectiveTime(entry);
    if (entry.is_in) openedAt = at;
    else if (openedAt !== null) {
      totalMs += at - openedAt;
      openedAt = null;
    }
  }
  return totalMs / 3_600_000;
}

/**
 * The entry the add button creates on a day (spec 000 §4): an entrance when the day's last
 * entry is an exit or there is none, else an exit; at the last entry plus one minute, or —
 * on an empty day — at the current time of day on that date in the store's zone.
 */
export function nextEntry(
  dayEntries: readonly PunchEntryLike[],
  day: string,
  now: Date,
  zone: string,
): { is_in: boolean; timestamp: string } {
  const sorted = sortEntries(dayEntries);
  const last = sorted[sorted.length - 1];
  if (last) {
    return {
      is_in: !last.is_in,
      timestamp: new Date(effectiveTime(last) + punchEntryStepMs).toISOString(),
    };
  }
  const clock = DateTime.fromJSDate(now, { zone });
  const at = DateTime.fromISO(day, { zone }).set({
    hour: clock.hour,
    minute: clock.minute,
    second: 0,
    millisecond: 0,
  });
  return { is_in: true, timestamp: at.toUTC().toISO() ?? now.toISOString() };
}

/**
 * Editing an entry's time (spec 000 §5): the new time must be after the previous entry's
 * ('punch-card/edit-too-early', "The new timestamp must be after the previous entry").
 */
export function validateEditTime(
  previous: PunchEntryLike | null | undefined,
  newTime: string,
): 'punch-card/edit-too-early' | null {
  if (!previous) return null;
  return Date.parse(newTime) > effectiveTime(previous) ? null : 'punch-card/edit-too-early';
}

/** The calendar day (YYYY-MM-DD) of an entry in the store's zone. */
export function entryDay(entry: PunchEntryLike, zone: string): string {
  return (
    DateTime.fromMillis(effectiveTime(entry), { zone }).toISODate() ??
    new Date(effectiveTime(entry)).toISOString().slice(0, 10)
  );
}

/**
 * The punch-card CSV (spec 000 §9): separator ';', columns Etablissement, Employee, Date,
 * Time, Arrivée; one line per entry ordered by employee then time; date dd/mm/yyyy and time
 * HH:MM in the store's zone; Arrivée 'Oui' for an entrance, 'Non' for an exit; lines end with
 * CRLF; a name a spreadsheet would run as a formula is prefixed with an apostrophe.
 */
export function punchCardsCsv(input: {
  storeName: string;
  zone: string;
  employees: readonly { name: string; surname: string; entries: readonly PunchEntryLike[] }[];
}): string {
  const rows: string[][] = [[...punchCardCsv.columns]];
  for (const employee of input.employees) {
    const who = `${employee.name.trim()} ${employee.surname.trim()}`.trim();
    for (const entry of sortEntries(employee.entries)) {
      const at = DateTime.fromMillis(effectiveTime(entry), { zone: input.zone });
      rows.push([
        input.storeName,
        who,
        at.toFormat('dd/MM/yyyy'),
        at.toFormat('HH:mm'),
        entry.is_in ? punchCardCsv.entrance : punchCardCsv.exit,
      ]);
    }
  }
  // The product's CSV writer: RFC 4180 quoting and the spreadsheet formula guard.
  return writeCsv(rows, { separator: punchCardCsv.separator });
}
