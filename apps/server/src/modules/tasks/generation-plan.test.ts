import { describe, expect, it } from 'vitest';
import type { GenerationConfiguration } from '../task-configurations/generation-configurations';
import { type GenerationStore, hourInZone, planStoreDay } from './generation.service';

/** Planning is pure: these run the same on both server projects, no database. */

const paris: GenerationStore = {
  id: '00000000-0000-4000-8000-000000000001',
  active: true,
  timezone_name: 'Europe/Paris',
  task_generation_hour: 0,
  week_start: 0,
  created_at: new Date('2020-01-01T00:00:00Z'),
};
const newYork: GenerationStore = {
  ...paris,
  id: '00000000-0000-4000-8000-000000000002',
  timezone_name: 'America/New_York',
};

function configuration(values: Partial<GenerationConfiguration> = {}): GenerationConfiguration {
  return {
    key: 'c1',
    configuration_id: 'c1',
    store_configuration_id: null,
    database_id: null,
    name: 'Relevé frigos',
    module: 'temperatures',
    type_name: null,
    type_color: null,
    recurrence: 'FREQ=DAILY;INTERVAL=1',
    recurrence_anchor: '2026-01-01',
    // 08:00–09:00 and 17:00–18:00, wall clock of the store.
    starts: [480, 1020],
    durations: [60, 60],
    requires_manager: false,
    notify_late: false,
    elements: [],
    actions: [],
    ...values,
  };
}

const startsOf = (store: GenerationStore, day: string, configurations = [configuration()]) =>
  planStoreDay(store, day, configurations).tasks.map((task) => (task.start as Date).toISOString());

describe("a store's creation", () => {
  it('plans no task starting before the store was created, and every later one', () => {
    // Created on 2026-11-24 at 11:35 Paris time: the 08:00 check of that day was never due.
    const created = { ...paris, created_at: new Date('2026-11-24T10:35:00Z') };
    expect(startsOf(created, '2026-11-23')).toEqual([]);
    expect(startsOf(created, '2026-11-24')).toEqual(['2026-11-24T16:00:00.000Z']);
    expect(startsOf(created, '2026-11-25')).toEqual([
      '2026-11-25T07:00:00.000Z',
      '2026-11-25T16:00:00.000Z',
    ]);
    // A window starting at the creation instant is due.
    const atStart = { ...paris, created_at: new Date('2026-11-24T16:00:00Z') };
    expect(startsOf(atStart, '2026-11-24')).toEqual(['2026-11-24T16:00:00.000Z']);
  });
});

describe('schedules are wall-clock minutes in the store zone, across DST changes', () => {
  it('New York, spring forward on 2026-03-08: 08:00 is 13:00Z the day before, 12:00Z that day', () => {
    expect(startsOf(newYork, '2026-03-07')).toEqual([
      '2026-03-07T13:00:00.000Z',
      '2026-03-07T22:00:00.000Z',
    ]);
    expect(startsOf(newYork, '2026-03-08')).toEqual([
      '2026-03-08T12:00:00.000Z',
      '2026-03-08T21:00:00.000Z',
    ]);
  });

  it('Paris, spring forward on 2026-03-29 and fall back on 2026-10-25', () => {
    expect(startsOf(paris, '2026-03-28')[0]).toBe('2026-03-28T07:00:00.000Z');
    expect(startsOf(paris, '2026-03-29')[0]).toBe('2026-03-29T06:00:00.000Z');
    expect(startsOf(paris, '2026-10-24')[0]).toBe('2026-10-24T06:00:00.000Z');
    expect(startsOf(paris, '2026-10-25')[0]).toBe('2026-10-25T07:00:00.000Z');
  });

  it('a window across a DST change keeps its wall-clock end: the duration is the real minutes', () => {
    const night = configuration({ starts: [60], durations: [180] }); // 01:00–04:00 wall clock
    const durationsOf = (day: string) =>
      planStoreDay(paris, day, [night]).tasks.map((task) => task.duration);
    expect(durationsOf('2026-03-28')).toEqual([180]);
    expect(durationsOf('2026-03-29')).toEqual([120]); // spring forward: 01:00 CET → 04:00 CEST
    expect(durationsOf('2026-10-25')).toEqual([240]); // fall back: 01:00 CEST → 04:00 CET
  });

  it('a window in the skipped hour moves forward; a repeated hour takes its first occurrence', () => {
    const night = [configuration({ starts: [150], durations: [30] })]; // 02:30
    expect(startsOf(paris, '2026-03-29', night)).toEqual(['2026-03-29T01:30:00.000Z']); // 03:30 CEST
    expect(startsOf(paris, '2026-10-25', night)).toEqual(['2026-10-25T00:30:00.000Z']); // 02:30 CEST
    expect(startsOf(newYork, '2026-03-08', night)).toEqual(['2026-03-08T07:30:00.000Z']); // 03:30 EDT
  });

  it('one task per window, copied fields, one generation key per window, duration in minutes', () => {
    const { tasks, warnings } = planStoreDay(paris, '2026-03-29', [
      configuration({ durations: [60, 45], type_name: 'Froid', requires_manager: true }),
    ]);
    expect(warnings).toEqual([]);
    expect(tasks.map((task) => [task.generation_key, task.duration, task.day])).toEqual([
      ['c1:2026-03-29:480', 60, '2026-03-29'],
      ['c1:2026-03-29:1020', 45, '2026-03-29'],
    ]);
    expect(tasks[0]).toMatchObject({
      name: 'Relevé frigos',
      module: 'temperatures',
      type_name: 'Froid',
      requires_manager: true,
      store_id: paris.id,
    });
  });

  it('a configuration without schedule windows generates nothing and warns', () => {
    const { tasks, warnings } = planStoreDay(paris, '2026-03-29', [
      configuration({ starts: [], durations: [] }),
    ]);
    expect(tasks).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ type: 2, details: { reason: 'no-schedule' } });
  });

  it('days before the recurrence anchor are not selected', () => {
    expect(startsOf(paris, '2025-12-31')).toEqual([]);
  });
});

describe('recurrence', () => {
  const selected = (
    store: GenerationStore,
    rule: string,
    anchor: string,
    from: string,
    to: string,
  ) => {
    const days: string[] = [];
    for (
      let day = new Date(`${from}T00:00:00Z`);
      day <= new Date(`${to}T00:00:00Z`);
      day.setUTCDate(day.getUTCDate() + 1)
    ) {
      const iso = day.toISOString().slice(0, 10);
      if (
        planStoreDay(store, iso, [configuration({ recurrence: rule, recurrence_anchor: anchor })])
          .tasks.length
      )
        days.push(iso);
    }
    return days;
  };

  it('weekly, interval 2: the store week start decides which weeks count (RFC 5545 example)', () => {
    // Anchor Tuesday 2026-11-03; every other week on Tuesday and Sunday.
    const rule = 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU';
    expect(
      selected({ ...paris, week_start: 0 }, rule, '2026-11-03', '2026-11-01', '2026-11-30'),
    ).toEqual(['2026-11-03', '2026-11-08', '2026-11-17', '2026-11-22']);
    expect(
      selected({ ...paris, week_start: 6 }, rule, '2026-11-03', '2026-11-01', '2026-11-30'),
    ).toEqual(['2026-11-03', '2026-11-15', '2026-11-17', '2026-11-29']);
  });

  it('monthly on a position: last Friday, first Monday', () => {
    expect(
      selected(
        paris,
        'FREQ=MONTHLY;INTERVAL=1;BYDAY=-1FR',
        '2026-01-01',
        '2026-01-01',
        '2026-03-31',
      ),
    ).toEqual(['2026-01-30', '2026-02-27', '2026-03-27']);
    expect(
      selected(
        paris,
        'FREQ=MONTHLY;INTERVAL=2;BYDAY=+1MO',
        '2026-01-01',
        '2026-01-01',
        '2026-05-31',
      ),
    ).toEqual(['2026-01-05', '2026-03-02', '2026-05-04']);
  });

  it('an unreadable rule warns instead of failing the store', () => {
    const { tasks, warnings } = planStoreDay(paris, '2026-03-02', [
      configuration({ recurrence: 'FREQ=SOMETIMES' }),
      configuration({ key: 'c2' }),
    ]);
    expect(tasks).toHaveLength(2);
    expect(warnings[0]).toMatchObject({ type: 2, details: { reason: 'invalid-recurrence' } });
  });
});

describe('local hour', () => {
  it('reads the hour in the zone (for due stores)', () => {
    const instant = new Date('2026-03-08T08:30:00Z');
    expect(hourInZone(instant, 'Europe/Paris')).toBe(9);
    expect(hourInZone(instant, 'America/New_York')).toBe(4); // EDT since 07:00Z
    expect(hourInZone(new Date('2026-03-07T23:30:00Z'), 'Europe/Paris')).toBe(0);
  });
});
