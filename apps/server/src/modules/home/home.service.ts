import { bestStoresCount, oilHistoryDays, scoreWindowDays } from '@mise/shared/history/constants';
import {
  emptyScoreCounts,
  equipmentState,
  readingInRange,
  type ScoreCounts,
  scoreWindowStart,
  storeScore,
} from '@mise/shared/history/rules';
import type {
  BestStore,
  EquipmentReading,
  HomeTask,
  OilState,
  StoreHome,
} from '@mise/shared/history/schemas';
import type { ModuleKey } from '@mise/shared/organisation/constants';
import { dayInZone } from '@mise/shared/tasks/rules';
import { and, asc, eq, gte, inArray, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { databaseElements, storeElements, stores, tasks } from '../../db/schema';
import type { Scope } from '../../platform/scope';
import { storeFilter } from '../../platform/scope';
import { findStoreInScope, storeHiddenModules } from '../stores/stores.service';
import { presentTask } from '../tasks/present-task';

/*
 * The home dashboard of a store (spec 000 §2): restaurant score, today's tasks and the
 * equipment temperatures; and the best stores when no store is chosen. The score counts are
 * one aggregate query (the shared `scoreClassOf` rule written in SQL, checked against it by
 * the tests); everything else reads today's tasks of the store once.
 */

const taskEndSql = sql`${tasks.start} + ${tasks.duration} * interval '1 minute'`;

/** UTC's calendar day of `now` shifted by whole days. */
const utcDay = (now: Date, days: number) =>
  new Date(now.getTime() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Score counts per store over each store's last 30 local days (today included), by the
 * classes of `scoreClassOf`: postponed tasks and tasks not yet due do not count.
 */
async function scoreCountsByStore(
  db: Database,
  storeCondition: SQL | undefined,
  now: Date,
): Promise<Map<string, ScoreCounts>> {
  const nowValue = sql`${now.toISOString()}::timestamptz`;
  const completed = sql`${tasks.completed_timestamp} is not null`;
  const onTime = sql`${completed} and ${tasks.completed_timestamp} <= ${taskEndSql}`;
  const late = sql`${completed} and ${tasks.completed_timestamp} > ${taskEndSql}`;
  const anomaly = sql`${tasks.result_anomaly} is true`;
  const localToday = sql`(${nowValue} at time zone ${stores.timezone_name})::date`;
  const rows = await db
    .select({
      storeId: tasks.store_id,
      onTime: sql<number>`count(*) filter (where ${onTime} and not (${anomaly}))`.mapWith(Number),
      onTimeWithAnomaly: sql<number>`count(*) filter (where ${onTime} and ${anomaly})`.mapWith(
        Number,
      ),
      late: sql<number>`count(*) filter (where ${late} and not (${anomaly}))`.mapWith(Number),
      lateWithAnomaly: sql<number>`count(*) filter (where ${late} and ${anomaly})`.mapWith(Number),
      missed:
        sql<number>`count(*) filter (where not (${completed}) and ${taskEndSql} < ${nowValue})`.mapWith(
          Number,
        ),
    })
    .from(stores)
    .innerJoin(tasks, eq(tasks.store_id, stores.id))
    .where(
      and(
        storeCondition,
        sql`${tasks.day} between ${localToday} - ${scoreWindowDays - 1}::integer and ${localToday}`,
        // The same window with constant bounds (every zone's today lies within a day of UTC's),
        // so the (store, day) index narrows the scan before the per-store condition.
        gte(tasks.day, scoreWindowStart(utcDay(now, -1), scoreWindowDays)),
        lte(tasks.day, utcDay(now, 1)),
        sql`${tasks.postponed_task} is null`,
      ),
    )
    .groupBy(tasks.store_id);
  return new Map(rows.map(({ storeId, ...counts }) => [storeId, counts]));
}

const homeTask = (task: ReturnType<typeof presentTask>): HomeTask => ({
  id: task.id,
  name: task.name,
  module: task.module,
  start: task.start,
  duration: task.duration,
  status: task.status,
  completed_timestamp: task.completed_timestamp,
  employee: task.employee,
});

type Entry = Record<string, unknown>;
const entriesOf = (result: unknown): Entry[] => {
  const entries = (result as { entries?: unknown } | null)?.entries;
  return Array.isArray(entries) ? (entries as Entry[]) : [];
};
const numberOrNull = (value: unknown) => (typeof value === 'number' ? value : null);

/** Which of these element ids are delivery items (store overrides win over the database). */
async function deliveryElementIds(
  db: Database,
  storeId: string,
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const [fromDatabase, fromStore] = await Promise.all([
    db
      .select({ id: databaseElements.id, isDelivery: databaseElements.temperature_delivery_item })
      .from(databaseElements)
      .where(inArray(databaseElements.id, ids)),
    db
      .select({
        id: storeElements.id,
        originId: storeElements.origin_id,
        isDelivery: storeElements.temperature_delivery_item,
      })
      .from(storeElements)
      .where(
        and(
          eq(storeElements.store_id, storeId),
          or(inArray(storeElements.id, ids), inArray(storeElements.origin_id, ids)),
        ),
      ),
  ]);
  const delivery = new Map(fromDatabase.map((row) => [row.id, row.isDelivery]));
  for (const row of fromStore) {
    if (row.isDelivery === null) continue;
    delivery.set(
      row.originId && ids.includes(row.originId) ? row.originId : row.id,
      row.isDelivery,
    );
  }
  return new Set([...delivery].filter(([, isDelivery]) => isDelivery).map(([id]) => id));
}

/** Fridges and delivery elements read by today's temperature tasks, with their day's state. */
async function temperatureEquipment(
  db: Database,
  storeId: string,
  todayTasks: (typeof tasks.$inferSelect)[],
): Promise<{ fridges: EquipmentReading[]; delivery: EquipmentReading[] }> {
  const elements = new Map<
    string,
    {
      name: string;
      readings: boolean[];
      last: { value: number; at: number } | null;
      min: number | null;
      max: number | null;
    }
  >();
  for (const task of todayTasks) {
    if (task.module !== 'temperatures') continue;
    for (const element of task.elements) {
      if (!elements.has(element.id))
        elements.set(element.id, {
          name: element.name,
          readings: [],
          last: null,
          min: element.minimum_temperature,
          max: element.maximum_temperature,
        });
    }
    const bounds = new Map(task.elements.map((element) => [element.id, element]));
    for (const entry of entriesOf(task.result)) {
      const id = typeof entry.element === 'string' ? entry.element : null;
      const state = id ? elements.get(id) : undefined;
      const temperature = numberOrNull(entry.temperature);
      if (!state || temperature === null) continue;
      state.readings.push(
        readingInRange(
          { temperature, control_temperature: numberOrNull(entry.control_temperature) },
          bounds.get(id!),
        ),
      );
      const at = numberOrNull(entry.timestamp) ?? (task.completed_timestamp?.getTime() ?? 0) / 1000;
      if (!state.last || at >= state.last.at) state.last = { value: temperature, at };
    }
  }
  const delivery = await deliveryElementIds(db, storeId, [...elements.keys()]);
  const fridges: EquipmentReading[] = [];
  const deliveries: EquipmentReading[] = [];
  for (const [id, state] of elements) {
    const reading: EquipmentReading = {
      id,
      name: state.name,
      state: equipmentState(state.readings),
      last_temperature: state.last?.value ?? null,
      last_reading_at: state.last ? new Date(state.last.at * 1000).toISOString() : null,
    };
    (delivery.has(id) ? deliveries : fridges).push(reading);
  }
  const byName = (a: EquipmentReading, b: EquipmentReading) => a.name.localeCompare(b.name);
  return { fridges: fridges.sort(byName), delivery: deliveries.sort(byName) };
}

type OilRow = {
  element: string;
  name: string | null;
  at: string | Date;
  temperature: unknown;
  polarity: unknown;
};

/**
 * Oil elements of the last 90 days: the last reading (temperature, polarity) and the last oil
 * change of each, one row per element straight from SQL (DISTINCT ON over the result entries),
 * plus the elements of today's oil tasks not read yet.
 */
async function oilEquipment(
  db: Database,
  storeId: string,
  today: string,
  todayTasks: (typeof tasks.$inferSelect)[],
): Promise<OilState[]> {
  const since = scoreWindowStart(today, oilHistoryDays);
  // One pass over the entries of the period: each element's last reading and last change.
  const result = (await db.execute(sql`
    with entries as materialized (
      select entry->>'element' as element,
             (select item->>'name' from jsonb_array_elements(${tasks.elements}) item
               where item->>'id' = entry->>'element' limit 1) as name,
             ${tasks.completed_timestamp} as at,
             entry->'temperature' as temperature,
             entry->'polarity' as polarity,
             entry->>'oil_changed' = 'true' as changed
        from ${tasks} cross join lateral jsonb_array_elements(${tasks.result}->'entries') entry
       where ${tasks.store_id} = ${storeId} and ${tasks.module} = 'oils'
         and ${tasks.day} between ${since} and ${today}
         and ${tasks.completed_timestamp} is not null)
    select distinct on (element) element, name, at, temperature, polarity,
           max(at) filter (where changed) over (partition by element) as changed_at
      from entries
     order by element, at desc`)) as unknown as {
    rows: (OilRow & { changed_at: string | Date | null })[];
  };
  const readings = result;
  const isoOf = (value: string | Date) => new Date(value).toISOString();
  const oils = new Map<string, OilState>();
  for (const task of todayTasks)
    if (task.module === 'oils')
      for (const element of task.elements)
        oils.set(element.id, {
          id: element.id,
          name: element.name,
          temperature: null,
          polarity: null,
          last_reading_at: null,
          last_change_at: null,
        });
  for (const row of readings.rows) {
    oils.set(row.element, {
      id: row.element,
      name: oils.get(row.element)?.name ?? row.name ?? '',
      temperature: numberOrNull(row.temperature),
      polarity: numberOrNull(row.polarity),
      last_reading_at: isoOf(row.at),
      last_change_at: row.changed_at ? isoOf(row.changed_at) : null,
    });
  }
  return [...oils.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** GET /api/stores/:storeId/home: anyone who sees the store; tasks and equipment not for managers. */
export async function storeHome(
  db: Database,
  scope: Scope,
  storeId: string,
  now: Date = new Date(),
): Promise<StoreHome> {
  const store = await findStoreInScope(db, scope, storeId);
  const zone = store.timezone_name;
  const today = dayInZone(now, zone);
  const hidden = await storeHiddenModules(db, store);
  const isManager = scope.role === 'manager';
  const [counts, todayTasks] = await Promise.all([
    scoreCountsByStore(db, eq(stores.id, store.id), now),
    isManager
      ? Promise.resolve([])
      : db
          .select()
          .from(tasks)
          .where(and(eq(tasks.store_id, store.id), eq(tasks.day, today)))
          .orderBy(asc(tasks.start), asc(tasks.name)),
  ]);
  const scoreCounts = counts.get(store.id) ?? emptyScoreCounts;
  const score = {
    value: storeScore(scoreCounts),
    counts: scoreCounts,
    window_start: scoreWindowStart(today, scoreWindowDays),
    window_end: today,
  };
  const home = {
    store: { id: store.id, name: store.name, timezone_name: zone },
    today,
    score,
    hidden_modules: hidden,
  };
  if (isManager) return { ...home, tasks: null, equipment: null };

  const visible = todayTasks.filter((task) => !hidden.includes(task.module as ModuleKey));
  const presented = visible.map((task) => presentTask(task, now, zone));
  const [temperatures, oils] = await Promise.all([
    hidden.includes('temperatures')
      ? { fridges: [], delivery: [] }
      : temperatureEquipment(db, store.id, visible),
    hidden.includes('oils') ? [] : oilEquipment(db, store.id, today, visible),
  ]);
  return {
    ...home,
    tasks: {
      completed: presented
        .filter((task) => task.status === 'done' || task.status === 'done-late')
        .map(homeTask),
      late: presented.filter((task) => task.status === 'late').map(homeTask),
      pending: presented.filter((task) => task.status === 'on-time').map(homeTask),
    },
    equipment: { ...temperatures, oils },
  };
}

/**
 * Best stores are the score of every store of a scope at once: over thousands of stores that
 * is a scan of a month of tasks, so an answer is kept for a few minutes per caller and
 * database (the score moves by the day). Each instance keeps its own; bounded in size.
 */
export const bestStoresCacheMs = 5 * 60_000;
const bestStoresCacheSize = 1000;
const bestStoresCache = new Map<string, { at: number; items: Promise<BestStore[]> }>();

/**
 * GET /api/home/best-stores: the top 5 active stores of the scope (or of one database) by
 * score, stores without a score skipped, ties by name; at most 5 minutes old.
 */
export async function bestStores(
  db: Database,
  scope: Scope,
  databaseId: string | undefined,
  now: Date = new Date(),
): Promise<BestStore[]> {
  const key = `${scope.userId}|${databaseId ?? ''}`;
  const cached = bestStoresCache.get(key);
  if (cached && now.getTime() - cached.at < bestStoresCacheMs) return cached.items;
  const items = computeBestStores(db, scope, databaseId, now);
  if (bestStoresCache.size >= bestStoresCacheSize) {
    const oldest = bestStoresCache.keys().next().value;
    if (oldest !== undefined) bestStoresCache.delete(oldest);
  }
  bestStoresCache.set(key, { at: now.getTime(), items });
  // A failed computation is not kept.
  items.catch(() => bestStoresCache.delete(key));
  return items;
}

async function computeBestStores(
  db: Database,
  scope: Scope,
  databaseId: string | undefined,
  now: Date = new Date(),
): Promise<BestStore[]> {
  const condition = and(
    storeFilter(scope),
    eq(stores.active, true),
    databaseId ? eq(stores.database_id, databaseId) : undefined,
  );
  const counts = await scoreCountsByStore(db, condition, now);
  const scored = [...counts]
    .map(([id, storeCounts]) => ({ id, score: storeScore(storeCounts) }))
    .filter((entry): entry is { id: string; score: number } => entry.score !== null);
  if (scored.length === 0) return [];
  const names = await db
    .select({ id: stores.id, name: stores.name, city: stores.city })
    .from(stores)
    .where(
      inArray(
        stores.id,
        scored.map((entry) => entry.id),
      ),
    );
  const byId = new Map(names.map((row) => [row.id, row]));
  return scored
    .map((entry) => ({
      ...entry,
      name: byId.get(entry.id)?.name ?? '',
      city: byId.get(entry.id)?.city ?? '',
    }))
    .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
    .slice(0, bestStoresCount);
}

/** For tests: the score counts of one store as the SQL aggregate computes them. */
export async function storeScoreCounts(db: Database, storeId: string, now: Date) {
  return (
    (await scoreCountsByStore(db, eq(stores.id, storeId), now)).get(storeId) ?? emptyScoreCounts
  );
}
