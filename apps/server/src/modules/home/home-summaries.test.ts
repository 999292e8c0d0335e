import { readingInRange } from '@mise/shared/history/rules';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { storeDayEquipment, storeDayScores, storeOilStates, stores, tasks } from '../../db/schema';
import { buildDistributor, buildStore, buildTask } from '../../test/factories';
import { useTestApp } from '../../test/harness';

/*
 * The home's summaries (migration 0011_home_summaries): `store_day_scores` and
 * `store_oil_states` are kept by statement triggers on tasks. Whatever is written — generated
 * tasks, completions, corrections, postponements, deletions of tasks or of a whole store —
 * the kept rows must equal a recount from the tasks (mise_rebuild_home_summaries).
 */

const context = useTestApp();
let storeIds: string[] = [];

const days = ['2026-11-10', '2026-11-11', '2026-11-12'];
const at = (day: string, hour: number, minute = 0) =>
  new Date(`${day}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00Z`);
const fryer = (id: string, name: string) => ({
  id,
  name,
  minimum_temperature: null,
  maximum_temperature: null,
  maximum_polarity: 25,
  reheating_temperature: null,
  cooling_temperature: null,
});
const fryerA = '00000000-0000-4000-8000-00000000f0a1';
const fryerB = '00000000-0000-4000-8000-00000000f0b2';
const oilEntry = (
  element: string,
  values: { temperature?: unknown; polarity?: unknown; changed?: boolean },
) => ({
  element,
  temperature: values.temperature ?? 170,
  polarity: values.polarity ?? 12,
  oil_changed: values.changed ?? false,
  oil_filtered: false,
  comment: '',
  pictures: [],
});

type ScoreRow = typeof storeDayScores.$inferSelect;
type OilRow = typeof storeOilStates.$inferSelect;

async function keptSummaries(db: Database) {
  const scores = await db
    .select()
    .from(storeDayScores)
    .orderBy(asc(storeDayScores.store_id), asc(storeDayScores.day));
  const oils = await db
    .select()
    .from(storeOilStates)
    .orderBy(asc(storeOilStates.store_id), asc(storeOilStates.element_id));
  const equipment = await db
    .select()
    .from(storeDayEquipment)
    .orderBy(
      asc(storeDayEquipment.store_id),
      asc(storeDayEquipment.day),
      asc(storeDayEquipment.element_id),
    );
  return { scores, oils, equipment };
}

/** The kept rows, then the same recounted from scratch: they must be equal. */
async function expectSummariesMatchRecount(db: Database) {
  const kept = await keptSummaries(db);
  await db.execute(sql`select mise_rebuild_home_summaries()`);
  const recounted = await keptSummaries(db);
  // A day whose tasks all went away may keep a row of zeros; a recount has none.
  const nonZero = (rows: ScoreRow[]) =>
    rows.filter(
      (row) =>
        row.on_time || row.on_time_with_anomaly || row.late || row.late_with_anomaly || row.open,
    );
  expect(nonZero(kept.scores)).toEqual(recounted.scores);
  expect(kept.oils).toEqual(recounted.oils);
  // A rebuild recounts the equipment of recent days only (the home reads each store's today).
  const recentDay = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  expect(kept.equipment.filter((row) => row.day >= recentDay)).toEqual(recounted.equipment);
  return recounted;
}

const scoreOf = (rows: ScoreRow[], store: string, day: string) =>
  rows.find((row) => row.store_id === store && row.day === day);
const oilOf = (rows: OilRow[], store: string, element: string) =>
  rows.find((row) => row.store_id === store && row.element_id === element);

beforeAll(async () => {
  const { db } = context;
  const distributor = await buildDistributor(db);
  const common = { distributor_id: distributor.id, timezone_name: 'UTC' };
  storeIds = [
    (await buildStore(db, { ...common, name: 'Summaries A' })).id,
    (await buildStore(db, { ...common, name: 'Summaries B' })).id,
  ];
});

describe('store day scores', () => {
  it('follow inserts, completions, corrections, postponements and deletions', async () => {
    const { db } = context;
    const [storeA, storeB] = storeIds as [string, string];
    // Generated tasks (one statement, many rows): 4 a day in A, 2 a day in B, all open.
    const rows = days.flatMap((day) =>
      [storeA, storeA, storeA, storeA, storeB, storeB].map((store, index) => ({
        store_id: store,
        name: `Relevé ${day} ${index}`,
        module: 'temperatures' as const,
        day,
        start: at(day, 8 + index),
        duration: 60,
      })),
    );
    const inserted = await db.insert(tasks).values(rows).returning({ id: tasks.id });
    let kept = await expectSummariesMatchRecount(db);
    expect(scoreOf(kept.scores, storeA, days[0]!)).toMatchObject({ open: 4, on_time: 0 });
    expect(scoreOf(kept.scores, storeB, days[0]!)).toMatchObject({ open: 2 });

    const ids = inserted.map((row) => row.id);
    const first = days[0]!;
    const [a0, a1, a2, a3] = ids as [string, string, string, string];
    // On time, on time with an anomaly, late (completed after start + 60 min).
    await db
      .update(tasks)
      .set({
        completed_timestamp: at(first, 8, 30),
        result: { entries: [] },
        result_anomaly: false,
      })
      .where(eq(tasks.id, a0));
    await db
      .update(tasks)
      .set({ completed_timestamp: at(first, 9, 10), result: { entries: [] }, result_anomaly: true })
      .where(eq(tasks.id, a1));
    await db
      .update(tasks)
      .set({ completed_timestamp: at(first, 12), result: { entries: [] }, result_anomaly: false })
      .where(eq(tasks.id, a2));
    kept = await expectSummariesMatchRecount(db);
    expect(scoreOf(kept.scores, storeA, first)).toEqual({
      store_id: storeA,
      day: first,
      on_time: 1,
      on_time_with_anomaly: 1,
      late: 1,
      late_with_anomaly: 0,
      open: 1,
    });

    // A correction flips the anomaly; a postponement takes a task out and adds its copy.
    await db.update(tasks).set({ result_anomaly: true }).where(eq(tasks.id, a2));
    const [copy] = await db
      .insert(tasks)
      .values({
        store_id: storeA,
        name: 'Relevé reporté',
        module: 'temperatures',
        day: days[1]!,
        start: at(days[1]!, 15),
        duration: 60,
        original_task: a3,
      })
      .returning({ id: tasks.id });
    await db.update(tasks).set({ postponed_task: copy!.id }).where(eq(tasks.id, a3));
    kept = await expectSummariesMatchRecount(db);
    expect(scoreOf(kept.scores, storeA, first)).toMatchObject({
      late: 0,
      late_with_anomaly: 1,
      open: 0,
    });
    expect(scoreOf(kept.scores, storeA, days[1]!)).toMatchObject({ open: 5 });

    // A multi-row update of other columns changes nothing; deletions subtract.
    await db
      .update(tasks)
      .set({ name: sql`${tasks.name} || ' (renamed)'` })
      .where(eq(tasks.store_id, storeA));
    await db.delete(tasks).where(and(eq(tasks.store_id, storeB), eq(tasks.day, days[2]!)));
    kept = await expectSummariesMatchRecount(db);
    expect(scoreOf(kept.scores, storeB, days[2]!)).toBeUndefined();
    expect(scoreOf(kept.scores, storeA, first)).toMatchObject({ on_time: 1 });
  });

  it('deleting a store leaves no score rows behind', async () => {
    const { db } = context;
    const distributor = await buildDistributor(db);
    const store = await buildStore(db, { distributor_id: distributor.id, timezone_name: 'UTC' });
    await buildTask(db, { store_id: store.id, day: days[0], start: at(days[0]!, 9) });
    expect(
      await db.select().from(storeDayScores).where(eq(storeDayScores.store_id, store.id)),
    ).toHaveLength(1);
    await db.delete(stores).where(eq(stores.id, store.id));
    expect(
      await db.select().from(storeDayScores).where(eq(storeDayScores.store_id, store.id)),
    ).toEqual([]);
    await expectSummariesMatchRecount(db);
  });

  it.runIf(process.env.TEST_DB === 'pg')(
    'concurrent completions of one store-day add up (eight transactions at once)',
    async () => {
      const { db } = context;
      const [storeA] = storeIds as [string];
      const day = '2026-11-20';
      const created = await db
        .insert(tasks)
        .values(
          Array.from({ length: 8 }, (_, index) => ({
            store_id: storeA,
            name: `Concurrent ${index}`,
            module: 'temperatures' as const,
            day,
            start: at(day, 8),
            duration: 60,
          })),
        )
        .returning({ id: tasks.id });
      // Eight transactions at once, each completing one task and holding its transaction open
      // a moment, so their trigger counts overlap.
      await Promise.all(
        created.map(({ id }) =>
          db.transaction(async (transaction) => {
            await transaction
              .update(tasks)
              .set({ completed_timestamp: at(day, 8, 20), result: { entries: [] } })
              .where(eq(tasks.id, id));
            await transaction.execute(sql`select pg_sleep(0.05)`);
          }),
        ),
      );
      const kept = await expectSummariesMatchRecount(db);
      expect(scoreOf(kept.scores, storeA, day)).toMatchObject({ on_time: 8, open: 0 });
    },
  );
});

describe('store oil states', () => {
  it('keep the last reading and last change, also after a correction or a deletion', async () => {
    const { db } = context;
    const [, storeB] = storeIds as [string, string];
    // Recent days: the recount covers the last 92 days.
    const recent = (daysAgo: number, hour: number) =>
      new Date(Date.now() - daysAgo * 86_400_000 + (hour - 12) * 3_600_000);
    const oilTask = (start: Date, entries: unknown[]) =>
      buildTask(db, {
        store_id: storeB,
        module: 'oils',
        day: start.toISOString().slice(0, 10),
        start,
        elements: [fryer(fryerA, 'Friteuse A'), fryer(fryerB, 'Friteuse B')],
        completed_timestamp: new Date(start.getTime() + 10 * 60_000),
        result: { entries },
        result_anomaly: false,
      });
    const older = await oilTask(recent(5, 10), [
      oilEntry(fryerA, { temperature: 168, polarity: 9, changed: true }),
      oilEntry(fryerB, { temperature: 171, polarity: 11 }),
    ]);
    const newer = await oilTask(recent(2, 10), [
      oilEntry(fryerA, { temperature: 175, polarity: 14, changed: true }),
      // A value the tablet did not send as a number is no reading of it.
      oilEntry(fryerB, { temperature: 'n/a', polarity: 18 }),
    ]);
    // Not an oil task, and an oil task not done: neither counts.
    await buildTask(db, { store_id: storeB, start: recent(1, 9) });
    await buildTask(db, { store_id: storeB, module: 'oils', start: recent(1, 9) });

    let kept = await expectSummariesMatchRecount(db);
    expect(oilOf(kept.oils, storeB, fryerA)).toMatchObject({
      name: 'Friteuse A',
      temperature: 175,
      polarity: 14,
      last_reading_at: newer.completed_timestamp,
      last_change_at: newer.completed_timestamp,
    });
    expect(oilOf(kept.oils, storeB, fryerB)).toMatchObject({
      temperature: null,
      polarity: 18,
      last_change_at: null,
    });

    // The newer check is corrected: no oil change after all; the change goes back in time.
    await db
      .update(tasks)
      .set({
        result: {
          entries: [
            oilEntry(fryerA, { temperature: 175, polarity: 14, changed: false }),
            oilEntry(fryerB, { temperature: 172, polarity: 18 }),
          ],
        },
      })
      .where(eq(tasks.id, newer.id));
    kept = await expectSummariesMatchRecount(db);
    expect(oilOf(kept.oils, storeB, fryerA)?.last_change_at).toEqual(older.completed_timestamp);
    expect(oilOf(kept.oils, storeB, fryerB)?.temperature).toBe(172);

    // Deleted, the newer check no longer counts at all.
    await db.delete(tasks).where(inArray(tasks.id, [newer.id]));
    kept = await expectSummariesMatchRecount(db);
    expect(oilOf(kept.oils, storeB, fryerA)).toMatchObject({
      temperature: 168,
      last_reading_at: older.completed_timestamp,
    });
  });
});

describe('store day equipment, first results added one by one', () => {
  it('equals the former computation after each first result, ties and late timestamps included', async () => {
    const { db } = context;
    const distributor = await buildDistributor(db);
    const store = await buildStore(db, { distributor_id: distributor.id, timezone_name: 'UTC' });
    const day = new Date().toISOString().slice(0, 10);
    const fridge = (id: string, maximum: number | null) => ({
      id,
      name: `Frigo ${id.slice(-2)}`,
      minimum_temperature: 0,
      maximum_temperature: maximum,
      maximum_polarity: null,
      reheating_temperature: null,
      cooling_temperature: null,
    });
    const first = '00000000-0000-4000-8000-0000000000f1';
    const second = '00000000-0000-4000-8000-0000000000f2';
    // Tasks still to do, as generation leaves them; then tablets send them in any order.
    const open = [];
    for (let index = 0; index < 8; index += 1) {
      open.push(
        await buildTask(db, {
          store_id: store.id,
          day,
          start: at(day, 6 + index),
          name: `Relevé ${index}`,
          elements: [fridge(first, 4), fridge(second, index < 4 ? 4 : 3)],
        }),
      );
    }
    // Timestamps later, earlier, equal to the kept last reading (another temperature, then
    // the same one), missing (the completion time).
    const timestamps = [
      1_795_000_600,
      1_795_000_300,
      1_795_000_900,
      1_795_000_900,
      null,
      1_795_000_100,
      1_795_001_000,
      1_795_001_000,
    ];
    const readings = [3, 5, 2, -1, 3.5, 4, 1, 1];
    for (const [index, task] of open.entries()) {
      const timestamp = timestamps[index];
      await db
        .update(tasks)
        .set({
          completed_timestamp: new Date((1_795_000_000 + index) * 1000),
          result: {
            entries: [
              {
                element: first,
                temperature: readings[index],
                control_temperature: index === 2 ? 9 : null,
                ...(timestamp === null ? {} : { timestamp }),
                comment: '',
                pictures: [],
              },
              { element: second, temperature: index === 5 ? null : 3.5, comment: '', pictures: [] },
            ],
          },
          revision: 1,
        })
        .where(eq(tasks.id, task.id));
      const kept = await db
        .select()
        .from(storeDayEquipment)
        .where(and(eq(storeDayEquipment.store_id, store.id), eq(storeDayEquipment.day, day)))
        .orderBy(asc(storeDayEquipment.element_id));
      const dayTasks = await db
        .select()
        .from(tasks)
        .where(and(eq(tasks.store_id, store.id), eq(tasks.day, day)));
      expect(kept.map(({ store_id, day: _day, ...row }) => row)).toEqual(
        equipmentReference(dayTasks),
      );
    }
    const final = await expectSummariesMatchRecount(db);
    expect(
      final.equipment.find((row) => row.store_id === store.id && row.element_id === first),
    ).toMatchObject({ in_range: 5, out_of_range: 3, last_temperature: 1 });
  });
});

/**
 * The fridges panel as the home computed it from the day's tasks before the summary existed
 * (tasks by start then name, elements named by their first snapshot, readings checked with
 * each task's own bounds, the last reading the latest timestamp, later in order on a tie).
 */
function equipmentReference(dayTasks: (typeof tasks.$inferSelect)[]) {
  const numberOrNull = (value: unknown) => (typeof value === 'number' ? value : null);
  const elements = new Map<
    string,
    { name: string; inside: number; outside: number; last: { value: number; at: number } | null }
  >();
  const ordered = [...dayTasks]
    .filter((task) => task.module === 'temperatures')
    .sort((a, b) => a.start.getTime() - b.start.getTime() || (a.name < b.name ? -1 : 1));
  for (const task of ordered) {
    for (const element of task.elements)
      if (!elements.has(element.id))
        elements.set(element.id, { name: element.name, inside: 0, outside: 0, last: null });
    const bounds = new Map(task.elements.map((element) => [element.id, element]));
    const entries = (task.result as { entries?: Record<string, unknown>[] } | null)?.entries ?? [];
    for (const entry of entries) {
      const id = typeof entry.element === 'string' ? entry.element : null;
      const state = id ? elements.get(id) : undefined;
      const temperature = numberOrNull(entry.temperature);
      if (!state || temperature === null) continue;
      const inside = readingInRange(
        { temperature, control_temperature: numberOrNull(entry.control_temperature) },
        bounds.get(id!),
      );
      if (inside) state.inside += 1;
      else state.outside += 1;
      const at = numberOrNull(entry.timestamp) ?? (task.completed_timestamp?.getTime() ?? 0) / 1000;
      if (!state.last || at >= state.last.at) state.last = { value: temperature, at };
    }
  }
  return [...elements]
    .map(([id, state]) => ({
      element_id: id,
      name: state.name,
      in_range: state.inside,
      out_of_range: state.outside,
      last_temperature: state.last?.value ?? null,
      last_reading_at: state.last ? new Date(state.last.at * 1000) : null,
    }))
    .sort((a, b) => (a.element_id < b.element_id ? -1 : 1));
}

describe('store day equipment', () => {
  it('equals the former computation over varied readings, after every kind of write', async () => {
    const { db } = context;
    const distributor = await buildDistributor(db);
    const store = await buildStore(db, { distributor_id: distributor.id, timezone_name: 'UTC' });
    const day = new Date().toISOString().slice(0, 10);
    const ids = Array.from(
      { length: 5 },
      (_, index) => `00000000-0000-4000-8000-0000000000e${index}`,
    );
    // Deterministic variety: bounds that change between tasks (a later snapshot renames an
    // element and narrows its range), missing bounds, readings out of range, control
    // temperatures, readings not taken, entries without a timestamp, ties on the timestamp,
    // an entry of an element the task does not list, and tasks not done.
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const created: string[] = [];
    for (let index = 0; index < 24; index += 1) {
      const start = at(day, 6 + Math.floor(index / 2), (index % 2) * 30);
      const chosen = ids.filter(() => next() < 0.7);
      const elements = chosen.map((id, position) => ({
        id,
        name: index > 12 && position === 0 ? `Renamed ${id.slice(-2)}` : `Frigo ${id.slice(-2)}`,
        minimum_temperature: id.endsWith('e4') ? null : 0,
        maximum_temperature: id.endsWith('e3') ? null : index > 15 ? 3 : 4,
        maximum_polarity: null,
        reheating_temperature: null,
        cooling_temperature: null,
      }));
      const isDone = next() < 0.8;
      const entries = [...chosen, ...(index === 5 ? [ids[0]!] : [])].map((id) => ({
        element: id,
        temperature: next() < 0.1 ? null : Math.round((next() * 8 - 1) * 10) / 10,
        control_temperature: next() < 0.2 ? Math.round(next() * 60) / 10 : null,
        ...(next() < 0.8 ? { timestamp: 1_795_000_000 + (index < 20 ? index * 60 : 1200) } : {}),
        comment: '',
        pictures: [],
      }));
      const task = await buildTask(db, {
        store_id: store.id,
        day,
        start,
        name: `Relevé ${String(index % 7).padStart(2, '0')}`,
        elements,
        ...(isDone
          ? {
              completed_timestamp: new Date(start.getTime() + 600_000),
              result: { entries },
              result_anomaly: false,
            }
          : {}),
      });
      created.push(task.id);
    }
    const compare = async () => {
      await expectSummariesMatchRecount(db);
      const kept = await db
        .select()
        .from(storeDayEquipment)
        .where(and(eq(storeDayEquipment.store_id, store.id), eq(storeDayEquipment.day, day)))
        .orderBy(asc(storeDayEquipment.element_id));
      const dayTasks = await db
        .select()
        .from(tasks)
        .where(and(eq(tasks.store_id, store.id), eq(tasks.day, day)));
      expect(kept.map(({ store_id, day: _day, ...row }) => row)).toEqual(
        equipmentReference(dayTasks),
      );
      return kept;
    };
    const first = await compare();
    expect(first.some((row) => row.in_range > 0 && row.out_of_range > 0)).toBe(true);
    expect(first.some((row) => row.name.startsWith('Renamed'))).toBe(false);

    // A correction, a task moved to another day, a deletion: each recounts its days. The
    // correction's reading is the latest of all (a week ahead of any completion of the day).
    const latestReading = Math.floor(Date.now() / 1000) + 7 * 86_400;
    await db
      .update(tasks)
      .set({
        result: { entries: [{ element: ids[1], temperature: 12, timestamp: latestReading }] },
        completed_timestamp: at(day, 23),
      })
      .where(eq(tasks.id, created[3]!));
    await compare();
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await db.update(tasks).set({ day: tomorrow }).where(eq(tasks.id, created[4]!));
    await compare();
    await db.delete(tasks).where(inArray(tasks.id, created.slice(10, 14)));
    const last = await compare();
    expect(last.find((row) => row.element_id === ids[1])).toMatchObject({
      last_temperature: 12,
      last_reading_at: new Date(latestReading * 1000),
    });
  });
});
