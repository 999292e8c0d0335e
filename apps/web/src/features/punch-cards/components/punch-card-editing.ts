import {
  effectiveTime,
  entryDay,
  flagIncoherences,
  isCoherent,
  nextEntry,
  sortEntries,
  validateEditTime,
} from '@mise/shared/people/rules';
import type { PunchEntry, SavePunchCardsBody } from '@mise/shared/people/schemas';

/*
 * The punch-card table's local state (spec 000 §2, §4, §5): the range's entries as loaded,
 * then added, re-timed or deleted on screen until Save. Pure functions over a list; the rules
 * themselves (coherence, pairing, next entry, edit check) are the shared ones.
 */

/** An entry on screen: a saved one (id and version) or one added in this session (id null). */
export type EditableEntry = {
  /** Stable key on screen: the saved id, or `new-<n>` for an added entry. */
  key: string;
  id: string | null;
  version: number | null;
  employee_id: string;
  is_in: boolean;
  /** The clock time (an added entry's chosen time). */
  timestamp: string;
  /** A correction of a saved entry; wins over `timestamp`. */
  timestamp_modified: string | null;
};

/** The range saved, and when the edited answer was read (the server's `loaded_at`). */
export type PunchRange = { start: string; end: string; loadedAt?: string };

export function toEditableEntries(entries: readonly PunchEntry[]): EditableEntry[] {
  return entries.map((entry) => ({
    key: entry.id,
    id: entry.id,
    version: entry.version,
    employee_id: entry.employee_id,
    is_in: entry.is_in,
    timestamp: entry.timestamp,
    timestamp_modified: entry.timestamp_modified,
  }));
}

export function isAddedEntry(entry: EditableEntry): boolean {
  return entry.id === null;
}

/** One employee's entries, in time order. */
export function employeeEntries(
  entries: readonly EditableEntry[],
  employeeId: string,
): EditableEntry[] {
  return sortEntries(entries.filter((entry) => entry.employee_id === employeeId));
}

/** One employee's entries of a day of the store's calendar, in time order. */
export function dayEntries(
  entries: readonly EditableEntry[],
  employeeId: string,
  day: string,
  zone: string,
): EditableEntry[] {
  return employeeEntries(entries, employeeId).filter((entry) => entryDay(entry, zone) === day);
}

function nextAddedKey(entries: readonly EditableEntry[]): string {
  let highest = 0;
  for (const entry of entries) {
    const match = /^new-(\d+)$/.exec(entry.key);
    if (match) highest = Math.max(highest, Number(match[1]));
  }
  return `new-${highest + 1}`;
}

/**
 * The add button of a day (spec 000 §4): an entrance after an exit or on an empty day, else an
 * exit; one minute after the day's last entry, or now's time of day on that date.
 */
export function addEntry(
  entries: readonly EditableEntry[],
  input: { employeeId: string; day: string; now: Date; zone: string },
): { entries: EditableEntry[]; added: EditableEntry } {
  const next = nextEntry(
    dayEntries(entries, input.employeeId, input.day, input.zone),
    input.day,
    input.now,
    input.zone,
  );
  const added: EditableEntry = {
    key: nextAddedKey(entries),
    id: null,
    version: null,
    employee_id: input.employeeId,
    is_in: next.is_in,
    timestamp: next.timestamp,
    timestamp_modified: null,
  };
  return { entries: [...entries, added], added };
}

/** The entry just before `key` in its employee's time order; null for the first. */
export function previousEntry(
  entries: readonly EditableEntry[],
  key: string,
): EditableEntry | null {
  const entry = entries.find((item) => item.key === key);
  if (!entry) return null;
  const ordered = employeeEntries(entries, entry.employee_id);
  const index = ordered.findIndex((item) => item.key === key);
  return index > 0 ? (ordered[index - 1] ?? null) : null;
}

export type EditResult =
  | { ok: true; entries: EditableEntry[] }
  | { ok: false; error: 'punch-card/edit-too-early' | 'punch-card/unknown-entry' };

/**
 * A new time for an entry (spec 000 §5): refused, list unchanged, when it is not after the
 * previous entry. A saved entry gets a correction (`timestamp_modified`); an entry added in
 * this session simply moves. The same time as now changes nothing.
 */
export function editEntryTime(
  entries: readonly EditableEntry[],
  key: string,
  newTime: string,
): EditResult {
  const entry = entries.find((item) => item.key === key);
  if (!entry) return { ok: false, error: 'punch-card/unknown-entry' };
  const error = validateEditTime(previousEntry(entries, key), newTime);
  if (error) return { ok: false, error };
  if (Date.parse(newTime) === effectiveTime(entry)) return { ok: true, entries: [...entries] };
  return {
    ok: true,
    entries: entries.map((item) => {
      if (item.key !== key) return item;
      return isAddedEntry(item)
        ? { ...item, timestamp: newTime }
        : { ...item, timestamp_modified: newTime };
    }),
  };
}

export function deleteEntry(entries: readonly EditableEntry[], key: string): EditableEntry[] {
  return entries.filter((entry) => entry.key !== key);
}

/** Keys of the entries breaking their employee's alternation over the range (red border). */
export function incoherentEntryKeys(entries: readonly EditableEntry[]): Set<string> {
  const keys = new Set<string>();
  const employeeIds = new Set(entries.map((entry) => entry.employee_id));
  for (const employeeId of employeeIds) {
    const flagged = flagIncoherences(entries.filter((entry) => entry.employee_id === employeeId));
    for (const item of flagged) if (item.isIncoherent) keys.add(item.entry.key);
  }
  return keys;
}

/** Saving is allowed only when every employee's entries are coherent (spec 000 §4). */
export function areAllCardsCoherent(entries: readonly EditableEntry[]): boolean {
  const employeeIds = new Set(entries.map((entry) => entry.employee_id));
  return [...employeeIds].every((employeeId) =>
    isCoherent(entries.filter((entry) => entry.employee_id === employeeId)),
  );
}

/**
 * The PUT body: the range's complete set, per employee in time order. Saved entries carry
 * their id, version and correction; added ones their time. What is not sent is deleted, unless
 * it was created after `loaded_at` (the server then answers 409 rather than delete it unseen).
 */
export function buildSaveBody(
  entries: readonly EditableEntry[],
  range: PunchRange,
): SavePunchCardsBody {
  const employeeIds = [...new Set(entries.map((entry) => entry.employee_id))];
  return {
    start: range.start,
    end: range.end,
    ...(range.loadedAt ? { loaded_at: range.loadedAt } : {}),
    entries: employeeIds.flatMap((employeeId) =>
      employeeEntries(entries, employeeId).map((entry) =>
        entry.id === null
          ? { employee_id: entry.employee_id, is_in: entry.is_in, timestamp: entry.timestamp }
          : {
              id: entry.id,
              version: entry.version ?? 0,
              employee_id: entry.employee_id,
              is_in: entry.is_in,
              timestamp_modified: entry.timestamp_modified,
            },
      ),
    ),
  };
}

/** Whether the screen differs from what was loaded (added, deleted or re-timed entries). */
export function hasChanges(
  entries: readonly EditableEntry[],
  saved: readonly PunchEntry[],
): boolean {
  if (entries.length !== saved.length) return true;
  const savedById = new Map(saved.map((entry) => [entry.id, entry]));
  return entries.some((entry) => {
    const original = entry.id === null ? undefined : savedById.get(entry.id);
    return !original || effectiveTime(original) !== effectiveTime(entry);
  });
}

/** Hours with two decimals when not whole, in the interface language: '8 h', '7.50 h', '7,50 h'. */
export function formatHours(hours: number, language = 'en'): string {
  const rounded = Math.round(hours * 100) / 100;
  const digits = Number.isInteger(rounded) ? 0 : 2;
  const number = new Intl.NumberFormat(language, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    useGrouping: false,
  }).format(rounded);
  return `${number} h`;
}
