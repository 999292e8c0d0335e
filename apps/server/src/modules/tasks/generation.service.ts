import { hostname } from 'node:os';
import { taskGenerationEventTypes } from '@mise/shared/tasks/constants';
import {
  compileRecurrence,
  dayInZone,
  localMinuteToInstant,
  normalizeRecurrence,
} from '@mise/shared/tasks/rules';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { stores, taskGenerationEvents, taskGenerationRuns, tasks } from '../../db/schema';
import { recordTaskGenerationRuns } from '../../platform/metrics';
import {
  type GenerationConfiguration,
  loadGenerationConfigurations,
} from '../task-configurations/generation-configurations';

/*
 * Task generation (spec 002 §3; ARCHITECTURE "Jobs"). For a store and one of its local
 * calendar days, every active configuration whose recurrence selects the day gives one task
 * per schedule window. Schedules are wall-clock minutes in the store's time zone.
 *
 * Exactly once, whatever runs it and how often:
 * - a (store, day) is claimed in task_generation_runs inside the transaction that inserts its
 *   tasks: a second instance's claim waits for that transaction and then finds the row;
 * - every task carries generation_key `${configuration key}:${day}:${start minute}`, unique
 *   per store, inserted with ON CONFLICT DO NOTHING, so even a forced re-run (the admin's
 *   "run now", or a configuration added later in the day) only adds what is missing.
 * A failed (store, day) leaves an unfinished run row: it is retried after `retryAfterMinutes`.
 */

/** The store fields generation needs. */
export type GenerationStore = {
  id: string;
  active: boolean;
  timezone_name: string;
  task_generation_hour: number;
  week_start: number;
  /** When the store was created: no task starting before it is generated. */
  created_at: Date;
};

export type LoadConfigurations = (
  db: Database,
  storeIds: string[],
) => Promise<Map<string, GenerationConfiguration[]>>;

export type GenerationOptions = {
  /** The clock (tests inject it). */
  now?: Date;
  /** Generate even when the day already has a finished run (only missing tasks are added). */
  force?: boolean;
  /** Where configurations come from (the task-configurations module by default). */
  loadConfigurations?: LoadConfigurations;
};

export type GenerationResult = {
  storeId: string;
  day: string;
  /** generated: claimed and generated; skipped: already generated (or running elsewhere). */
  status: 'generated' | 'skipped' | 'failed';
  created: number;
};

/** An unfinished run older than this is considered failed or abandoned and is retried. */
export const retryAfterMinutes = 15;
/** Stores generated in one transaction by generateDueStores. */
export const storesPerBatch = 100;
/** Rows per INSERT statement. */
const rowsPerInsert = 5000;

type NewTask = typeof tasks.$inferInsert;
type NewEvent = {
  store_id: string | null;
  type: number;
  message: string;
  details: Record<string, unknown> | null;
};
type Item = { store: GenerationStore; day: string };
type Plan = { item: Item; tasks: NewTask[]; warnings: NewEvent[]; configurationCount: number };

/* ---------- Planning (pure) ---------- */

/**
 * Memoised recurrences across a batch: compiled rules by (rule, anchor, week start), and
 * "does it select this day" answers (rrule walks from the anchor on each question).
 */
export type RecurrenceCache = Map<string, boolean | Date | ReturnType<typeof compileRecurrence>>;

/** localMinuteToInstant, memoised: a batch asks the same few (zone, day, minute) many times. */
function instantOf(day: string, minute: number, zone: string, cache: RecurrenceCache): Date {
  const key = `@${zone}|${day}|${minute}`;
  let instant = cache.get(key) as Date | undefined;
  if (!instant) {
    instant = localMinuteToInstant(day, minute, zone);
    cache.set(key, instant);
  }
  return instant;
}

const weekdayCodes = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];
const simpleWeekly =
  /^FREQ=WEEKLY;INTERVAL=1;BYDAY=((?:MO|TU|WE|TH|FR|SA|SU)(?:,(?:MO|TU|WE|TH|FR|SA|SU))*)$/;

/**
 * The common rules answered directly (the same answers as compileRecurrence): daily and
 * weekly with interval 1 do not depend on the anchor's week or the week start. Others: null.
 */
function simpleOccurrence(rule: string, day: string): boolean | null {
  const normalized = normalizeRecurrence(rule);
  if (normalized === 'FREQ=DAILY;INTERVAL=1') return true;
  const weekly = simpleWeekly.exec(normalized);
  if (!weekly) return null;
  const weekday = weekdayCodes[new Date(`${day}T00:00:00Z`).getUTCDay()]!;
  return weekly[1]!.split(',').includes(weekday);
}

function occursOn(
  configuration: GenerationConfiguration,
  weekStart: number,
  day: string,
  cache: RecurrenceCache,
): boolean {
  if (day < configuration.recurrence_anchor) return false;
  const simple = simpleOccurrence(configuration.recurrence, day);
  if (simple !== null) return simple;
  const ruleKey = `${configuration.recurrence}|${configuration.recurrence_anchor}|${weekStart}`;
  const dayKey = `${ruleKey}|${day}`;
  let selected = cache.get(dayKey) as boolean | undefined;
  if (selected === undefined) {
    let compiled = cache.get(ruleKey) as ReturnType<typeof compileRecurrence> | undefined;
    if (!compiled) {
      compiled = compileRecurrence(
        configuration.recurrence,
        configuration.recurrence_anchor,
        weekStart,
      );
      cache.set(ruleKey, compiled);
    }
    selected = compiled.occursOn(day);
    cache.set(dayKey, selected);
  }
  return selected;
}

export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The tasks of one store day (pure): one per schedule window of each configuration the
 * recurrence selects (none starting before the store's creation), starting at the window's wall-clock start in the store's zone and
 * ending at its wall-clock end (the duration is the real minutes between them, which differ
 * from the window's on a DST day); plus the warnings (a configuration with no schedule window,
 * an unreadable recurrence).
 */
export function planStoreDay(
  store: GenerationStore,
  day: string,
  configurations: readonly GenerationConfiguration[],
  cache: RecurrenceCache = new Map(),
): { tasks: NewTask[]; warnings: NewEvent[] } {
  const planned: NewTask[] = [];
  const warnings: NewEvent[] = [];
  const warn = (message: string, details: Record<string, unknown>) =>
    warnings.push({
      store_id: store.id,
      type: taskGenerationEventTypes.warning,
      message,
      details: { day, ...details },
    });
  const keys = new Set<string>();
  for (const configuration of configurations) {
    if (configuration.starts.length === 0) {
      warn(`${configuration.name}: no schedule window, nothing generated`, {
        configuration: configuration.key,
        reason: 'no-schedule',
      });
      continue;
    }
    let selected: boolean;
    try {
      selected = occursOn(configuration, store.week_start, day, cache);
    } catch {
      warn(`${configuration.name}: unreadable recurrence "${configuration.recurrence}"`, {
        configuration: configuration.key,
        reason: 'invalid-recurrence',
      });
      continue;
    }
    if (!selected) continue;
    if (configuration.skip === 'hidden-module') {
      warn(`${configuration.name}: module ${configuration.module} is hidden, nothing generated`, {
        configuration: configuration.key,
        reason: 'hidden-module',
      });
      continue;
    }
    if (configuration.skip === 'no-active-element') {
      warn(`${configuration.name}: no active element, nothing generated`, {
        configuration: configuration.key,
        reason: 'no-active-element',
      });
      continue;
    }
    configuration.starts.forEach((startMinute, index) => {
      const generationKey = `${configuration.key}:${day}:${startMinute}`;
      if (keys.has(generationKey)) return;
      keys.add(generationKey);
      // The window ends at its wall-clock end: on a DST day the real minutes differ.
      const start = instantOf(day, startMinute, store.timezone_name, cache);
      // A task scheduled before the store existed was never due (a new store does not start
      // with its morning's checks missed).
      if (start.getTime() < store.created_at.getTime()) return;
      const windowMinutes = Math.max(0, configuration.durations[index] ?? 0);
      const end = instantOf(day, startMinute + windowMinutes, store.timezone_name, cache);
      const duration = Math.max(0, Math.round((end.getTime() - start.getTime()) / 60_000));
      planned.push({
        store_id: store.id,
        database_id: configuration.database_id,
        configuration_id: configuration.configuration_id,
        store_configuration_id: configuration.store_configuration_id,
        generation_key: generationKey,
        day,
        name: configuration.name,
        module: configuration.module,
        type_name: configuration.type_name,
        type_color: configuration.type_color,
        start,
        duration,
        requires_manager: configuration.requires_manager,
        notify_late: configuration.notify_late,
        elements: configuration.elements,
        actions: configuration.actions,
      });
    });
  }
  planned.sort((left, right) => (left.start as Date).getTime() - (right.start as Date).getTime());
  return { tasks: planned, warnings };
}

/* ---------- Writing ---------- */

const isoOf = (date: Date) => sql`${date.toISOString()}::timestamptz`;

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/*
 * Bulk rows travel as one JSON parameter expanded by json_to_recordset: one small
 * statement whatever the row count (no 65 535-parameter limit, little bind and parse work),
 * the same on node-postgres and PGlite.
 */
const taskColumnTypes: [string, string][] = [
  ['store_id', 'uuid'],
  ['database_id', 'uuid'],
  ['configuration_id', 'uuid'],
  ['store_configuration_id', 'uuid'],
  ['generation_key', 'text'],
  ['day', 'date'],
  ['name', 'text'],
  ['module', 'text'],
  ['type_name', 'text'],
  ['type_color', 'text'],
  ['start', 'timestamptz'],
  ['duration', 'integer'],
  ['requires_manager', 'boolean'],
  ['notify_late', 'boolean'],
  ['elements', 'jsonb'],
  ['actions', 'jsonb'],
];
const taskColumns = sql.raw(taskColumnTypes.map(([column]) => column).join(', '));
const taskRecord = sql.raw(taskColumnTypes.map((pair) => pair.join(' ')).join(', '));

/** Inserts tasks, skipping those already generated; answers the ones inserted. */
export async function insertTaskRows(
  db: Database,
  rows: NewTask[],
): Promise<{ store_id: string; day: string; name: string }[]> {
  const inserted: { store_id: string; day: string; name: string }[] = [];
  for (let offset = 0; offset < rows.length; offset += rowsPerInsert) {
    const payload = JSON.stringify(rows.slice(offset, offset + rowsPerInsert));
    const result = (await db.execute(sql`
      insert into ${tasks} (${taskColumns})
      select ${taskColumns} from json_to_recordset(${payload}::json) as x(${taskRecord})
      on conflict (store_id, generation_key) do nothing
      returning store_id, day::text as day, name`)) as unknown as {
      rows: { store_id: string; day: string; name: string }[];
    };
    inserted.push(...result.rows);
  }
  return inserted;
}

async function insertEvents(db: Database, events: NewEvent[]): Promise<void> {
  for (let offset = 0; offset < events.length; offset += rowsPerInsert) {
    const payload = JSON.stringify(events.slice(offset, offset + rowsPerInsert));
    // clock_timestamp(): each row its own instant, so "newest first" keeps the order written.
    await db.execute(sql`
      insert into ${taskGenerationEvents} (store_id, type, message, details, created_at)
      select store_id, type, message, details, clock_timestamp()
        from json_to_recordset(${payload}::json)
             as x(store_id uuid, type smallint, message text, details jsonb)`);
  }
}

/** Records a failure: an error event, and an unfinished run row so it is retried later. */
async function recordFailure(db: Database, item: Item, error: unknown, now: Date): Promise<void> {
  await insertEvents(db, [
    {
      store_id: item.store.id,
      type: taskGenerationEventTypes.error,
      message: errorMessage(error).slice(0, 500),
      details: { day: item.day },
    },
  ]).catch(() => {});
  await db
    .insert(taskGenerationRuns)
    .values({ store_id: item.store.id, day: item.day, started_at: now })
    .onConflictDoUpdate({
      target: [taskGenerationRuns.store_id, taskGenerationRuns.day],
      set: { started_at: sql`excluded.started_at` },
      setWhere: sql`${taskGenerationRuns.finished_at} is null`,
    })
    .catch(() => {});
}

type Context = {
  now: Date;
  force: boolean;
  load: LoadConfigurations;
  cache: RecurrenceCache;
};

/**
 * Generates items in one transaction: claim, tasks, events, run rows. Items failing before
 * the transaction (unknown zone) are recorded and left out.
 */
async function generateTogether(db: Database, items: Item[], context: Context) {
  const results = new Map<string, GenerationResult>();
  const keyOf = (storeId: string, day: string) => `${storeId}|${day}`;
  const configurations = await context.load(db, [...new Set(items.map((item) => item.store.id))]);
  const plans: Plan[] = [];
  for (const item of items) {
    const result: GenerationResult = {
      storeId: item.store.id,
      day: item.day,
      status: 'skipped',
      created: 0,
    };
    results.set(keyOf(item.store.id, item.day), result);
    if (!item.store.active) continue;
    if (!isValidTimeZone(item.store.timezone_name)) {
      result.status = 'failed';
      await recordFailure(
        db,
        item,
        new Error(`unknown time zone ${item.store.timezone_name}`),
        context.now,
      );
      continue;
    }
    const list = configurations.get(item.store.id) ?? [];
    plans.push({
      item,
      ...planStoreDay(item.store, item.day, list, context.cache),
      configurationCount: list.length,
    });
  }
  if (plans.length === 0) return [...results.values()];

  await db.transaction(async (tx) => {
    const database = tx as unknown as Database;
    const retryBefore = new Date(context.now.getTime() - retryAfterMinutes * 60_000);
    const claimed = await database
      .insert(taskGenerationRuns)
      .values(
        plans.map((plan) => ({
          store_id: plan.item.store.id,
          day: plan.item.day,
          started_at: context.now,
        })),
      )
      .onConflictDoUpdate({
        target: [taskGenerationRuns.store_id, taskGenerationRuns.day],
        set: { started_at: sql`excluded.started_at`, finished_at: null },
        ...(context.force
          ? {}
          : {
              setWhere: sql`${taskGenerationRuns.finished_at} is null and ${taskGenerationRuns.started_at} < ${isoOf(retryBefore)}`,
            }),
      })
      .returning({ store_id: taskGenerationRuns.store_id, day: taskGenerationRuns.day });
    const claimedKeys = new Set(claimed.map((row) => keyOf(row.store_id, row.day)));
    const mine = plans.filter((plan) => claimedKeys.has(keyOf(plan.item.store.id, plan.item.day)));
    if (mine.length === 0) return;

    const rows = mine.flatMap((plan) => plan.tasks);
    const inserted = await insertTaskRows(database, rows);
    const createdByItem = new Map<string, { store_id: string; name: string }[]>();
    for (const row of inserted) {
      const key = keyOf(row.store_id, row.day);
      const list = createdByItem.get(key) ?? [];
      list.push(row);
      createdByItem.set(key, list);
    }

    const events: NewEvent[] = [];
    const counts: SQL[] = [];
    for (const plan of mine) {
      const key = keyOf(plan.item.store.id, plan.item.day);
      const created = createdByItem.get(key) ?? [];
      events.push({
        store_id: plan.item.store.id,
        type: taskGenerationEventTypes.storeGenerationStarted,
        message: `Generation of ${plan.item.day} started`,
        details: {
          day: plan.item.day,
          configurations: plan.configurationCount,
          planned: plan.tasks.length,
          created: created.length,
          ...(context.force ? { forced: true } : {}),
        },
      });
      events.push(...plan.warnings);
      for (const row of created) {
        events.push({
          store_id: row.store_id,
          type: taskGenerationEventTypes.taskGenerated,
          message: row.name,
          details: null,
        });
      }
      const result = results.get(key)!;
      result.status = 'generated';
      result.created = created.length;
      counts.push(
        sql`(${plan.item.store.id}::uuid, ${plan.item.day}::date, ${created.length}::int)`,
      );
    }
    await insertEvents(database, events);
    await database.execute(sql`
      update ${taskGenerationRuns} as r
         set finished_at = ${isoOf(context.now)}, created = r.created + v.created
        from (values ${sql.join(counts, sql`, `)}) as v(store_id, day, created)
       where r.store_id = v.store_id and r.day = v.day`);
  });
  return [...results.values()];
}

/**
 * Generates several (store, day) items: together in one transaction, and when that fails,
 * one by one so that a failing store is recorded (error event) and the others go on.
 */
export async function generateItems(
  db: Database,
  items: Item[],
  options: GenerationOptions = {},
  cache: RecurrenceCache = new Map(),
): Promise<GenerationResult[]> {
  const context: Context = {
    now: options.now ?? new Date(),
    force: options.force ?? false,
    load: options.loadConfigurations ?? loadGenerationConfigurations,
    cache,
  };
  // One order for every instance: concurrent claims never wait on each other crosswise.
  const sorted = [
    ...new Map(items.map((item) => [`${item.store.id}|${item.day}`, item])).values(),
  ].sort((left, right) =>
    left.store.id === right.store.id
      ? left.day.localeCompare(right.day)
      : left.store.id.localeCompare(right.store.id),
  );
  if (sorted.length === 0) return [];
  // Counted once per item (/metrics): together, or one by one through the fallback below.
  try {
    return recordTaskGenerationRuns(await generateTogether(db, sorted, context));
  } catch (error) {
    if (sorted.length === 1) {
      await recordFailure(db, sorted[0]!, error, context.now);
      return recordTaskGenerationRuns([
        { storeId: sorted[0]!.store.id, day: sorted[0]!.day, status: 'failed', created: 0 },
      ]);
    }
    const results: GenerationResult[] = [];
    for (const item of sorted) {
      results.push(...(await generateItems(db, [item], options, cache)));
    }
    return results;
  }
}

/** Generates one store's local calendar day (idempotent). */
export async function generateStoreDay(
  db: Database,
  store: GenerationStore,
  day: string,
  options: GenerationOptions = {},
): Promise<GenerationResult> {
  const [result] = await generateItems(db, [{ store, day }], options);
  return result ?? { storeId: store.id, day, status: 'skipped', created: 0 };
}

/** Several days of one store (the demo's history), configurations loaded once. */
export async function generateStoreDays(
  db: Database,
  store: GenerationStore,
  days: string[],
  options: GenerationOptions = {},
): Promise<GenerationResult[]> {
  return generateItems(
    db,
    days.map((day) => ({ store, day })),
    options,
  );
}

/* ---------- Due stores ---------- */

/** A store's creation as epoch milliseconds (raw rows: the same on both drivers). */
const createdMsOf = sql.raw('floor(extract(epoch from s.created_at) * 1000)::float8');
type GenerationStoreRow = Omit<GenerationStore, 'created_at'> & { created_ms: number; day: string };
const itemOfRow = ({ day, created_ms, ...store }: GenerationStoreRow): Item => ({
  store: { ...store, created_at: new Date(Number(created_ms)) },
  day,
});

/** The local hour (0–23) of an instant in a zone. */
export function hourInZone(instant: Date, zone: string): number {
  const hour = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hour: '2-digit',
    hourCycle: 'h23',
  }).format(instant);
  return Number.parseInt(hour, 10);
}

/**
 * Active stores whose local time has reached their task_generation_hour today and whose
 * local today has no finished run (nor one started in the last `retryAfterMinutes`). Also the
 * catch-up after a restart: a store whose hour passed without a run is due. Two queries,
 * whatever the number of stores: the zones in use, then the due stores of all zones at once
 * (each zone's local day and hour computed here, with the same time-zone data as the tasks).
 */
export async function findDueStores(db: Database, now: Date): Promise<Item[]> {
  const zoneRows = await db
    .selectDistinct({ zone: stores.timezone_name })
    .from(stores)
    .where(eq(stores.active, true));
  const zones = zoneRows
    .map((row) => row.zone)
    .filter(isValidTimeZone)
    .map(
      (zone) => sql`(${zone}::text, ${dayInZone(now, zone)}::date, ${hourInZone(now, zone)}::int)`,
    );
  if (zones.length === 0) return [];
  const retryBefore = new Date(now.getTime() - retryAfterMinutes * 60_000);
  const result = (await db.execute(sql`
    select s.id, s.active, s.timezone_name, s.task_generation_hour, s.week_start,
           ${createdMsOf} as created_ms, z.day::text as day
      from ${stores} s
      join (values ${sql.join(zones, sql`, `)}) as z(zone, day, hour) on s.timezone_name = z.zone
     where s.active and s.task_generation_hour <= z.hour
       and not exists (
         select 1 from ${taskGenerationRuns} r
          where r.store_id = s.id and r.day = z.day
            and (r.finished_at is not null or r.started_at >= ${isoOf(retryBefore)}))
     order by s.id`)) as unknown as {
    rows: GenerationStoreRow[];
  };
  return result.rows.map(itemOfRow);
}

/** How far back a pass catches up the missed days of a store (its today excluded). */
export const catchUpDays = 7;

/**
 * The missed past days of active stores: every local day after the store's last finished run
 * and before its today, at most `catchUpDays` back, without a finished run (nor one started in
 * the last `retryAfterMinutes`). A store that never ran has nothing to catch up. One query.
 * The tasks of those days show as non-finalized (the truthful record: nobody did them then).
 */
export async function findMissedDays(db: Database, now: Date): Promise<Item[]> {
  const zoneRows = await db
    .selectDistinct({ zone: stores.timezone_name })
    .from(stores)
    .where(eq(stores.active, true));
  const zones = zoneRows
    .map((row) => row.zone)
    .filter(isValidTimeZone)
    .map((zone) => sql`(${zone}::text, ${dayInZone(now, zone)}::date)`);
  if (zones.length === 0) return [];
  const retryBefore = new Date(now.getTime() - retryAfterMinutes * 60_000);
  const result = (await db.execute(sql`
    select s.id, s.active, s.timezone_name, s.task_generation_hour, s.week_start,
           ${createdMsOf} as created_ms, d.day::date::text as day
      from ${stores} s
      join (values ${sql.join(zones, sql`, `)}) as z(zone, today) on s.timezone_name = z.zone
      cross join lateral (
        select max(r.day) as last from ${taskGenerationRuns} r
         where r.store_id = s.id and r.finished_at is not null and r.day < z.today) l
      cross join lateral generate_series(
        greatest(l.last + 1, z.today - ${catchUpDays}::int)::timestamp,
        (z.today - 1)::timestamp,
        interval '1 day') as d(day)
     where s.active and l.last is not null
       and not exists (
         select 1 from ${taskGenerationRuns} r
          where r.store_id = s.id and r.day = d.day::date
            and (r.finished_at is not null or r.started_at >= ${isoOf(retryBefore)}))
     order by s.id, d.day`)) as unknown as {
    rows: GenerationStoreRow[];
  };
  return result.rows.map(itemOfRow);
}

/**
 * Active stores whose time zone is unknown are never due (their day and hour cannot be read):
 * a type 2 warning says so, once per store and UTC day.
 */
export async function warnInvalidTimeZones(db: Database, now: Date): Promise<number> {
  const zoneRows = await db
    .selectDistinct({ zone: stores.timezone_name })
    .from(stores)
    .where(eq(stores.active, true));
  const invalid = zoneRows.map((row) => row.zone).filter((zone) => !isValidTimeZone(zone));
  if (invalid.length === 0) return 0;
  const day = now.toISOString().slice(0, 10);
  const result = (await db.execute(sql`
    select s.id, s.timezone_name from ${stores} s
     where s.active and s.timezone_name in (${sql.join(
       invalid.map((zone) => sql`${zone}`),
       sql`, `,
     )})
       and not exists (
         select 1 from ${taskGenerationEvents} e
          where e.store_id = s.id and e.type = ${taskGenerationEventTypes.warning}
            and e.details->>'reason' = 'invalid-time-zone' and e.details->>'day' = ${day})`)) as unknown as {
    rows: { id: string; timezone_name: string }[];
  };
  if (result.rows.length === 0) return 0;
  await insertEvents(
    db,
    result.rows.map((row) => ({
      store_id: row.id,
      type: taskGenerationEventTypes.warning,
      message: `Unknown time zone "${row.timezone_name}": no task is generated for this store`,
      details: { day, reason: 'invalid-time-zone', zone: row.timezone_name },
    })),
  );
  return result.rows.length;
}

export type DueRunSummary = {
  /** Store days generated by the pass: the due todays and the missed days caught up. */
  due: number;
  generated: number;
  skipped: number;
  failed: number;
  created: number;
};

/**
 * One pass of the scheduler: the due stores, generated in batches of `storesPerBatch`. A
 * "program starting" event (type 0) opens a pass that has work; a pass with nothing due
 * writes nothing.
 */
export async function generateDueStores(
  db: Database,
  now: Date = new Date(),
  options: Omit<GenerationOptions, 'now' | 'force'> = {},
): Promise<DueRunSummary> {
  await warnInvalidTimeZones(db, now);
  const missed = await findMissedDays(db, now);
  const due = [...missed, ...(await findDueStores(db, now))];
  const summary: DueRunSummary = {
    due: due.length,
    generated: 0,
    skipped: 0,
    failed: 0,
    created: 0,
  };
  if (due.length === 0) return summary;
  await insertEvents(db, [
    {
      store_id: null,
      type: taskGenerationEventTypes.programStarting,
      message: `Task generation starting: ${due.length} store(s) due`,
      details: { stores: due.length, instance: `${hostname()}:${process.pid}` },
    },
  ]);
  const cache: RecurrenceCache = new Map();
  const missedKeys = new Set(missed.map((item) => `${item.store.id}|${item.day}`));
  const caughtUp: NewEvent[] = [];
  for (let offset = 0; offset < due.length; offset += storesPerBatch) {
    const results = await generateItems(
      db,
      due.slice(offset, offset + storesPerBatch),
      { ...options, now },
      cache,
    );
    for (const result of results) {
      summary[result.status] += 1;
      summary.created += result.created;
      if (result.status === 'generated' && missedKeys.has(`${result.storeId}|${result.day}`)) {
        caughtUp.push({
          store_id: result.storeId,
          type: taskGenerationEventTypes.warning,
          message: `Missed day ${result.day} caught up: its tasks were generated late`,
          details: { day: result.day, reason: 'catch-up', created: result.created },
        });
      }
    }
  }
  if (caughtUp.length) await insertEvents(db, caughtUp);
  return summary;
}
