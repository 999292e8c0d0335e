import { z } from 'zod';
import { idSchema } from '../auth/schemas';
import { moduleKeySchema } from '../organisation/schemas';
import { alertEpisodeSchema } from '../probes/alerts';
import { taskModuleSchema, taskSchema, taskStatusSchema } from '../tasks/schemas';
import {
  anomalyReasons,
  equipmentStates,
  historyFilters,
  historyMaxPageSize,
  historyPageSize,
} from './constants';

/*
 * History, task detail, exports and the home dashboard (spec 002 §2, §4, §5, §7; spec 000 §2).
 *
 * History:       GET  /api/history/stores?search=           stores offered by the history search
 *                GET  /api/stores/:storeId/history?start&end&module&filter
 * Task detail:   GET  /api/tasks/:id                         with the result's revisions
 * Exports:       POST /api/pdf/tasks {storeId, start, end, filter, lang?}   application/pdf
 *                POST /api/csv/tasks {storeId, start, end, filter, lang?}   text/csv, a row per result line
 *                POST /api/archive/tasks {storeId, start, end}             the range's tasks as JSON
 * Home:          GET  /api/stores/:storeId/home              score, today's tasks, equipment
 *                GET  /api/home/best-stores?databaseId=      top 5 stores by score
 * Live updates:  GET  /api/stores/:storeId/events            server-sent events ("task")
 *
 * Ranges are the store's calendar days (YYYY-MM-DD), both included, at most 31 days.
 */

export const historyFilterSchema = z.enum(historyFilters);
export const anomalyReasonSchema = z.enum(anomalyReasons);
export const equipmentStateSchema = z.enum(equipmentStates);

const day = z.iso.date();

/* ---------- History ---------- */

export const historyStoresQuerySchema = z.strictObject({
  search: z.string().trim().max(100).optional(),
});
/** A store the history search offers: active, licensed, and for managers with store access. */
export const historyStoreSchema = z.object({
  id: idSchema,
  name: z.string(),
  address: z.string(),
  city: z.string(),
  database_name: z.string().nullable(),
  timezone_name: z.string(),
  /** The store's and its database's hidden modules together: their tabs are hidden. */
  hidden_modules: z.array(moduleKeySchema),
});
export type HistoryStore = z.infer<typeof historyStoreSchema>;
export const historyStoresResponseSchema = z.object({ items: z.array(historyStoreSchema) });

export const historyQuerySchema = z.strictObject({
  start: day,
  end: day,
  module: taskModuleSchema,
  filter: historyFilterSchema.default('completed'),
  /** Words that must all appear in the task name, employee, elements, actions or comments. */
  search: z.string().trim().max(100).optional(),
  /** Tasks per page, newest first (default 100). */
  limit: z.coerce.number().int().min(1).max(historyMaxPageSize).default(historyPageSize),
  /** `next_cursor` of the previous page. */
  cursor: z.string().max(200).optional(),
});
export type HistoryQuery = z.infer<typeof historyQuerySchema>;

/** A task as history shows it: its status, its anomalies and, when postponed, where it went. */
export const historyTaskSchema = taskSchema.extend({
  anomalies: z.array(anomalyReasonSchema),
  is_anomaly: z.boolean(),
  /** A postponed task: the copy's start and end (ISO instants). */
  postponed_to: z.object({ start: z.string(), end: z.string() }).nullable(),
});
export type HistoryTask = z.infer<typeof historyTaskSchema>;
export const historyResponseSchema = z.object({
  store: historyStoreSchema,
  start: day,
  end: day,
  module: taskModuleSchema,
  filter: historyFilterSchema,
  items: z.array(historyTaskSchema),
  /** Null on the last page. */
  next_cursor: z.string().nullable(),
});
export type HistoryResponse = z.infer<typeof historyResponseSchema>;

/* ---------- Exports (spec 002 §7) ---------- */

export const exportLanguageSchema = z.enum(['fr', 'en', 'de', 'pl']);
export const historyExportBodySchema = z.strictObject({
  storeId: idSchema,
  start: day,
  end: day,
  filter: historyFilterSchema.default('completed'),
  /** Language of the document (default English). */
  lang: exportLanguageSchema.optional(),
});
export type HistoryExportBody = z.infer<typeof historyExportBodySchema>;

export const archiveBodySchema = z.strictObject({
  storeId: idSchema,
  start: day,
  end: day,
});

/* ---------- Probe records of the period (issue 15) ---------- */

/*
 * GET /api/stores/:storeId/history/probes?start&end: the store's alert episodes that overlap
 * the period (newest first) and, per store element bound to one of its probes, the probe's
 * readings summarised per calendar day of the store (lowest, highest, last, count).
 */
export const historyProbesQuerySchema = z.strictObject({ start: day, end: day });

/** One store day of a bound probe's readings. */
export const probeDaySchema = z.object({
  day,
  /** Lowest and highest reading of the day, °C. */
  minimum: z.number(),
  maximum: z.number(),
  /** The day's last reading and its instant. */
  last_temperature: z.number(),
  last_reading_at: z.string(),
  readings: z.number().int(),
});
export type ProbeDay = z.infer<typeof probeDaySchema>;

/** A store element bound to one of the store's probes, with its days of the period. */
export const probeElementSchema = z.object({
  element_id: idSchema,
  /** The database element it overrides: a task's snapshot may name either id. */
  origin_id: idSchema.nullable(),
  name: z.string(),
  probe_uid: z.string(),
  probe_name: z.string(),
  /** The element's effective bounds, °C (a day beyond them is out of range). */
  minimum_temperature: z.number().nullable(),
  maximum_temperature: z.number().nullable(),
  /** Days with at least one reading, oldest first. */
  days: z.array(probeDaySchema),
});
export type ProbeElement = z.infer<typeof probeElementSchema>;

export const historyProbesResponseSchema = z.object({
  store_id: idSchema,
  start: day,
  end: day,
  alerts: z.array(alertEpisodeSchema),
  elements: z.array(probeElementSchema),
});
export type HistoryProbes = z.infer<typeof historyProbesResponseSchema>;

/* ---------- Task detail (spec 002 §2) ---------- */

export const taskRevisionSchema = z.object({
  revision: z.number().int(),
  kind: z.enum(['result', 'postpone']),
  /** The employee who wrote it on the tablet. */
  author: z.object({ name: z.string(), surname: z.string() }).nullable(),
  created_at: z.string(),
  /** Why a completed result was corrected (required for corrections). */
  reason: z.string().nullable(),
  result: z.unknown().nullable(),
});
export type TaskRevision = z.infer<typeof taskRevisionSchema>;

export const taskDetailSchema = historyTaskSchema.extend({
  store_name: z.string(),
  timezone_name: z.string(),
  /** Start plus duration (ISO instant). */
  expected_at: z.string(),
  revisions: z.array(taskRevisionSchema),
});
export type TaskDetail = z.infer<typeof taskDetailSchema>;
export const taskDetailResponseSchema = z.object({ task: taskDetailSchema });

export const archiveResponseSchema = z.object({
  store: z.object({ id: idSchema, name: z.string(), timezone_name: z.string() }),
  start: day,
  end: day,
  generated_at: z.string(),
  items: z.array(taskDetailSchema.omit({ store_name: true, timezone_name: true })),
});

/* ---------- Home (spec 000 §2) ---------- */

export const scoreCountsSchema = z.object({
  onTime: z.number().int(),
  onTimeWithAnomaly: z.number().int(),
  late: z.number().int(),
  lateWithAnomaly: z.number().int(),
  missed: z.number().int(),
});
export const storeScoreSchema = z.object({
  /** Out of 100; null when no task was due in the window. */
  value: z.number().int().nullable(),
  counts: scoreCountsSchema,
  window_start: day,
  window_end: day,
});
export type StoreScore = z.infer<typeof storeScoreSchema>;

export const homeTaskSchema = z.object({
  id: idSchema,
  name: z.string(),
  module: taskModuleSchema,
  start: z.string(),
  duration: z.number().int(),
  status: taskStatusSchema,
  completed_timestamp: z.string().nullable(),
  employee: z.object({ name: z.string(), surname: z.string() }).nullable(),
});
export type HomeTask = z.infer<typeof homeTaskSchema>;

export const equipmentReadingSchema = z.object({
  id: idSchema,
  name: z.string(),
  state: equipmentStateSchema,
  /** Today's last reading, °C. */
  last_temperature: z.number().nullable(),
  last_reading_at: z.string().nullable(),
  /**
   * The store probe the element is bound to (issue 15), with its last reading and its state
   * against the element's bounds (in range, out of range, not working: 2 h without reading).
   */
  probe: z
    .object({
      probe_uid: z.string(),
      name: z.string(),
      last_temperature: z.number().nullable(),
      last_reading_at: z.string().nullable(),
      state: z.enum(['in-range', 'out-of-range', 'not-working']),
    })
    .nullable(),
  /** Today's anomaly: a manual reading out of range, or the probe out of range or not working. */
  has_anomaly: z.boolean(),
});
export type EquipmentReading = z.infer<typeof equipmentReadingSchema>;
export const oilStateSchema = z.object({
  id: idSchema,
  name: z.string(),
  temperature: z.number().nullable(),
  /** Polar compounds, percent. */
  polarity: z.number().nullable(),
  last_reading_at: z.string().nullable(),
  last_change_at: z.string().nullable(),
});
export type OilState = z.infer<typeof oilStateSchema>;

export const storeHomeSchema = z.object({
  store: z.object({ id: idSchema, name: z.string(), timezone_name: z.string() }),
  today: day,
  score: storeScoreSchema,
  /** Today's tasks by tab; null for managers (the panel is hidden for them). */
  tasks: z
    .object({
      completed: z.array(homeTaskSchema),
      late: z.array(homeTaskSchema),
      pending: z.array(homeTaskSchema),
    })
    .nullable(),
  /** Null for managers (hidden for them). */
  equipment: z
    .object({
      fridges: z.array(equipmentReadingSchema),
      delivery: z.array(equipmentReadingSchema),
      oils: z.array(oilStateSchema),
    })
    .nullable(),
  hidden_modules: z.array(moduleKeySchema),
});
export type StoreHome = z.infer<typeof storeHomeSchema>;

export const bestStoresQuerySchema = z.strictObject({ databaseId: idSchema.optional() });
export const bestStoreSchema = z.object({
  id: idSchema,
  name: z.string(),
  city: z.string(),
  score: z.number().int(),
});
export type BestStore = z.infer<typeof bestStoreSchema>;
export const bestStoresResponseSchema = z.object({ items: z.array(bestStoreSchema) });

/* ---------- Live updates ---------- */

/** The data of a "task" server-sent event: a task of the store changed on a tablet. */
export const taskEventSchema = z.object({
  store_id: idSchema,
  task_id: idSchema,
  kind: z.enum(['completed', 'corrected', 'postponed']),
});
export type TaskEvent = z.infer<typeof taskEventSchema>;
