import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defaultTaskConfigurationLocks } from '@mise/shared/tasks/constants';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import {
  stores,
  storeTaskConfigurations,
  taskConfigurations,
  taskGenerationEvents,
  taskGenerationRuns,
  tasks,
} from '../../db/schema';
import {
  buildDatabase,
  buildDatabaseElement,
  buildDistributor,
  buildStore,
} from '../../test/factories';
import { useTestApp } from '../../test/harness';
import { loadGenerationConfigurations } from '../task-configurations/generation-configurations';
import {
  findDueStores,
  findMissedDays,
  type GenerationStore,
  generateDueStores,
  generateStoreDay,
  retryAfterMinutes,
} from './generation.service';
import { startTaskScheduler } from './scheduler';

/**
 * Generation against the database (both drivers): exactly once, due stores in their zone,
 * catch-up, failures isolated, store overrides and locks, events.
 */

const context = useTestApp();
/** The stores here were created before the days they generate (none is skipped for that). */
const openedLongAgo = new Date('2025-12-01T00:00:00Z');
let db: Database;
let paris: GenerationStore;
let newYork: GenerationStore;
let sleeping: GenerationStore;
let fridgesId: string;
let databaseId: string;

const dayTasks = (storeId: string, day: string) =>
  db
    .select()
    .from(tasks)
    .where(and(eq(tasks.store_id, storeId), eq(tasks.day, day)))
    .orderBy(asc(tasks.start));
const eventsOf = (storeId: string) =>
  db.select().from(taskGenerationEvents).where(eq(taskGenerationEvents.store_id, storeId));

beforeAll(async () => {
  db = context.db;
  const distributor = await buildDistributor(db);
  const database = await buildDatabase(db, { distributor_id: distributor.id });
  databaseId = database.id;
  const common = { distributor_id: distributor.id, database_id: database.id };
  paris = await buildStore(db, {
    created_at: openedLongAgo,
    ...common,
    timezone_name: 'Europe/Paris',
    task_generation_hour: 5,
  });
  newYork = await buildStore(db, {
    created_at: openedLongAgo,
    ...common,
    timezone_name: 'America/New_York',
    task_generation_hour: 4,
  });
  sleeping = await buildStore(db, {
    created_at: openedLongAgo,
    ...common,
    active: false,
  });
  const fridge = await buildDatabaseElement(db, {
    database_id: database.id,
    name: 'Chambre froide',
    minimum_temperature: 0,
    maximum_temperature: 4,
  });
  const base = {
    database_id: database.id,
    recurrence_anchor: '2026-01-01',
    locks: { ...defaultTaskConfigurationLocks, schedule: false },
  };
  const [fridges] = await db
    .insert(taskConfigurations)
    .values([
      {
        ...base,
        module: 'temperatures',
        name: 'Relevé frigos',
        starts: [480, 1020],
        durations: [60, 60],
        configuration: { temperature_elements: [fridge.id], is_delivery: false, automatic: false },
      },
      {
        ...base,
        module: 'actions',
        name: 'Nettoyage hebdomadaire',
        recurrence: 'FREQ=WEEKLY;INTERVAL=1;BYDAY=MO',
        starts: [600],
        durations: [30],
        configuration: { actions: [{ name: 'Hotte', requires_picture: false, attachments: [] }] },
      },
      {
        ...base,
        module: 'actions',
        name: 'Sans horaire',
        configuration: { actions: [{ name: 'Rien', requires_picture: false, attachments: [] }] },
      },
    ])
    .returning();
  fridgesId = fridges!.id;
});

describe('generateStoreDay', () => {
  it('generates the right instants once, in the store zone, across DST', async () => {
    const first = await generateStoreDay(db, paris, '2026-03-29', {
      now: new Date('2026-03-29T03:00:00Z'),
    });
    expect(first).toMatchObject({ status: 'generated', created: 2 });
    const rows = await dayTasks(paris.id, '2026-03-29');
    expect(rows.map((row) => row.start.toISOString())).toEqual([
      '2026-03-29T06:00:00.000Z',
      '2026-03-29T15:00:00.000Z',
    ]);
    expect(rows[0]).toMatchObject({
      name: 'Relevé frigos',
      module: 'temperatures',
      duration: 60,
      configuration_id: fridgesId,
      generation_key: `${fridgesId}:2026-03-29:480`,
    });
    expect(rows[0]!.elements.map((element) => element.name)).toEqual(['Chambre froide']);
    const again = await generateStoreDay(db, paris, '2026-03-29');
    expect(again).toMatchObject({ status: 'skipped', created: 0 });
    expect(await dayTasks(paris.id, '2026-03-29')).toHaveLength(2);
    const [run] = await db
      .select()
      .from(taskGenerationRuns)
      .where(
        and(eq(taskGenerationRuns.store_id, paris.id), eq(taskGenerationRuns.day, '2026-03-29')),
      );
    expect(run).toMatchObject({ created: 2 });
    expect(run!.finished_at).not.toBeNull();
  });

  it('New York on its spring-forward Monday: weekly and daily tasks, 08:00 EDT = 12:00Z', async () => {
    // 2026-03-09 is a Monday; the US changed on 2026-03-08.
    await generateStoreDay(db, newYork, '2026-03-08');
    await generateStoreDay(db, newYork, '2026-03-09');
    expect(
      (await dayTasks(newYork.id, '2026-03-08')).map((row) => row.start.toISOString()),
    ).toEqual(['2026-03-08T12:00:00.000Z', '2026-03-08T21:00:00.000Z']);
    expect(
      (await dayTasks(newYork.id, '2026-03-09')).map((row) => [row.name, row.start.toISOString()]),
    ).toEqual([
      ['Relevé frigos', '2026-03-09T12:00:00.000Z'],
      ['Nettoyage hebdomadaire', '2026-03-09T14:00:00.000Z'],
      ['Relevé frigos', '2026-03-09T21:00:00.000Z'],
    ]);
  });

  it('two concurrent generations of the same day create each task once', async () => {
    const results = await Promise.all([
      generateStoreDay(db, paris, '2026-10-25'),
      generateStoreDay(db, paris, '2026-10-25'),
      generateStoreDay(db, paris, '2026-10-25', { force: true }),
    ]);
    expect(results.reduce((sum, result) => sum + result.created, 0)).toBe(2);
    const rows = await dayTasks(paris.id, '2026-10-25');
    expect(rows.map((row) => row.start.toISOString())).toEqual([
      '2026-10-25T07:00:00.000Z', // 08:00 CET, the day Paris falls back
      '2026-10-25T16:00:00.000Z',
    ]);
  });

  it('writes events: store started (3), one per task (4), warnings (2)', async () => {
    const events = await eventsOf(paris.id);
    const ofDay = events.filter(
      (event) =>
        (event.details as { day?: string } | null)?.day === '2026-03-29' || event.type === 4,
    );
    expect(ofDay.filter((event) => event.type === 3)).toHaveLength(1);
    expect(events.filter((event) => event.type === 4).map((event) => event.message)).toContain(
      'Relevé frigos',
    );
    const warnings = events.filter((event) => event.type === 2);
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings[0]!.message).toContain('Sans horaire');
  });

  it('a store override changes the schedule while the lock is open; the lock brings it back', async () => {
    const [override] = await db
      .insert(storeTaskConfigurations)
      .values({ store_id: paris.id, origin_id: fridgesId, starts: [540], durations: [30] })
      .returning();
    await generateStoreDay(db, paris, '2026-04-01');
    const overridden = await dayTasks(paris.id, '2026-04-01');
    expect(
      overridden.map((row) => [row.start.toISOString(), row.duration, row.generation_key]),
    ).toEqual([
      ['2026-04-01T07:00:00.000Z', 30, `${fridgesId}:2026-04-01:540`], // 09:00 CEST
    ]);
    expect(overridden[0]!.store_configuration_id).toBe(override!.id);
    await db
      .update(taskConfigurations)
      .set({ locks: defaultTaskConfigurationLocks })
      .where(eq(taskConfigurations.id, fridgesId));
    await generateStoreDay(db, paris, '2026-04-02');
    expect((await dayTasks(paris.id, '2026-04-02')).map((row) => row.start.toISOString())).toEqual([
      '2026-04-02T06:00:00.000Z',
      '2026-04-02T15:00:00.000Z',
    ]);
    await db.delete(storeTaskConfigurations).where(eq(storeTaskConfigurations.id, override!.id));
  });

  it('skips configurations whose module is hidden (store or database) or whose elements are all inactive, with a warning', async () => {
    const hiddenHere = await buildStore(db, {
      created_at: openedLongAgo,
      database_id: databaseId,
      timezone_name: 'Europe/Paris',
      hidden_modules: ['temperatures'],
    });
    await generateStoreDay(db, hiddenHere, '2026-04-06');
    const names = (await dayTasks(hiddenHere.id, '2026-04-06')).map((row) => row.name);
    expect(names).not.toContain('Relevé frigos');
    expect(names).toContain('Nettoyage hebdomadaire'); // a Monday
    const reasons = (await eventsOf(hiddenHere.id))
      .filter((event) => event.type === 2)
      .map((event) => [(event.details as { reason?: string }).reason, event.message]);
    expect(reasons).toContainEqual(['hidden-module', expect.stringContaining('Relevé frigos')]);

    // Hidden on the database: every store of it; all elements inactive: skipped as well.
    const hiddenDatabase = await buildDatabase(db, { hidden_modules: ['actions'] });
    const otherStore = await buildStore(db, {
      created_at: openedLongAgo,
      database_id: hiddenDatabase.id,
      timezone_name: 'Europe/Paris',
    });
    const off = await buildDatabaseElement(db, { database_id: hiddenDatabase.id, active: false });
    await db.insert(taskConfigurations).values([
      {
        database_id: hiddenDatabase.id,
        module: 'actions',
        name: 'Action cachée',
        recurrence_anchor: '2026-01-01',
        starts: [480],
        durations: [60],
        configuration: { actions: [{ name: 'X', requires_picture: false, attachments: [] }] },
      },
      {
        database_id: hiddenDatabase.id,
        module: 'temperatures',
        name: 'Frigo inactif',
        recurrence_anchor: '2026-01-01',
        starts: [480],
        durations: [60],
        configuration: { temperature_elements: [off.id], is_delivery: false, automatic: false },
      },
    ]);
    await generateStoreDay(db, otherStore, '2026-04-06');
    expect(await dayTasks(otherStore.id, '2026-04-06')).toEqual([]);
    const otherReasons = (await eventsOf(otherStore.id))
      .filter((event) => event.type === 2)
      .map((event) => (event.details as { reason?: string }).reason)
      .sort();
    expect(otherReasons).toEqual(['hidden-module', 'no-active-element']);
  });

  it('an inactive store generates nothing', async () => {
    expect(await generateStoreDay(db, sleeping, '2026-04-01')).toMatchObject({
      status: 'skipped',
      created: 0,
    });
  });
});

describe('due stores', () => {
  const ours = (items: { store: GenerationStore; day: string }[]) =>
    items
      .filter((item) => [paris.id, newYork.id, sleeping.id].includes(item.store.id))
      .map((item) => [
        item.store.id === paris.id
          ? 'paris'
          : item.store.id === newYork.id
            ? 'new-york'
            : 'sleeping',
        item.day,
      ])
      .sort();

  it('a store is due once its local time reaches its generation hour, for its local day', async () => {
    // 02:30Z on 2026-05-05: Paris 04:30 (hour 5 not reached), New York 22:30 on the 4th (hour 4 passed).
    expect(ours(await findDueStores(db, new Date('2026-05-05T02:30:00Z')))).toEqual([
      ['new-york', '2026-05-04'],
    ]);
    // 03:00Z: Paris 05:00 on the 5th.
    expect(ours(await findDueStores(db, new Date('2026-05-05T03:00:00Z')))).toEqual([
      ['new-york', '2026-05-04'],
      ['paris', '2026-05-05'],
    ]);
    // 07:59Z: New York 03:59 on the 5th: its today is the 5th, hour not reached (the 4th is
    // no longer today: a missed past day is caught up by findMissedDays); 08:00Z: 04:00 EDT.
    expect(ours(await findDueStores(db, new Date('2026-05-05T07:59:00Z')))).toEqual([
      ['paris', '2026-05-05'],
    ]);
    expect(ours(await findDueStores(db, new Date('2026-05-05T08:00:00Z')))).toContainEqual([
      'new-york',
      '2026-05-05',
    ]);
  });

  it('generateDueStores generates each due store once, with a program-start event; catch-up after a restart', async () => {
    const now = new Date('2026-05-06T21:00:00Z'); // both hours long passed today: the catch-up case
    const first = await generateDueStores(db, now);
    expect(first.generated).toBeGreaterThanOrEqual(2);
    expect(ours(await findDueStores(db, now))).toEqual([]);
    const second = await generateDueStores(db, now);
    expect(second).toMatchObject({ due: 0, created: 0 });
    expect(await dayTasks(paris.id, '2026-05-06')).toHaveLength(2);
    expect(await dayTasks(newYork.id, '2026-05-06')).toHaveLength(2);
    const starts = await db
      .select()
      .from(taskGenerationEvents)
      .where(eq(taskGenerationEvents.type, 0));
    expect(starts.length).toBeGreaterThanOrEqual(1);
    expect(starts[0]!.store_id).toBeNull();
  });

  it('two scheduler passes at once (two instances) generate each day once', async () => {
    const now = new Date('2026-05-07T21:00:00Z');
    await Promise.all([generateDueStores(db, now), generateDueStores(db, now)]);
    expect(await dayTasks(paris.id, '2026-05-07')).toHaveLength(2);
    expect(await dayTasks(newYork.id, '2026-05-07')).toHaveLength(2);
  });

  it('a failing store is recorded and does not stop the others; it is retried later', async () => {
    const now = new Date('2026-05-08T21:00:00Z');
    const failing = async (database: Database, storeIds: string[]) => {
      if (storeIds.includes(newYork.id)) throw new Error('configurations unavailable');
      return loadGenerationConfigurations(database, storeIds);
    };
    const summary = await generateDueStores(db, now, { loadConfigurations: failing });
    expect(summary.failed).toBe(1);
    expect(await dayTasks(paris.id, '2026-05-08')).toHaveLength(2);
    expect(await dayTasks(newYork.id, '2026-05-08')).toHaveLength(0);
    const errors = (await eventsOf(newYork.id)).filter((event) => event.type === 1);
    expect(errors.map((event) => event.message)).toContain('configurations unavailable');
    // Not retried at once, but after the retry delay.
    expect(ours(await findDueStores(db, now))).toEqual([]);
    const later = new Date(now.getTime() + (retryAfterMinutes + 1) * 60_000);
    expect(ours(await findDueStores(db, later))).toEqual([['new-york', '2026-05-08']]);
    await generateDueStores(db, later);
    expect(await dayTasks(newYork.id, '2026-05-08')).toHaveLength(2);
  });

  it('warns once per day about an active store with an unknown time zone', async () => {
    const lost = await buildStore(db, {
      created_at: openedLongAgo,
      database_id: databaseId,
      timezone_name: 'Mars/Olympus',
    });
    const warningsOf = async () =>
      (await eventsOf(lost.id)).filter(
        (event) => (event.details as { reason?: string } | null)?.reason === 'invalid-time-zone',
      );
    await generateDueStores(db, new Date('2026-05-08T21:00:00Z'));
    await generateDueStores(db, new Date('2026-05-08T22:00:00Z'));
    expect(await warningsOf()).toHaveLength(1);
    expect((await warningsOf())[0]!.type).toBe(2);
    await generateDueStores(db, new Date('2026-05-09T01:00:00Z'));
    expect(await warningsOf()).toHaveLength(2);
    await db.update(stores).set({ active: false }).where(eq(stores.id, lost.id));
  });

  it('a forced run adds only the tasks of configurations created since', async () => {
    const [added] = await db
      .insert(taskConfigurations)
      .values({
        database_id: databaseId,
        module: 'actions',
        name: 'Plonge',
        recurrence_anchor: '2026-01-01',
        starts: [720],
        durations: [15],
        configuration: { actions: [{ name: 'Plonge', requires_picture: false, attachments: [] }] },
      })
      .returning();
    expect(await generateStoreDay(db, paris, '2026-05-08')).toMatchObject({ status: 'skipped' });
    expect(await generateStoreDay(db, paris, '2026-05-08', { force: true })).toMatchObject({
      created: 1,
    });
    expect(await generateStoreDay(db, paris, '2026-05-08', { force: true })).toMatchObject({
      created: 0,
    });
    expect(await dayTasks(paris.id, '2026-05-08')).toHaveLength(3);
    const [run] = await db
      .select()
      .from(taskGenerationRuns)
      .where(
        and(eq(taskGenerationRuns.store_id, paris.id), eq(taskGenerationRuns.day, '2026-05-08')),
      );
    expect(run!.created).toBe(3);
    await db.delete(taskConfigurations).where(inArray(taskConfigurations.id, [added!.id]));
  });

  it('a pass catches up the missed days since the last finished run, 7 days back at most, with a warning each', async () => {
    const catcher = await buildStore(db, {
      created_at: openedLongAgo,
      database_id: databaseId,
      timezone_name: 'Europe/Paris',
      task_generation_hour: 5,
    });
    await db.insert(taskGenerationRuns).values({
      store_id: catcher.id,
      day: '2026-05-10',
      finished_at: new Date('2026-05-10T04:00:00Z'),
    });
    const now = new Date('2026-05-20T12:00:00Z');
    expect(
      (await findMissedDays(db, now))
        .filter((item) => item.store.id === catcher.id)
        .map((item) => item.day),
    ).toEqual([
      '2026-05-13',
      '2026-05-14',
      '2026-05-15',
      '2026-05-16',
      '2026-05-17',
      '2026-05-18',
      '2026-05-19',
    ]);
    await generateDueStores(db, now);
    const runs = await db
      .select({ day: taskGenerationRuns.day, finished: taskGenerationRuns.finished_at })
      .from(taskGenerationRuns)
      .where(eq(taskGenerationRuns.store_id, catcher.id))
      .orderBy(asc(taskGenerationRuns.day));
    expect(runs.filter((run) => run.finished).map((run) => run.day)).toEqual([
      '2026-05-10',
      '2026-05-13',
      '2026-05-14',
      '2026-05-15',
      '2026-05-16',
      '2026-05-17',
      '2026-05-18',
      '2026-05-19',
      '2026-05-20',
    ]);
    expect(await dayTasks(catcher.id, '2026-05-15')).toHaveLength(2);
    const caughtUp = (await eventsOf(catcher.id))
      .filter(
        (event) => event.type === 2 && (event.details as { reason?: string }).reason === 'catch-up',
      )
      .map((event) => (event.details as { day: string }).day)
      .sort();
    expect(caughtUp).toEqual([
      '2026-05-13',
      '2026-05-14',
      '2026-05-15',
      '2026-05-16',
      '2026-05-17',
      '2026-05-18',
      '2026-05-19',
    ]);
    expect((await findMissedDays(db, now)).filter((item) => item.store.id === catcher.id)).toEqual(
      [],
    );
    // Out of the scheduler test's way (it counts Paris and New York only).
    await db.update(stores).set({ active: false }).where(eq(stores.id, catcher.id));
  });

  it('generates no task scheduled before the store was created (a new store starts with nothing missed)', async () => {
    // Created on Monday 2026-06-15 at 11:30 in Paris: the 08:00 check and the 10:00 weekly
    // cleaning of that day were never due; the 17:00 check is.
    const opened = await buildStore(db, {
      database_id: databaseId,
      timezone_name: 'Europe/Paris',
      task_generation_hour: 0,
      created_at: new Date('2026-06-15T09:30:00Z'),
    });
    const now = new Date('2026-06-15T10:00:00Z');
    const [due] = (await findDueStores(db, now)).filter((item) => item.store.id === opened.id);
    expect(due?.store.created_at.toISOString()).toBe('2026-06-15T09:30:00.000Z');
    await generateStoreDay(db, due!.store, due!.day, { now });
    expect(
      (await dayTasks(opened.id, '2026-06-15')).map((row) => [row.name, row.start.toISOString()]),
    ).toEqual([['Relevé frigos', '2026-06-15T15:00:00.000Z']]);
    // The day before it existed gets nothing, even forced; the next day gets everything.
    await generateStoreDay(db, due!.store, '2026-06-14', { now, force: true });
    expect(await dayTasks(opened.id, '2026-06-14')).toEqual([]);
    await generateStoreDay(db, due!.store, '2026-06-22', { now });
    expect((await dayTasks(opened.id, '2026-06-22')).map((row) => row.name)).toEqual([
      'Relevé frigos',
      'Nettoyage hebdomadaire',
      'Relevé frigos',
    ]);
    await db.update(stores).set({ active: false }).where(eq(stores.id, opened.id));
  });

  it('migration 0014 removes the tasks generated before their store existed, never a record', async () => {
    const opened = await buildStore(db, {
      database_id: databaseId,
      active: false,
      created_at: new Date('2026-06-15T09:30:00Z'),
    });
    const values = (
      name: string,
      start: string,
      extra: Partial<typeof tasks.$inferInsert> = {},
    ) => ({
      store_id: opened.id,
      name,
      module: 'actions' as const,
      day: '2026-06-15',
      start: new Date(start),
      duration: 60,
      generation_key: `${name}:2026-06-15`,
      elements: [],
      ...extra,
    });
    await db.insert(tasks).values([
      values('phantom', '2026-06-15T06:00:00Z'),
      values('done before', '2026-06-15T06:00:00Z', {
        completed_timestamp: new Date('2026-06-15T09:40:00Z'),
        revision: 1,
      }),
      values('by hand', '2026-06-15T06:00:00Z', { generation_key: null }),
      values('after', '2026-06-15T15:00:00Z'),
    ]);
    const migration = readFileSync(
      fileURLToPath(
        new URL('../../db/migrations/0014_tasks_before_store_creation.sql', import.meta.url),
      ),
      'utf8',
    );
    await db.execute(sql.raw(migration));
    expect((await dayTasks(opened.id, '2026-06-15')).map((row) => row.name).sort()).toEqual([
      'after',
      'by hand',
      'done before',
    ]);
  });
});

describe('scheduler', () => {
  it('runs a catch-up pass at start, then on its interval, never two passes at once; stop waits', async () => {
    const passes: { due: number; created: number }[] = [];
    let calls = 0;
    let concurrent = 0;
    let maxConcurrent = 0;
    const slowLoader = async (database: Database, storeIds: string[]) => {
      concurrent += 1;
      maxConcurrent = Math.max(maxConcurrent, concurrent);
      await new Promise((resolve) => setTimeout(resolve, 60));
      concurrent -= 1;
      return loadGenerationConfigurations(database, storeIds);
    };
    const stop = startTaskScheduler({
      db,
      intervalMs: 10,
      clock: () => {
        calls += 1;
        return new Date('2026-05-09T21:00:00Z');
      },
      loadConfigurations: slowLoader,
      onPass: (summary) => passes.push(summary),
    });
    while (passes.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    await stop();
    expect(passes[0]!.created).toBe(4); // Paris and New York, two tasks each (Saturday)
    expect(passes[1]!.due).toBe(0);
    expect(maxConcurrent).toBe(1);
    const after = calls;
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(calls).toBe(after);
  });
});
