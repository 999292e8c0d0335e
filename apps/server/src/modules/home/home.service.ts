import { defaultElementLocks } from '@mise/shared/catalogue/constants';
import { boundProbeState, resolveInheritance } from '@mise/shared/catalogue/rules';
import { bestStoresCount, oilHistoryDays, scoreWindowDays } from '@mise/shared/history/constants';
import {
  emptyScoreCounts,
  equipmentStateOfCounts,
  type ScoreCounts,
  scoreClassOf,
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
import type { TaskStatus } from '@mise/shared/tasks/constants';
import { addDays, dayInZone, localMinuteToInstant, taskStatus } from '@mise/shared/tasks/rules';
import { and, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, unionAll } from 'drizzle-orm/pg-core';
import type { Database, DatabaseHandle } from '../../db/client';
import {
  databaseElements,
  databases,
  probes,
  storeDayEquipment,
  storeDayScores,
  storeElements,
  storeOilStates,
  stores,
  tasks,
} from '../../db/schema';
import { notFound } from '../../platform/errors';
import { drizzleJsonb, preparedStatement, statementRows } from '../../platform/prepared';
import type { Scope } from '../../platform/scope';
import { storeFilter, storeScopeCondition, storeScopeValues } from '../../platform/scope';
import { mergeHiddenModules } from '../stores/stores.service';

/*
 * The home dashboard of a store (spec 000 §2): restaurant score, today's tasks and the
 * equipment temperatures; and the best stores when no store is chosen. The past days of the
 * score, the oils and the day's fridges come from summaries kept by triggers on tasks
 * (migration 0011_home_summaries; their rules are the shared ones written in SQL, checked
 * against them by the tests); today's tasks are read once, without their results.
 */

const taskEndSql = sql`${tasks.start} + ${tasks.duration} * interval '1 minute'`;

/** UTC's calendar day of `now` shifted by whole days. */
const utcDay = (now: Date, days: number) => addDays(now.toISOString().slice(0, 10), days);

const addCounts = (left: ScoreCounts, right: ScoreCounts): ScoreCounts => ({
  onTime: left.onTime + right.onTime,
  onTimeWithAnomaly: left.onTimeWithAnomaly + right.onTimeWithAnomaly,
  late: left.late + right.late,
  lateWithAnomaly: left.lateWithAnomaly + right.lateWithAnomaly,
  missed: left.missed + right.missed,
});

/**
 * Score counts per store over each store's last 30 local days (today included), by the
 * classes of `scoreClassOf`: postponed tasks and tasks not yet due do not count. The 29 past
 * days come from `store_day_scores` (kept by triggers on tasks; every task window ends by the
 * next local midnight, so a past day's open tasks are missed); today is counted from its
 * tasks, where "missed" depends on the time.
 */
async function scoreCountsByStore(
  db: Database,
  storeCondition: SQL | undefined,
  now: Date,
): Promise<Map<string, ScoreCounts>> {
  const [past, today] = await Promise.all([
    pastScoreCounts(db, storeCondition, now),
    todayScoreCountsByStore(db, storeCondition, now),
  ]);
  return mergeCounts(past, today);
}

function mergeCounts(...maps: Map<string, ScoreCounts>[]): Map<string, ScoreCounts> {
  const merged = new Map<string, ScoreCounts>();
  for (const map of maps)
    for (const [storeId, counts] of map)
      merged.set(storeId, addCounts(merged.get(storeId) ?? emptyScoreCounts, counts));
  return merged;
}

const nowValueOf = (now: Date) => sql`${now.toISOString()}::timestamptz`;
const localTodayOf = (now: Date) =>
  sql`(${nowValueOf(now)} at time zone ${stores.timezone_name})::date`;

const sumOf = (column: AnyPgColumn) => sql<number>`coalesce(sum(${column}), 0)`.mapWith(Number);
/** Score counts of `store_day_scores` rows, summed. */
const storeDayScoreSums = {
  onTime: sumOf(storeDayScores.on_time),
  onTimeWithAnomaly: sumOf(storeDayScores.on_time_with_anomaly),
  late: sumOf(storeDayScores.late),
  lateWithAnomaly: sumOf(storeDayScores.late_with_anomaly),
  missed: sumOf(storeDayScores.open),
};

/** The 29 days before each store's today, from `store_day_scores`. */
async function pastScoreCounts(
  db: Database,
  storeCondition: SQL | undefined,
  now: Date,
): Promise<Map<string, ScoreCounts>> {
  const localToday = localTodayOf(now);
  const rows = await db
    .select({ storeId: storeDayScores.store_id, ...storeDayScoreSums })
    .from(stores)
    .innerJoin(storeDayScores, eq(storeDayScores.store_id, stores.id))
    .where(
      and(
        storeCondition,
        sql`${storeDayScores.day} between ${localToday} - ${scoreWindowDays - 1}::integer and ${localToday} - 1`,
        // The same days with constant bounds (every zone's today lies within a day of
        // UTC's), so the primary key narrows the scan before the per-store condition.
        gte(storeDayScores.day, scoreWindowStart(utcDay(now, -1), scoreWindowDays)),
        lte(storeDayScores.day, utcDay(now, 0)),
      ),
    )
    .groupBy(storeDayScores.store_id);
  return new Map(rows.map(({ storeId, ...counts }) => [storeId, counts]));
}

/** One store's 29 days before its today (the store home's statement, prepared). */
const pastScoreOfStore = preparedStatement((db) =>
  db
    .select(storeDayScoreSums)
    .from(storeDayScores)
    .where(
      and(
        eq(storeDayScores.store_id, sql.placeholder('storeId')),
        sql`${storeDayScores.day} between ${sql.placeholder('from')}::date and ${sql.placeholder('to')}::date`,
      ),
    )
    .prepare('mise_home_past_score'),
);

async function storePastScoreCounts(
  db: Database,
  storeId: string,
  today: string,
): Promise<Map<string, ScoreCounts>> {
  const [row] = await pastScoreOfStore(db).execute({
    storeId,
    from: scoreWindowStart(today, scoreWindowDays),
    to: addDays(today, -1),
  });
  return new Map([[storeId, row ?? emptyScoreCounts]]);
}

/** Each store's today counted from its tasks (the shared rule written in SQL). */
async function todayScoreCountsByStore(
  db: Database,
  storeCondition: SQL | undefined,
  now: Date,
): Promise<Map<string, ScoreCounts>> {
  const nowValue = nowValueOf(now);
  const completed = sql`${tasks.completed_timestamp} is not null`;
  const onTime = sql`${completed} and ${tasks.completed_timestamp} <= ${taskEndSql}`;
  const late = sql`${completed} and ${tasks.completed_timestamp} > ${taskEndSql}`;
  const anomaly = sql`${tasks.result_anomaly} is true`;
  const count = (condition: SQL) =>
    sql<number>`count(*) filter (where ${condition})`.mapWith(Number);
  const rows = await db
    .select({
      storeId: tasks.store_id,
      onTime: count(sql`${onTime} and not (${anomaly})`),
      onTimeWithAnomaly: count(sql`${onTime} and ${anomaly}`),
      late: count(sql`${late} and not (${anomaly})`),
      lateWithAnomaly: count(sql`${late} and ${anomaly}`),
      missed: count(sql`not (${completed}) and ${taskEndSql} < ${nowValue}`),
    })
    .from(stores)
    .innerJoin(tasks, eq(tasks.store_id, stores.id))
    .where(
      and(
        storeCondition,
        sql`${tasks.day} = ${localTodayOf(now)}`,
        gte(tasks.day, utcDay(now, -1)),
        lte(tasks.day, utcDay(now, 1)),
        sql`${tasks.postponed_task} is null`,
      ),
    )
    .groupBy(tasks.store_id);
  return new Map(rows.map(({ storeId, ...counts }) => [storeId, counts]));
}

/**
 * What the home reads of today's tasks: no configuration, type, result or revision columns,
 * the element snapshots only of oil tasks (the oils panel lists elements not read yet), and
 * the instants as epoch milliseconds, read without Drizzle's row mapping (statementRows).
 */
type TodayTask = {
  id: string;
  name: string;
  module: (typeof tasks.$inferSelect)['module'];
  day: string;
  start_ms: number;
  duration: number;
  completed_ms: number | null;
  employee: (typeof tasks.$inferSelect)['employee'];
  postponed_task: string | null;
  result_anomaly: boolean | null;
  elements: (typeof tasks.$inferSelect)['elements'];
};

const todayTasksOfStore = async (database: DatabaseHandle, storeId: string, day: string) =>
  (
    await statementRows<TodayTask>(
      database,
      sql`select ${tasks.id}, ${tasks.name}, ${tasks.module}, ${tasks.day}::text as day,
  floor(extract(epoch from ${tasks.start}) * 1000)::float8 as start_ms, ${tasks.duration},
  floor(extract(epoch from ${tasks.completed_timestamp}) * 1000)::float8 as completed_ms,
  ${tasks.employee}, ${tasks.postponed_task}, ${tasks.result_anomaly},
  case when ${tasks.module} = 'oils' then ${tasks.elements} else '[]'::jsonb end as elements
from ${tasks}
where ${tasks.store_id} = ${storeId} and ${tasks.day} = ${day}
order by ${tasks.start}, ${tasks.name}`,
      'home_today_tasks',
    )
  ).map((task) => ({
    ...task,
    employee: drizzleJsonb(task.employee) as TodayTask['employee'],
    elements: drizzleJsonb(task.elements) as TodayTask['elements'],
  }));

/** Today's score counts from today's tasks, by the shared rule. */
function todayScoreCounts(rows: { task: TodayTask; status: TaskStatus }[]): ScoreCounts {
  const counts = { ...emptyScoreCounts };
  for (const { task, status } of rows) {
    const scoreClass = scoreClassOf(status, task.result_anomaly === true);
    if (scoreClass) counts[scoreClass] += 1;
  }
  return counts;
}

const homeTask = (task: TodayTask, status: TaskStatus): HomeTask => ({
  id: task.id,
  name: task.name,
  module: task.module,
  start: new Date(task.start_ms).toISOString(),
  duration: task.duration,
  status,
  completed_timestamp:
    task.completed_ms === null ? null : new Date(task.completed_ms).toISOString(),
  employee: task.employee ?? null,
});

/**
 * Which of these element ids are delivery items (store overrides win over the database):
 * the database elements and the store's rows (its own, or overriding one of the ids) in one
 * statement.
 */
const deliveryFlagsOf = preparedStatement((db) => {
  const ids = sql.placeholder('ids');
  return unionAll(
    db
      .select({
        id: databaseElements.id,
        originId: sql<string | null>`null::uuid`,
        isDelivery: sql<boolean | null>`${databaseElements.temperature_delivery_item}`,
        isStore: sql<boolean>`false`,
      })
      .from(databaseElements)
      .where(sql`${databaseElements.id} = any(${ids}::uuid[])`),
    db
      .select({
        id: storeElements.id,
        originId: storeElements.origin_id,
        isDelivery: storeElements.temperature_delivery_item,
        isStore: sql<boolean>`true`,
      })
      .from(storeElements)
      .where(
        and(
          eq(storeElements.store_id, sql.placeholder('storeId')),
          sql`(${storeElements.id} = any(${ids}::uuid[]) or ${storeElements.origin_id} = any(${ids}::uuid[]))`,
        ),
      ),
  ).prepare('mise_home_delivery_flags');
});

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function deliveryElementIds(
  db: Database,
  storeId: string,
  elementIds: string[],
): Promise<Set<string>> {
  // Snapshot ids are the catalogue's uuids; anything else cannot be a catalogue element.
  const ids = elementIds.filter((id) => uuidPattern.test(id));
  if (ids.length === 0) return new Set();
  const rows = await deliveryFlagsOf(db).execute({ storeId, ids });
  const delivery = new Map<string, boolean>();
  // Database rows first, then the store's overrides over them.
  for (const row of rows.filter((row) => !row.isStore))
    delivery.set(row.id, row.isDelivery === true);
  for (const row of rows.filter((row) => row.isStore)) {
    if (row.isDelivery === null) continue;
    delivery.set(
      row.originId && ids.includes(row.originId) ? row.originId : row.id,
      row.isDelivery,
    );
  }
  return new Set([...delivery].filter(([, isDelivery]) => isDelivery).map(([id]) => id));
}

const equipmentOfStoreDay = preparedStatement((db) =>
  db
    .select()
    .from(storeDayEquipment)
    .where(
      and(
        eq(storeDayEquipment.store_id, sql.placeholder('storeId')),
        eq(storeDayEquipment.day, sql.placeholder('day')),
      ),
    )
    .prepare('mise_home_day_equipment'),
);

/** The effective fields of a probe-bound element the panel needs. */
const boundFieldKeys = [
  'name',
  'active',
  'temperatures_module_active',
  'temperature_delivery_item',
  'minimum_temperature',
  'maximum_temperature',
] as const;
type BoundFieldKey = (typeof boundFieldKeys)[number];

const boundColumns = <T extends typeof storeElements | typeof databaseElements>(table: T) => ({
  name: table.name,
  active: table.active,
  temperatures_module_active: table.temperatures_module_active,
  temperature_delivery_item: table.temperature_delivery_item,
  minimum_temperature: table.minimum_temperature,
  maximum_temperature: table.maximum_temperature,
});

/**
 * The store's elements bound to one of its probes (issue 15), with their origin's fields and
 * locks and the probe's last reading: one statement over store_elements (store index), the
 * probe by its unique probeUID and owner store, so another store's probe never counts.
 */
const probeBoundElementsOfStore = preparedStatement((db) =>
  db
    .select({
      id: storeElements.id,
      originId: databaseElements.id,
      own: boundColumns(storeElements),
      origin: { ...boundColumns(databaseElements), locks: databaseElements.locks },
      probeUid: probes.probe_uid,
      probeName: probes.name,
      probeTemperature: probes.last_temperature,
      probeReadingAt: probes.last_temperature_timestamp,
    })
    .from(storeElements)
    .innerJoin(stores, eq(stores.id, storeElements.store_id))
    .innerJoin(
      probes,
      and(
        eq(probes.probe_uid, storeElements.probe_id),
        eq(probes.store_id, storeElements.store_id),
      ),
    )
    .leftJoin(
      databaseElements,
      and(
        eq(databaseElements.id, storeElements.origin_id),
        eq(databaseElements.database_id, stores.database_id),
      ),
    )
    .where(
      and(
        eq(storeElements.store_id, sql.placeholder('storeId')),
        sql`${storeElements.probe_id} is not null`,
      ),
    )
    .prepare('mise_home_probe_elements'),
);

type BoundElement = {
  id: string;
  originId: string | null;
  values: Record<BoundFieldKey, unknown>;
  probe: NonNullable<EquipmentReading['probe']>;
};

/** The active, temperatures-module elements bound to a probe, with the probe's state now. */
async function probeBoundElements(
  db: Database,
  storeId: string,
  now: Date,
): Promise<BoundElement[]> {
  const rows = await probeBoundElementsOfStore(db).execute({ storeId });
  const bound: BoundElement[] = [];
  for (const row of rows) {
    const origin = row.originId && row.origin ? row.origin : null;
    const { values } = resolveInheritance<BoundFieldKey, unknown>(
      boundFieldKeys,
      row.own,
      origin
        ? { values: origin, locks: { ...defaultElementLocks, ...(origin.locks ?? {}) } }
        : null,
    );
    // A null flag falls back as in every effective value (active, module on by default).
    if (values.active === false || values.temperatures_module_active === false) continue;
    const minimum = (values.minimum_temperature as number | null) ?? null;
    const maximum = (values.maximum_temperature as number | null) ?? null;
    bound.push({
      id: row.id,
      originId: origin ? row.originId : null,
      values,
      probe: {
        probe_uid: row.probeUid,
        name: row.probeName,
        last_temperature: row.probeTemperature,
        last_reading_at: row.probeReadingAt?.toISOString() ?? null,
        state: boundProbeState(
          { lastTemperature: row.probeTemperature, lastTimestamp: row.probeReadingAt },
          { minimum, maximum },
          now,
        ),
      },
    });
  }
  return bound;
}

/** Today's anomaly of a row: a manual reading out of range, or its probe out of range or silent. */
function hasAnomaly(reading: Pick<EquipmentReading, 'state' | 'probe'>): boolean {
  return (
    reading.state === 'out-of-range' ||
    reading.state === 'mixed' ||
    (reading.probe !== null && reading.probe.state !== 'in-range')
  );
}

/**
 * Fridges and delivery elements of the day's temperature tasks with their day's state, from
 * `store_day_equipment` (kept by triggers on tasks), split by the delivery flag; elements
 * bound to a probe carry its last reading and state, and those no task reads today are added
 * (no manual data) so a monitored fridge is always on the panel.
 */
async function temperatureEquipment(
  db: Database,
  storeId: string,
  today: string,
  now: Date,
): Promise<{ fridges: EquipmentReading[]; delivery: EquipmentReading[] }> {
  const [rows, bound] = await Promise.all([
    equipmentOfStoreDay(db).execute({ storeId, day: today }),
    probeBoundElements(db, storeId, now),
  ]);
  const delivery = await deliveryElementIds(
    db,
    storeId,
    rows.map((row) => row.element_id),
  );
  // A task's snapshot names the store element or, for an override, often its origin.
  const boundByElementId = new Map<string, BoundElement>();
  for (const element of bound) {
    if (element.originId) boundByElementId.set(element.originId, element);
  }
  for (const element of bound) boundByElementId.set(element.id, element);
  const shown = new Set<BoundElement>();
  const fridges: EquipmentReading[] = [];
  const deliveries: EquipmentReading[] = [];
  for (const row of rows) {
    const element = boundByElementId.get(row.element_id);
    if (element) shown.add(element);
    const state = equipmentStateOfCounts(row.in_range, row.out_of_range);
    const probe = element?.probe ?? null;
    const reading: EquipmentReading = {
      id: row.element_id,
      name: row.name,
      state,
      last_temperature: row.last_temperature,
      last_reading_at: row.last_reading_at?.toISOString() ?? null,
      probe,
      has_anomaly: hasAnomaly({ state, probe }),
    };
    (delivery.has(row.element_id) ? deliveries : fridges).push(reading);
  }
  for (const element of bound) {
    if (shown.has(element)) continue;
    const reading: EquipmentReading = {
      id: element.id,
      name: (element.values.name as string | null) ?? '',
      state: 'no-data',
      last_temperature: null,
      last_reading_at: null,
      probe: element.probe,
      has_anomaly: hasAnomaly({ state: 'no-data', probe: element.probe }),
    };
    (element.values.temperature_delivery_item === true ? deliveries : fridges).push(reading);
  }
  const byName = (a: EquipmentReading, b: EquipmentReading) => a.name.localeCompare(b.name);
  return { fridges: fridges.sort(byName), delivery: deliveries.sort(byName) };
}

const oilStatesOfStore = preparedStatement((db) =>
  db
    .select()
    .from(storeOilStates)
    .where(
      and(
        eq(storeOilStates.store_id, sql.placeholder('storeId')),
        gte(storeOilStates.last_reading_at, sql.placeholder('since')),
      ),
    )
    .prepare('mise_home_oil_states'),
);

/** The oil elements of a store read in the last 90 days (`store_oil_states`, kept by triggers). */
async function readOilStates(db: Database, store: HomeStore, today: string) {
  const since = localMinuteToInstant(
    scoreWindowStart(today, oilHistoryDays),
    0,
    store.timezone_name,
  );
  const rows = await oilStatesOfStore(db).execute({ storeId: store.id, since });
  return { rows, since };
}

/**
 * The oils panel: each oil element's last reading (temperature, polarity) and last oil
 * change of the last 90 days, plus the elements of today's oil tasks not read yet.
 */
function oilEquipment(
  states: Awaited<ReturnType<typeof readOilStates>>,
  todayTasks: TodayTask[],
): OilState[] {
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
  for (const row of states.rows) {
    const changedAt =
      row.last_change_at && row.last_change_at >= states.since ? row.last_change_at : null;
    oils.set(row.element_id, {
      id: row.element_id,
      name: oils.get(row.element_id)?.name ?? row.name ?? '',
      temperature: row.temperature,
      polarity: row.polarity,
      last_reading_at: row.last_reading_at.toISOString(),
      last_change_at: changedAt?.toISOString() ?? null,
    });
  }
  return [...oils.values()].sort((a, b) => a.name.localeCompare(b.name));
}

type HomeStore = { id: string; name: string; timezone_name: string; hidden: ModuleKey[] };

/** The home's store, in the scope: a prepared statement, whatever the scope. */
const homeStoreById = preparedStatement((db) =>
  db
    .select({
      id: stores.id,
      name: stores.name,
      timezone_name: stores.timezone_name,
      hidden: stores.hidden_modules,
      databaseHidden: databases.hidden_modules,
    })
    .from(stores)
    .leftJoin(databases, eq(databases.id, stores.database_id))
    .where(and(eq(stores.id, sql.placeholder('storeId')), storeScopeCondition()))
    .limit(1)
    .prepare('mise_home_store'),
);

/** The store of a home page in the caller's scope (404 otherwise), with its hidden modules. */
async function findHomeStore(db: Database, scope: Scope, storeId: string): Promise<HomeStore> {
  const [row] = await homeStoreById(db).execute({ storeId, ...storeScopeValues(scope) });
  if (!row) throw notFound();
  const hidden = mergeHiddenModules(row.hidden, row.databaseHidden);
  return { id: row.id, name: row.name, timezone_name: row.timezone_name, hidden };
}

/** GET /api/stores/:storeId/home: anyone who sees the store; tasks and equipment not for managers. */
export async function storeHome(
  database: DatabaseHandle,
  scope: Scope,
  storeId: string,
  now: Date = new Date(),
): Promise<StoreHome> {
  const db = database.db;
  const store = await findHomeStore(db, scope, storeId);
  const zone = store.timezone_name;
  const today = dayInZone(now, zone);
  const hidden = store.hidden;
  const home = (counts: ScoreCounts) => ({
    store: { id: store.id, name: store.name, timezone_name: zone },
    today,
    score: {
      value: storeScore(counts),
      counts,
      window_start: scoreWindowStart(today, scoreWindowDays),
      window_end: today,
    },
    hidden_modules: hidden,
  });
  const countsOf = (counts: Map<string, ScoreCounts>) => counts.get(store.id) ?? emptyScoreCounts;
  if (scope.role === 'manager') {
    const counts = await scoreCountsByStore(db, eq(stores.id, store.id), now);
    return { ...home(countsOf(counts)), tasks: null, equipment: null };
  }

  // Today's tasks, and at once what does not depend on them.
  const [todayTasks, pastCounts, oilStates, temperatures] = await Promise.all([
    todayTasksOfStore(database, store.id, today),
    storePastScoreCounts(db, store.id, today),
    hidden.includes('oils') ? null : readOilStates(db, store, today),
    hidden.includes('temperatures')
      ? { fridges: [], delivery: [] }
      : temperatureEquipment(db, store.id, today, now),
  ]);
  const statuses = todayTasks.map((task) => ({
    task,
    status: taskStatus(
      {
        start: new Date(task.start_ms),
        duration: task.duration,
        completedAt: task.completed_ms === null ? null : new Date(task.completed_ms),
        postponed: task.postponed_task !== null,
      },
      now,
      task.day === today,
    ),
  }));
  const visible = statuses.filter((item) => !hidden.includes(item.task.module as ModuleKey));
  // The score counts every module, hidden ones too, like the SQL of other stores.
  const counts = mergeCounts(pastCounts, new Map([[store.id, todayScoreCounts(statuses)]]));
  const tab = (tabStatuses: TaskStatus[]) =>
    visible
      .filter((item) => tabStatuses.includes(item.status))
      .map((item) => homeTask(item.task, item.status));
  return {
    ...home(countsOf(counts)),
    tasks: {
      completed: tab(['done', 'done-late']),
      late: tab(['late']),
      pending: tab(['on-time']),
    },
    equipment: {
      ...temperatures,
      oils: oilStates
        ? oilEquipment(
            oilStates,
            visible.map((item) => item.task),
          )
        : [],
    },
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
 * GET /api/home/best-stores: the top 5 active, licensed stores of the scope (or of one
 * database) by score, stores without a score (no task due yet) skipped, ties by name; at
 * most 5 minutes old.
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
    // An unlicensed store's tablets stop (no records): it is not ranked.
    eq(stores.mise_licence, true),
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

/**
 * A store's restaurant score as its home shows it (the same counts and rule over the same 30
 * local days), or null when no task was due yet: what GET /api/stores/:id answers as `score`.
 */
export async function storeScoreOf(db: Database, storeId: string, now: Date) {
  return storeScore(await storeScoreCounts(db, storeId, now));
}

/** For tests: the score counts of one store as the SQL aggregate computes them. */
export async function storeScoreCounts(db: Database, storeId: string, now: Date) {
  return (
    (await scoreCountsByStore(db, eq(stores.id, storeId), now)).get(storeId) ?? emptyScoreCounts
  );
}
