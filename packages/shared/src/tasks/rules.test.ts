import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { taskOpeningToleranceMinutes } from './constants';
import {
  buildRecurrence,
  compileRecurrence,
  dayInZone,
  defaultRecurrenceModel,
  isValidRecurrence,
  isValidTaskDay,
  lateDeliveryGraceHours,
  listsFromWindows,
  localMinuteToInstant,
  madeAtOnServerClock,
  parseRecurrence,
  type RecurrenceModel,
  taskStatus,
  taskWindow,
  taskWindowState,
  validatePattern,
  validatePin,
  validateSchedule,
  validateSchedules,
  windowsFromLists,
  writeInstant,
} from './rules';

describe('taskStatus', () => {
  const start = new Date('2026-05-05T08:00:00.000Z');
  const end = new Date(start.getTime() + 60 * 60_000);
  const task = (completedAt: Date | null, postponed = false) => ({
    start,
    duration: 60,
    completedAt,
    postponed,
  });
  const later = new Date(end.getTime() + 3600_000);

  it('done at the end exactly, done-late 1 ms after', () => {
    expect(taskStatus(task(end), later, true)).toBe('done');
    expect(taskStatus(task(new Date(end.getTime() + 1)), later, true)).toBe('done-late');
  });

  it('on-time while now is the end, late 1 ms after; non-finalized on another day', () => {
    expect(taskStatus(task(null), end, true)).toBe('on-time');
    expect(taskStatus(task(null), new Date(end.getTime() + 1), true)).toBe('late');
    expect(taskStatus(task(null), new Date(end.getTime() + 1), false)).toBe('non-finalized');
  });

  it('postponed wins over everything', () => {
    expect(taskStatus(task(end, true), later, true)).toBe('postponed');
    expect(taskStatus(task(null, true), later, false)).toBe('postponed');
  });
});

describe('taskWindow: from the start less the tolerance to the end of the store day', () => {
  const task = { start: new Date('2026-06-10T15:00:00Z'), day: '2026-06-10' }; // 17:00 Paris
  const window = taskWindow(task, 'Europe/Paris');
  const at = (iso: string) => new Date(iso);

  it('opens at most 30 minutes before the start and closes at the next local midnight', () => {
    expect(taskOpeningToleranceMinutes).toBeGreaterThan(0);
    expect(taskOpeningToleranceMinutes).toBeLessThanOrEqual(30);
    expect(window.opensAt.toISOString()).toBe('2026-06-10T14:30:00.000Z');
    expect(window.closesAt.toISOString()).toBe('2026-06-10T22:00:00.000Z');
  });

  it('not open 1 ms before opening, open at opening and until 1 ms before midnight, then closed', () => {
    expect(taskWindowState(window, at('2026-06-10T09:35:00Z'))).toBe('not_open_yet');
    expect(taskWindowState(window, at('2026-06-10T14:29:59.999Z'))).toBe('not_open_yet');
    expect(taskWindowState(window, at('2026-06-10T14:30:00Z'))).toBe('open');
    expect(taskWindowState(window, at('2026-06-10T21:59:59.999Z'))).toBe('open');
    expect(taskWindowState(window, at('2026-06-10T22:00:00Z'))).toBe('closed');
    expect(taskWindowState(window, at('2026-07-01T10:00:00Z'))).toBe('closed');
  });

  it("the store day is the store's zone day, DST days included", () => {
    const tokyo = taskWindow(
      { start: new Date('2026-06-10T00:00:00Z'), day: '2026-06-10' },
      'Asia/Tokyo',
    );
    expect(tokyo.closesAt.toISOString()).toBe('2026-06-10T15:00:00.000Z');
    // Paris springs forward on 2026-03-29 (a 23-hour day) and falls back on 2026-10-25.
    const spring = taskWindow(
      { start: new Date('2026-03-29T10:00:00Z'), day: '2026-03-29' },
      'Europe/Paris',
    );
    expect(spring.closesAt.toISOString()).toBe('2026-03-29T22:00:00.000Z');
    const autumn = taskWindow(
      { start: new Date('2026-10-25T10:00:00Z'), day: '2026-10-25' },
      'Europe/Paris',
    );
    expect(autumn.closesAt.toISOString()).toBe('2026-10-25T23:00:00.000Z');
  });
});

describe('isValidTaskDay', () => {
  it('accepts existing days from 2000-01-01 to 2099-12-31 only', () => {
    for (const day of ['2000-01-01', '2026-02-28', '2028-02-29', '2099-12-31'])
      expect(isValidTaskDay(day), day).toBe(true);
    for (const day of [
      '0000-01-01',
      '1999-12-31',
      '2100-01-01',
      '2026-02-29',
      '2026-13-01',
      '2026-1-1',
      'today',
    ])
      expect(isValidTaskDay(day), day).toBe(false);
  });
});

describe('validatePin and validatePattern', () => {
  it('accepts four ASCII digits only', () => {
    expect(validatePin('1234')).toBeNull();
    for (const pin of ['123', '12345', '12a4', '١٢٣٤']) {
      expect(validatePin(pin), pin).toBe('invalid-password');
    }
  });

  it('refuses short patterns, repeated points and points out of range', () => {
    expect(validatePattern([0, 1, 2])).toBeNull();
    expect(validatePattern([0, 1])).toBe('pattern-too-short');
    expect(validatePattern([0, 1, 1])).toBe('invalid-pattern');
    expect(validatePattern([0, 1, 9])).toBe('invalid-pattern');
    expect(validatePattern([-1, 1, 2])).toBe('invalid-pattern');
    expect(validatePattern([0, 1.5, 2])).toBe('invalid-pattern');
  });
});

describe('recurrence', () => {
  const model = (changes: Partial<RecurrenceModel>): RecurrenceModel => ({
    ...defaultRecurrenceModel,
    ...changes,
  });

  it('round-trips every editor option through buildRecurrence and parseRecurrence', () => {
    const cases: [RecurrenceModel, string][] = [
      [model({ frequency: 3, interval: 1 }), 'FREQ=DAILY;INTERVAL=1'],
      [model({ frequency: 3, interval: 3 }), 'FREQ=DAILY;INTERVAL=3'],
      [model({ frequency: 2, weekdays: [0, 2, 6] }), 'FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,WE,SU'],
      [model({ frequency: 2, interval: 2, weekdays: [4] }), 'FREQ=WEEKLY;INTERVAL=2;BYDAY=FR'],
      [
        model({ frequency: 1, monthMode: 'day', monthDay: 15 }),
        'FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=15',
      ],
      ...([1, 2, 3, 4] as const).map((position): [RecurrenceModel, string] => [
        model({ frequency: 1, monthMode: 'position', position, positionWeekday: 1 }),
        `FREQ=MONTHLY;INTERVAL=1;BYDAY=+${position}TU`,
      ]),
      [
        model({ frequency: 1, monthMode: 'position', position: -1, positionWeekday: 4 }),
        'FREQ=MONTHLY;INTERVAL=1;BYDAY=-1FR',
      ],
      [
        model({ frequency: 0, month: 7, monthMode: 'day', monthDay: 14 }),
        'FREQ=YEARLY;INTERVAL=1;BYMONTH=7;BYMONTHDAY=14',
      ],
      [
        model({ frequency: 0, month: 11, monthMode: 'position', position: 4, positionWeekday: 3 }),
        'FREQ=YEARLY;INTERVAL=1;BYMONTH=11;BYDAY=+4TH',
      ],
    ];
    for (const [input, rule] of cases) {
      expect(buildRecurrence(input)).toBe(rule);
      expect(isValidRecurrence(rule), rule).toBe(true);
      expect(buildRecurrence(parseRecurrence(rule))).toBe(rule);
      const parsed = parseRecurrence(rule);
      expect(parsed.frequency).toBe(input.frequency);
      expect(parsed.interval).toBe(input.interval);
    }
  });

  it('writes Monday for a weekly rule without days', () => {
    expect(buildRecurrence(model({ frequency: 2, weekdays: [] }))).toBe(
      'FREQ=WEEKLY;INTERVAL=1;BYDAY=MO',
    );
  });

  it('refuses non-canonical rules and intervals above 999', () => {
    for (const rule of [
      'FREQ=WEEKLY;INTERVAL=1;BYDAY=WE,MO',
      'FREQ=DAILY',
      'INTERVAL=1;FREQ=DAILY',
      'FREQ=DAILY;INTERVAL=1;COUNT=3',
      'FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=32',
      'FREQ=HOURLY;INTERVAL=1',
      'FREQ=DAILY;INTERVAL=1000',
      'FREQ=DAILY;INTERVAL=0',
    ]) {
      expect(isValidRecurrence(rule), rule).toBe(false);
    }
    expect(isValidRecurrence('FREQ=DAILY;INTERVAL=999')).toBe(true);
    expect(isValidRecurrence('freq=daily;interval=1')).toBe(true);
  });

  it('counts weekly intervals from the anchor with the store week start', () => {
    // Anchor Sunday 2026-05-03; every other week on Sunday and Monday.
    const rule = 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,SU';
    const mondayFirst = compileRecurrence(rule, '2026-05-03', 0);
    const sundayFirst = compileRecurrence(rule, '2026-05-03', 6);
    // Week starting Monday: Sunday 3 closes the anchor week, Monday 4 opens the next (skipped).
    expect(mondayFirst.daysBetween('2026-05-03', '2026-05-18')).toEqual([
      '2026-05-03',
      '2026-05-11',
      '2026-05-17',
    ]);
    // Week starting Sunday: Sunday 3 and Monday 4 are the same week.
    expect(sundayFirst.daysBetween('2026-05-03', '2026-05-18')).toEqual([
      '2026-05-03',
      '2026-05-04',
      '2026-05-17',
      '2026-05-18',
    ]);
  });

  it('skips months without a 31st', () => {
    const compiled = compileRecurrence('FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=31', '2026-01-01', 0);
    expect(compiled.daysBetween('2026-01-01', '2026-08-31')).toEqual([
      '2026-01-31',
      '2026-03-31',
      '2026-05-31',
      '2026-07-31',
      '2026-08-31',
    ]);
    expect(compiled.occursOn('2026-04-30')).toBe(false);
  });
});

describe('localMinuteToInstant', () => {
  it('follows Paris across its DST changes', () => {
    expect(localMinuteToInstant('2026-03-28', 480, 'Europe/Paris').toISOString()).toBe(
      '2026-03-28T07:00:00.000Z',
    );
    expect(localMinuteToInstant('2026-03-29', 480, 'Europe/Paris').toISOString()).toBe(
      '2026-03-29T06:00:00.000Z',
    );
    // 02:30 does not exist on the spring-forward day: moved forward by the gap.
    expect(localMinuteToInstant('2026-03-29', 150, 'Europe/Paris').toISOString()).toBe(
      '2026-03-29T01:30:00.000Z',
    );
    expect(localMinuteToInstant('2026-10-25', 480, 'Europe/Paris').toISOString()).toBe(
      '2026-10-25T07:00:00.000Z',
    );
    // 02:30 happens twice on the fall-back day: the first one.
    expect(localMinuteToInstant('2026-10-25', 150, 'Europe/Paris').toISOString()).toBe(
      '2026-10-25T00:30:00.000Z',
    );
    // The end of the day (1440) is the next midnight.
    expect(localMinuteToInstant('2026-03-29', 1440, 'Europe/Paris').toISOString()).toBe(
      '2026-03-29T22:00:00.000Z',
    );
  });

  it('follows New York across its DST changes', () => {
    expect(localMinuteToInstant('2026-03-07', 480, 'America/New_York').toISOString()).toBe(
      '2026-03-07T13:00:00.000Z',
    );
    expect(localMinuteToInstant('2026-03-08', 480, 'America/New_York').toISOString()).toBe(
      '2026-03-08T12:00:00.000Z',
    );
    expect(localMinuteToInstant('2026-11-01', 480, 'America/New_York').toISOString()).toBe(
      '2026-11-01T13:00:00.000Z',
    );
  });
});

describe('schedules', () => {
  it('checks one window: start 0–1439, end up to 1440, start not after end', () => {
    expect(validateSchedule({ start: 0, end: 0 })).toBeNull();
    expect(validateSchedule({ start: 480, end: 1440 })).toBeNull();
    expect(validateSchedule({ start: 1439, end: 1440 })).toBeNull();
    expect(validateSchedule({ start: 1440, end: 1440 })).toBe('schedule-incoherent');
    expect(validateSchedule({ start: 600, end: 540 })).toBe('schedule-incoherent');
    expect(validateSchedule({ start: -1, end: 10 })).toBe('schedule-incoherent');
    expect(validateSchedule({ start: 10, end: 1441 })).toBe('schedule-incoherent');
    expect(validateSchedule({ start: 10.5, end: 20 })).toBe('schedule-incoherent');
  });

  it('refuses two windows with the same start', () => {
    expect(
      validateSchedules([
        { start: 480, end: 540 },
        { start: 600, end: 660 },
      ]),
    ).toBeNull();
    expect(
      validateSchedules([
        { start: 480, end: 540 },
        { start: 480, end: 600 },
      ]),
    ).toBe('schedule-incoherent');
  });

  it('converts windows and stored lists both ways, sorted by start', () => {
    const lists = listsFromWindows([
      { start: 1020, end: 1080 },
      { start: 480, end: 510 },
    ]);
    expect(lists).toEqual({ starts: [480, 1020], durations: [30, 60] });
    expect(windowsFromLists(lists.starts, lists.durations)).toEqual([
      { start: 480, end: 510 },
      { start: 1020, end: 1080 },
    ]);
    expect(windowsFromLists([480], [])).toEqual([{ start: 480, end: 480 }]);
  });
});

describe('dayInZone', () => {
  it('gives the calendar day of the zone, as luxon does, around midnights and DST changes', () => {
    const zones = [
      'Europe/Paris',
      'Europe/Warsaw',
      'America/New_York',
      'Pacific/Kiritimati',
      'Pacific/Niue',
      'Asia/Kolkata',
      'Australia/Lord_Howe',
      'UTC',
    ];
    // Every 37 minutes over a year: both DST changes, month and year ends.
    const start = Date.parse('2025-12-30T00:00:00Z');
    let checked = 0;
    for (let at = start; at < start + 370 * 86_400_000; at += 37 * 60_000) {
      const instant = new Date(at);
      for (const zone of zones) {
        expect(dayInZone(instant, zone)).toBe(DateTime.fromJSDate(instant, { zone }).toISODate());
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100_000);
    expect(dayInZone(new Date('2026-06-30T23:30:00Z'), 'Europe/Paris')).toBe('2026-07-01');
    expect(dayInZone(new Date('2026-06-30T23:30:00Z'), 'America/New_York')).toBe('2026-06-30');
  });

  it('falls back to the UTC day for a zone that does not exist', () => {
    expect(dayInZone(new Date('2026-06-30T23:30:00Z'), 'Mars/Olympus_Mons')).toBe('2026-06-30');
  });
});

describe('a record delivered after its window closed (made offline)', () => {
  const window = {
    opensAt: new Date('2026-06-10T19:30:00Z'),
    closesAt: new Date('2026-06-10T22:00:00Z'),
  };
  const at = (iso: string) => new Date(iso);

  it('places the time a tablet reports on the server clock with the offset at sending', () => {
    // The tablet runs 5 minutes slow: it reports 21:50 for 21:55 and sends at 22:05 for 22:10.
    expect(
      madeAtOnServerClock(
        at('2026-06-10T21:50:00Z'),
        at('2026-06-10T22:05:00Z'),
        at('2026-06-10T22:10:00Z'),
      ),
    ).toEqual(at('2026-06-10T21:55:00Z'));
    expect(
      madeAtOnServerClock(null, at('2026-06-10T22:05:00Z'), at('2026-06-10T22:10:00Z')),
    ).toBeNull();
    expect(
      madeAtOnServerClock(at('2026-06-10T21:50:00Z'), null, at('2026-06-10T22:10:00Z')),
    ).toBeNull();
    // Reported after it was sent: not a time the record could have been made.
    expect(
      madeAtOnServerClock(
        at('2026-06-10T22:06:00Z'),
        at('2026-06-10T22:05:00Z'),
        at('2026-06-10T22:10:00Z'),
      ),
    ).toBeNull();
  });

  it('judges it at the time it was made only once the window closed, inside the grace', () => {
    const madeAt = at('2026-06-10T21:55:00Z');
    expect(writeInstant(window, madeAt, at('2026-06-10T22:10:00Z'))).toEqual(madeAt);
    // Still open: now, whatever the tablet says.
    expect(writeInstant(window, madeAt, at('2026-06-10T21:58:00Z'))).toEqual(
      at('2026-06-10T21:58:00Z'),
    );
    // Made after the close, or before the opening: now (refused as closed).
    const after = at('2026-06-10T22:01:00Z');
    expect(writeInstant(window, after, at('2026-06-10T22:10:00Z'))).toEqual(
      at('2026-06-10T22:10:00Z'),
    );
    const before = at('2026-06-10T19:00:00Z');
    expect(writeInstant(window, before, at('2026-06-10T22:10:00Z'))).toEqual(
      at('2026-06-10T22:10:00Z'),
    );
    // Beyond the grace: now.
    const tooLate = new Date(madeAt.getTime() + lateDeliveryGraceHours * 3_600_000 + 1);
    expect(writeInstant(window, madeAt, tooLate)).toEqual(tooLate);
    expect(writeInstant(window, null, at('2026-06-10T22:10:00Z'))).toEqual(
      at('2026-06-10T22:10:00Z'),
    );
  });
});
