import type { PunchEntry } from '@mise/shared/people/schemas';
import { describe, expect, it } from 'vitest';
import {
  currentWeek,
  daysOfRange,
  formatDayMonth,
  formatStoreTime,
  rangeLength,
  zonedInstant,
} from '../../../shared/format/store-clock';
import {
  addEntry,
  areAllCardsCoherent,
  buildSaveBody,
  dayEntries,
  deleteEntry,
  editEntryTime,
  formatHours,
  hasChanges,
  incoherentEntryKeys,
  toEditableEntries,
} from './punch-card-editing';

const zone = 'Europe/Paris';
const lea = 'employee-lea';
const hugo = 'employee-hugo';

function entry(id: string, employeeId: string, isIn: boolean, timestamp: string): PunchEntry {
  return {
    id,
    employee_id: employeeId,
    is_in: isIn,
    timestamp,
    timestamp_modified: null,
    day: timestamp.slice(0, 10),
    source: 'device',
    selfie_url: null,
    incoherent: false,
    version: 2,
  };
}

// Paris is UTC+1 in November: 07:00Z is 08:00 on the store's clock.
const saved = [
  entry('e1', lea, true, '2026-11-16T07:00:00Z'),
  entry('e2', lea, false, '2026-11-16T11:30:00Z'),
  entry('e3', hugo, true, '2026-11-17T08:00:00Z'),
];

describe('punch-card editing', () => {
  it('adds an entrance on an empty day at now’s time of day on that date, on the store’s clock', () => {
    const { added } = addEntry(toEditableEntries(saved), {
      employeeId: lea,
      day: '2026-11-18',
      // 14:25 in Paris on another date.
      now: new Date('2026-11-22T13:25:40Z'),
      zone,
    });
    expect(added).toMatchObject({ id: null, is_in: true, employee_id: lea, key: 'new-1' });
    expect(added.timestamp).toBe('2026-11-18T13:25:00.000Z');
  });

  it('alternates in and out one minute after the day’s last entry', () => {
    let entries = toEditableEntries(saved);
    const now = new Date('2026-11-22T13:00:00Z');
    const first = addEntry(entries, { employeeId: lea, day: '2026-11-16', now, zone });
    expect(first.added.is_in).toBe(true);
    expect(first.added.timestamp).toBe('2026-11-16T11:31:00.000Z');
    entries = first.entries;
    const second = addEntry(entries, { employeeId: lea, day: '2026-11-16', now, zone });
    expect(second.added).toMatchObject({ is_in: false, key: 'new-2' });
    expect(second.added.timestamp).toBe('2026-11-16T11:32:00.000Z');
    expect(dayEntries(second.entries, lea, '2026-11-16', zone).map((item) => item.key)).toEqual([
      'e1',
      'e2',
      'new-1',
      'new-2',
    ]);
  });

  it('refuses a time not after the previous entry and leaves the list as it was', () => {
    const entries = toEditableEntries(saved);
    const tooEarly = editEntryTime(entries, 'e2', '2026-11-16T07:00:00Z');
    expect(tooEarly).toEqual({ ok: false, error: 'punch-card/edit-too-early' });
    expect(entries.find((item) => item.key === 'e2')?.timestamp_modified).toBeNull();
    // The first entry has no previous one: any time goes.
    expect(editEntryTime(entries, 'e1', '2026-11-16T05:00:00Z').ok).toBe(true);
  });

  it('corrects a saved entry and moves an added one', () => {
    const entries = toEditableEntries(saved);
    const corrected = editEntryTime(entries, 'e2', '2026-11-16T12:00:00Z');
    if (!corrected.ok) throw new Error('edit refused');
    const e2 = corrected.entries.find((item) => item.key === 'e2');
    expect(e2).toMatchObject({ timestamp: '2026-11-16T11:30:00Z' });
    expect(e2?.timestamp_modified).toBe('2026-11-16T12:00:00Z');

    const { entries: withAdded } = addEntry(entries, {
      employeeId: hugo,
      day: '2026-11-17',
      now: new Date(),
      zone,
    });
    const moved = editEntryTime(withAdded, 'new-1', '2026-11-17T16:00:00Z');
    if (!moved.ok) throw new Error('edit refused');
    expect(moved.entries.find((item) => item.key === 'new-1')).toMatchObject({
      timestamp: '2026-11-17T16:00:00Z',
      timestamp_modified: null,
    });
  });

  it('flags the entries breaking the alternation and refuses saving until one is deleted', () => {
    const entries = [
      ...toEditableEntries(saved),
      ...toEditableEntries([entry('e4', hugo, true, '2026-11-17T09:00:00Z')]),
    ];
    expect([...incoherentEntryKeys(entries)]).toEqual(['e4']);
    expect(areAllCardsCoherent(entries)).toBe(false);
    const fixed = deleteEntry(entries, 'e4');
    expect(incoherentEntryKeys(fixed).size).toBe(0);
    expect(areAllCardsCoherent(fixed)).toBe(true);
  });

  it('builds the save body: saved entries with id, version and correction, added ones with their time', () => {
    let entries = toEditableEntries(saved);
    const edited = editEntryTime(entries, 'e2', '2026-11-16T12:00:00Z');
    if (!edited.ok) throw new Error('edit refused');
    entries = addEntry(edited.entries, {
      employeeId: hugo,
      day: '2026-11-17',
      now: new Date(),
      zone,
    }).entries;
    expect(
      buildSaveBody(entries, {
        start: '2026-11-16',
        end: '2026-11-22',
        loadedAt: '2026-11-22T09:00:00.000Z',
      }),
    ).toEqual({
      start: '2026-11-16',
      end: '2026-11-22',
      loaded_at: '2026-11-22T09:00:00.000Z',
      entries: [
        { id: 'e1', version: 2, employee_id: lea, is_in: true, timestamp_modified: null },
        {
          id: 'e2',
          version: 2,
          employee_id: lea,
          is_in: false,
          timestamp_modified: '2026-11-16T12:00:00Z',
        },
        { id: 'e3', version: 2, employee_id: hugo, is_in: true, timestamp_modified: null },
        { employee_id: hugo, is_in: false, timestamp: '2026-11-17T08:01:00.000Z' },
      ],
    });
  });

  it('tells a changed list from the loaded one', () => {
    const entries = toEditableEntries(saved);
    expect(hasChanges(entries, saved)).toBe(false);
    expect(hasChanges(deleteEntry(entries, 'e1'), saved)).toBe(true);
    const edited = editEntryTime(entries, 'e2', '2026-11-16T12:00:00Z');
    expect(edited.ok && hasChanges(edited.entries, saved)).toBe(true);
    const same = editEntryTime(entries, 'e2', '2026-11-16T11:30:00.000Z');
    expect(same.ok && hasChanges(same.entries, saved)).toBe(false);
  });

  it('shows hours with two decimals when not whole', () => {
    expect(formatHours(7.5)).toBe('7.50 h');
    expect(formatHours(8)).toBe('8 h');
    expect(formatHours(0)).toBe('0 h');
    expect(formatHours(1 / 3)).toBe('0.33 h');
    expect(formatHours(7.5, 'fr')).toBe('7,50 h');
  });
});

describe('store clock', () => {
  it('takes the week, Monday to Sunday, on the store’s calendar', () => {
    // Sunday 23:30 in New York is already Monday in Paris.
    expect(currentWeek(zone, new Date('2026-11-23T04:30:00Z'))).toEqual({
      start: '2026-11-23',
      end: '2026-11-29',
    });
    expect(currentWeek(zone, new Date('2026-11-22T12:00:00Z'))).toEqual({
      start: '2026-11-16',
      end: '2026-11-22',
    });
  });

  it('converts a wall-clock time of a store day to an instant and back, across DST', () => {
    expect(zonedInstant('2026-11-16', '08:15', zone)).toBe('2026-11-16T07:15:00.000Z');
    expect(zonedInstant('2026-07-16', '08:15', zone)).toBe('2026-07-16T06:15:00.000Z');
    expect(zonedInstant('2026-11-16', '25:00', zone)).toBeNull();
    expect(formatStoreTime('2026-07-16T06:15:00Z', zone)).toBe('08:15');
  });

  it('lists the days of a range', () => {
    expect(daysOfRange('2026-11-29', '2026-12-02')).toEqual([
      '2026-11-29',
      '2026-11-30',
      '2026-12-01',
      '2026-12-02',
    ]);
    expect(rangeLength('2026-11-01', '2026-11-30')).toBe(30);
    expect(formatDayMonth('2026-11-29')).toBe('29/11');
  });
});
