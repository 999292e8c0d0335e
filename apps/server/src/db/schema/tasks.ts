import type { TaskConfigurationFieldKey } from '@mise/shared/tasks/constants';
import { defaultTaskConfigurationLocks } from '@mise/shared/tasks/constants';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { databases, devices, stores } from './organisation';

const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** Task types (spec 001 §3.7): a database's, or a store's own (store side). */
export const taskTypes = pgTable(
  'task_types',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    database_id: uuid('database_id').references(() => databases.id, { onDelete: 'cascade' }),
    store_id: uuid('store_id').references(() => stores.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    color: text('color').notNull().default('#454eff'),
    ...timestamps,
  },
  (table) => [
    index('task_types_database_idx').on(table.database_id),
    index('task_types_store_idx').on(table.store_id),
    check(
      'task_types_one_owner',
      sql`(${table.database_id} is null) <> (${table.store_id} is null)`,
    ),
  ],
);

/** Configuration content by module (spec 001 §3.6), validated by the shared zod schemas. */
export type ConfigurationContent =
  | { temperature_elements: string[]; is_delivery: boolean; automatic: boolean }
  | { oil_elements: string[] }
  | {
      actions: {
        name: string;
        requires_picture: boolean;
        attachments: { name: string; path: string }[];
      }[];
    };

/** Database task configurations: every field set, with locks (all true by default). */
export const taskConfigurations = pgTable(
  'task_configurations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    database_id: uuid('database_id')
      .notNull()
      .references(() => databases.id, { onDelete: 'cascade' }),
    module: text('module').$type<'temperatures' | 'actions' | 'oils'>().notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    type_id: uuid('type_id').references(() => taskTypes.id, { onDelete: 'set null' }),
    active: boolean('active').notNull().default(true),
    recurrence: text('recurrence').notNull().default('FREQ=DAILY;INTERVAL=1'),
    /** First day the recurrence counts from (intervals above 1). */
    recurrence_anchor: date('recurrence_anchor', { mode: 'string' })
      .notNull()
      .default(sql`current_date`),
    starts: integer('starts').array().notNull().default(sql`'{}'::integer[]`),
    durations: integer('durations').array().notNull().default(sql`'{}'::integer[]`),
    requires_manager: boolean('requires_manager').notNull().default(false),
    notify_late: boolean('notify_late').notNull().default(false),
    configuration: jsonb('configuration').$type<ConfigurationContent>().notNull(),
    locks: jsonb('locks')
      .$type<Record<TaskConfigurationFieldKey, boolean>>()
      .notNull()
      .default(defaultTaskConfigurationLocks),
    version: integer('version').notNull().default(0),
    ...timestamps,
  },
  (table) => [index('task_configurations_database_name_idx').on(table.database_id, table.name)],
);

/**
 * Store task configurations: the same fields, nullable (null follows the origin), with the
 * database configuration they override. A store's own configuration has no origin and sets
 * its module.
 */
export const storeTaskConfigurations = pgTable(
  'store_task_configurations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    store_id: uuid('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    origin_id: uuid('origin_id').references(() => taskConfigurations.id, { onDelete: 'set null' }),
    module: text('module').$type<'temperatures' | 'actions' | 'oils'>(),
    name: text('name'),
    description: text('description'),
    type_id: uuid('type_id').references(() => taskTypes.id, { onDelete: 'set null' }),
    active: boolean('active'),
    recurrence: text('recurrence'),
    recurrence_anchor: date('recurrence_anchor', { mode: 'string' }),
    starts: integer('starts').array(),
    durations: integer('durations').array(),
    requires_manager: boolean('requires_manager'),
    notify_late: boolean('notify_late'),
    configuration: jsonb('configuration').$type<ConfigurationContent>(),
    version: integer('version').notNull().default(0),
    ...timestamps,
  },
  (table) => [
    index('store_task_configurations_store_name_idx').on(table.store_id, table.name),
    uniqueIndex('store_task_configurations_store_origin_idx').on(table.store_id, table.origin_id),
    index('store_task_configurations_origin_idx').on(table.origin_id),
  ],
);

export type TaskElementSnapshot = {
  id: string;
  name: string;
  minimum_temperature: number | null;
  maximum_temperature: number | null;
  maximum_polarity: number | null;
  reheating_temperature: number | null;
  cooling_temperature: number | null;
};

/**
 * Concrete tasks of a store (spec 002 §3). Generated once per (store, configuration, day,
 * schedule start) — `generation_key` is unique per store, so a second generation run, or
 * one on another instance, inserts nothing (ON CONFLICT DO NOTHING). What the task needs
 * from its configuration and elements is copied, so history stays true after later edits.
 * The latest result is on the row; every completion and correction is a revision.
 */
export const tasks = pgTable(
  'tasks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    store_id: uuid('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    database_id: uuid('database_id'),
    configuration_id: uuid('configuration_id'),
    store_configuration_id: uuid('store_configuration_id'),
    generation_key: text('generation_key'),
    day: date('day', { mode: 'string' }).notNull(),
    name: text('name').notNull(),
    module: text('module')
      .$type<'actions' | 'temperatures' | 'traceability' | 'oils' | 'temperature_control'>()
      .notNull(),
    type_name: text('type_name'),
    type_color: text('type_color'),
    start: timestamp('start', { withTimezone: true }).notNull(),
    duration: integer('duration').notNull(),
    requires_manager: boolean('requires_manager').notNull().default(false),
    notify_late: boolean('notify_late').notNull().default(false),
    elements: jsonb('elements').$type<TaskElementSnapshot[]>().notNull().default([]),
    actions: jsonb('actions')
      .$type<
        {
          name: string;
          requires_picture: boolean;
          attachments?: { name: string; path: string }[];
        }[]
      >()
      .notNull()
      .default([]),
    completed_timestamp: timestamp('completed_timestamp', { withTimezone: true }),
    completed_employee: uuid('completed_employee'),
    employee: jsonb('employee').$type<{ name: string; surname: string }>(),
    result: jsonb('result'),
    /**
     * Whether the recorded result has an anomaly (resultAnomalies in packages/shared): decided
     * when the result is written, so history filters and the score read it without parsing
     * results. Null while there is no result (or before the backfill of older rows).
     */
    result_anomaly: boolean('result_anomaly'),
    revision: integer('revision').notNull().default(0),
    postponed_task: uuid('postponed_task'),
    original_task: uuid('original_task'),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('tasks_store_generation_key_idx').on(table.store_id, table.generation_key),
    index('tasks_store_start_idx').on(table.store_id, table.start),
    // A store's days; it also covers the restaurant score's aggregate (index-only scans).
    index('tasks_store_day_score_idx').on(
      table.store_id,
      table.day,
      table.postponed_task,
      table.start,
      table.duration,
      table.completed_timestamp,
      table.result_anomaly,
    ),
    // Results still without their anomaly flag (written before the flag existed): the
    // start-up backfill finds them here; empty once it has run.
    index('tasks_result_anomaly_pending_idx')
      .on(table.id)
      .where(sql`${table.result} is not null and ${table.result_anomaly} is null`),
    // History pages read one module of a store newest first (keyset on start, id).
    index('tasks_store_module_start_idx').on(table.store_id, table.module, table.start, table.id),
  ],
);

/**
 * The restaurant score's counts of a store's calendar day (spec 000 §2, `scoreClassOf` in
 * packages/shared): tasks done on time or late, with or without a result anomaly, and tasks
 * not done; postponed tasks are not counted. Kept by triggers on `tasks` (migration
 * 0011_home_summaries: every insert, update or delete recounts the (store, day) pairs it
 * touched), so the home reads 30 small rows instead of a month of tasks. Every task window
 * ends by the next local midnight, so on a past day "open" tasks are missed ones.
 */
export const storeDayScores = pgTable(
  'store_day_scores',
  {
    store_id: uuid('store_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    on_time: integer('on_time').notNull().default(0),
    on_time_with_anomaly: integer('on_time_with_anomaly').notNull().default(0),
    late: integer('late').notNull().default(0),
    late_with_anomaly: integer('late_with_anomaly').notNull().default(0),
    open: integer('open').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.store_id, table.day] })],
);

/**
 * The fridges and delivery panel of the home (spec 000 §2): per store, calendar day and
 * element of that day's temperature tasks, its name (first task snapshot of the day), how
 * many readings were in and out of the element's range (`readingInRange` in packages/shared,
 * with each task's own bounds) and the last reading. Kept by triggers on `tasks` (migration
 * 0011_home_summaries: a temperature task written, corrected or deleted recounts its
 * store-day), so the home reads a few rows instead of the day's tasks and results.
 */
export const storeDayEquipment = pgTable(
  'store_day_equipment',
  {
    store_id: uuid('store_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    element_id: text('element_id').notNull(),
    name: text('name').notNull(),
    in_range: integer('in_range').notNull().default(0),
    out_of_range: integer('out_of_range').notNull().default(0),
    last_temperature: doublePrecision('last_temperature'),
    last_reading_at: timestamp('last_reading_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.store_id, table.day, table.element_id] })],
);

/**
 * The oils panel of the home (spec 000 §2): per store and oil element, the last reading
 * (temperature, polarity, time, the element's name in that task) and the last oil change.
 * Kept by triggers on `tasks` (migration 0011_home_summaries: an oil task written, corrected
 * or deleted recounts its store's oil elements over the last 90 days).
 */
export const storeOilStates = pgTable(
  'store_oil_states',
  {
    store_id: uuid('store_id').notNull(),
    element_id: text('element_id').notNull(),
    name: text('name'),
    temperature: doublePrecision('temperature'),
    polarity: doublePrecision('polarity'),
    last_reading_at: timestamp('last_reading_at', { withTimezone: true }).notNull(),
    last_change_at: timestamp('last_change_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.store_id, table.element_id] })],
);

/**
 * Every completion or correction of a task (HACCP records are never silently overwritten):
 * who, when, from which device, why. `idempotency_key` makes a retried submission a no-op.
 */
export const taskResultRevisions = pgTable(
  'task_result_revisions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    task_id: uuid('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    store_id: uuid('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    revision: integer('revision').notNull(),
    kind: text('kind').$type<'result' | 'postpone'>().notNull().default('result'),
    result: jsonb('result'),
    completed_timestamp: timestamp('completed_timestamp', { withTimezone: true }),
    /** The completion time the tablet reported (kept as sent, never trusted as the record's time). */
    reported_timestamp: timestamp('reported_timestamp', { withTimezone: true }),
    employee_id: uuid('employee_id'),
    employee: jsonb('employee').$type<{ name: string; surname: string }>(),
    device_id: uuid('device_id'),
    reason: text('reason'),
    idempotency_key: text('idempotency_key').notNull(),
    /** SHA-256 of the request body: the same key with another body is a conflict. */
    request_hash: text('request_hash').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('task_result_revisions_key_idx').on(table.store_id, table.idempotency_key),
    uniqueIndex('task_result_revisions_task_revision_idx').on(table.task_id, table.revision),
    // The records verifier lists a store's revisions of a period (issue 21).
    index('task_result_revisions_store_time_idx').on(table.store_id, table.created_at),
  ],
);

/** Task-generation events (spec 002 §3): 0 start, 1 error, 2 warning, 3 store started, 4 task. */
export const taskGenerationEvents = pgTable(
  'task_generation_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    store_id: uuid('store_id').references(() => stores.id, { onDelete: 'cascade' }),
    type: smallint('type').notNull(),
    message: text('message').notNull().default(''),
    details: jsonb('details').$type<Record<string, unknown>>(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('task_generation_events_store_time_idx').on(table.store_id, table.created_at),
    index('task_generation_events_time_idx').on(table.created_at),
  ],
);

/** One row per store and day generated: claimed with ON CONFLICT DO NOTHING by one instance. */
export const taskGenerationRuns = pgTable(
  'task_generation_runs',
  {
    store_id: uuid('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    started_at: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finished_at: timestamp('finished_at', { withTimezone: true }),
    created: integer('created').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.store_id, table.day] })],
);

/**
 * Employees (spec 000 §3, spec 001 §3.11): tablet users, not dashboard accounts. PIN and
 * pattern are stored hashed. Roles, the back-office screens and punch cards come with the
 * People issue; `role_id` will reference employee roles then.
 */
export const employees = pgTable(
  'employees',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    database_id: uuid('database_id').references(() => databases.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    surname: text('surname').notNull(),
    role_id: uuid('role_id'),
    active: boolean('active').notNull().default(true),
    illustration_url: text('illustration_url'),
    using_password: boolean('using_password').notNull().default(true),
    pin_hash: text('pin_hash'),
    pattern_hash: text('pattern_hash'),
    old_ref: text('old_ref'),
    version: integer('version').notNull().default(0),
    ...timestamps,
  },
  (table) => [index('employees_database_idx').on(table.database_id)],
);

export const employeeStores = pgTable(
  'employee_stores',
  {
    employee_id: uuid('employee_id')
      .notNull()
      .references(() => employees.id, { onDelete: 'cascade' }),
    store_id: uuid('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
  },
  (table) => [
    primaryKey({ columns: [table.employee_id, table.store_id] }),
    index('employee_stores_store_idx').on(table.store_id),
  ],
);

/** Failed PIN/pattern attempts per employee and device, and the lockout they cause. */
export const employeeAuthFailures = pgTable(
  'employee_auth_failures',
  {
    employee_id: uuid('employee_id')
      .notNull()
      .references(() => employees.id, { onDelete: 'cascade' }),
    device_id: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    failures: integer('failures').notNull().default(0),
    locked_until: timestamp('locked_until', { withTimezone: true }),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.employee_id, table.device_id] })],
);

/** An employee identified on a device: the token (hashed) signs that employee's actions. */
export const employeeSessions = pgTable(
  'employee_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    token_hash: text('token_hash').notNull().unique(),
    employee_id: uuid('employee_id')
      .notNull()
      .references(() => employees.id, { onDelete: 'cascade' }),
    device_id: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    store_id: uuid('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('employee_sessions_employee_idx').on(table.employee_id)],
);
