import { z } from 'zod';
import { idSchema } from '../auth/schemas';
import { fieldStateSchema } from '../catalogue/schemas';
import { legacyModuleKey } from '../organisation/constants';
import { moduleKeySchema } from '../organisation/schemas';
import {
  configurationModules,
  earliestTaskDay,
  latestTaskDay,
  maxActionsPerConfiguration,
  maxElementsPerConfiguration,
  maxSchedulesPerConfiguration,
  minutesPerDay,
  taskConfigurationFieldKeys,
  taskModules,
  taskStatuses,
  taskWindowStates,
} from './constants';
import { isValidTaskDay } from './rules';

/*
 * Tasks API contract (spec 001 §2.6, §3.6, §3.7; spec 002 §3, §4).
 *
 * Task types:      GET/POST /api/databases/:databaseId/taskTypes, GET/POST /api/stores/:storeId/taskTypes,
 *                  PATCH /api/taskTypes/:id
 * Configurations:  GET/POST /api/databases/:databaseId/taskConfigurations, GET/PATCH
 *                  /api/taskConfigurations/:id, POST /api/taskConfigurations/:id/duplicate;
 *                  GET/POST /api/stores/:storeId/taskConfigurations,
 *                  GET /api/stores/:storeId/taskConfigurations/origin/:originId,
 *                  GET/PATCH /api/storeTaskConfigurations/:id, POST .../duplicate
 * Store's tasks:   GET /api/stores/:storeId/tasks?day=YYYY-MM-DD (back-office, with status)
 * Generation:      POST /api/task_generation/search {start, end, storeId} (admin),
 *                  POST /api/task_generation/run {storeId, day?} (admin: generate now)
 * Device (Bearer device token; employee actions also send `x-employee-token`):
 *                  GET /api/device/employees, POST /api/device/employees/:id/authenticate,
 *                  GET /api/device/tasks?day=, POST /api/device/tasks/:id/result,
 *                  POST /api/device/tasks/:id/postpone, POST /api/device/pictures (multipart);
 *                  context, elements, unscheduled tasks (POST /api/device/tasks) and
 *                  back-office links: ../device/schemas.ts
 */

export const configurationModuleSchema = z.enum(configurationModules);
/** A task configuration's module as sent: the legacy 'cleaning' is 'actions' (spec 000 §3). */
export const configurationModuleInputSchema = z.preprocess(
  legacyModuleKey,
  configurationModuleSchema,
);
export const taskModuleSchema = z.enum(taskModules);
export const taskStatusSchema = z.enum(taskStatuses);
export const taskConfigurationFieldKeySchema = z.enum(taskConfigurationFieldKeys);

const minute = z.number().int().min(0).max(minutesPerDay);
const hexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/);

/* ---------- Task types (spec 001 §3.7) ---------- */

export const taskTypeSchema = z.object({
  id: idSchema,
  name: z.string(),
  color: z.string(),
  store_side: z.boolean(),
  database_id: idSchema.nullable(),
  store_id: idSchema.nullable(),
});
export type TaskType = z.infer<typeof taskTypeSchema>;
export const listTaskTypesResponseSchema = z.object({ items: z.array(taskTypeSchema) });
export const taskTypeResponseSchema = z.object({ type: taskTypeSchema });
/** Name must not be blank ('task-type/invalid-name'); colour defaults to #454eff. */
export const createTaskTypeBodySchema = z.strictObject({
  name: z.string().trim().max(120),
  color: hexColor.optional(),
});
export const updateTaskTypeBodySchema = z.strictObject({
  name: z.string().trim().max(120).optional(),
  color: hexColor.optional(),
});

/* ---------- Configuration by module (spec 001 §3.6) ---------- */

/**
 * Element references: at database level, database element ids; at store level, a database
 * element id (the store's view of it) or a store element id.
 */
export const temperaturesConfigurationSchema = z.strictObject({
  temperature_elements: z.array(idSchema).max(maxElementsPerConfiguration),
  is_delivery: z.boolean(),
  automatic: z.boolean(),
});
export const oilsConfigurationSchema = z.strictObject({
  oil_elements: z.array(idSchema).max(maxElementsPerConfiguration),
});
export const actionSchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  requires_picture: z.boolean(),
  /** Storage keys of reference pictures/documents uploaded for the action. */
  attachments: z
    .array(z.strictObject({ name: z.string().max(120), path: z.string().max(500) }))
    .max(10),
});
export const actionsConfigurationSchema = z.strictObject({
  actions: z.array(actionSchema).max(maxActionsPerConfiguration),
});
export const taskConfigurationContentSchema = z.union([
  temperaturesConfigurationSchema,
  oilsConfigurationSchema,
  actionsConfigurationSchema,
]);
export type TaskConfigurationContent = z.infer<typeof taskConfigurationContentSchema>;

/* ---------- Task configurations ---------- */

export const taskConfigurationValuesSchema = z.object({
  name: z.string(),
  description: z.string(),
  type_id: idSchema.nullable(),
  active: z.boolean(),
  /** rrule string (RFC 5545 RRULE part), default daily interval 1. */
  recurrence: z.string(),
  /** Minutes from local midnight (the store's time zone), one per schedule window. */
  starts: z.array(z.number().int()),
  /** Minutes, one per start. */
  durations: z.array(z.number().int()),
  requires_manager: z.boolean(),
  notify_late: z.boolean(),
  configuration: taskConfigurationContentSchema,
});
export type TaskConfigurationValues = z.infer<typeof taskConfigurationValuesSchema>;

export const taskConfigurationSchema = taskConfigurationValuesSchema.extend({
  id: idSchema.nullable(),
  level: z.enum(['database', 'store']),
  database_id: idSchema.nullable(),
  store_id: idSchema.nullable(),
  origin_id: idSchema.nullable(),
  /** Store level: the row exists in the store (spec existRemote). */
  is_remote: z.boolean(),
  module: configurationModuleSchema,
  type_name: z.string().nullable(),
  type_color: z.string().nullable(),
  locks: z.record(taskConfigurationFieldKeySchema, z.boolean()),
  field_states: z.record(taskConfigurationFieldKeySchema, fieldStateSchema),
  /** Names of the referenced elements as the level sees them (for display), by id. */
  element_names: z.record(z.string(), z.string()),
  hidden_modules: z.array(moduleKeySchema),
  editable: z.boolean(),
  version: z.number().int(),
  updated_at: z.string(),
});
export type TaskConfiguration = z.infer<typeof taskConfigurationSchema>;
export const taskConfigurationResponseSchema = z.object({ configuration: taskConfigurationSchema });

export const taskConfigurationListItemSchema = z.object({
  key: z.string(),
  id: idSchema.nullable(),
  origin_id: idSchema.nullable(),
  is_remote: z.boolean(),
  name: z.string(),
  module: configurationModuleSchema,
  active: z.boolean(),
  type_id: idSchema.nullable(),
  type_name: z.string().nullable(),
  type_color: z.string().nullable(),
  recurrence: z.string(),
  starts: z.array(z.number().int()),
  durations: z.array(z.number().int()),
  requires_manager: z.boolean(),
  /** Number of elements (temperatures, oils) or sub-tasks (actions). */
  item_count: z.number().int(),
});
export type TaskConfigurationListItem = z.infer<typeof taskConfigurationListItemSchema>;
export const listTaskConfigurationsQuerySchema = z.strictObject({
  search: z.string().trim().max(100).optional(),
  includeInactive: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true'),
});
export const listTaskConfigurationsResponseSchema = z.object({
  items: z.array(taskConfigurationListItemSchema),
});

/**
 * Writable fields. Checks, in order: name required ('task-configuration/invalid-name'),
 * module required on create ('task-configuration.select-module'), the configuration must
 * match the module, an Action configuration needs one action ('task-action-required'),
 * every schedule window coherent ('schedule-incoherent'), the recurrence one the editor
 * writes ('task-configuration/invalid-recurrence'), element ids visible at that level
 * ('task-configuration/unknown-element'), type id of that level ('task-configuration/unknown-type').
 * At store level null returns a field to the origin's value; a locked field → 403
 * 'task-configuration/field-locked'.
 */
export const taskConfigurationInputSchema = z.strictObject({
  name: z.string().trim().max(200).optional(),
  description: z.string().max(5000).nullable().optional(),
  type_id: idSchema.nullable().optional(),
  active: z.boolean().nullable().optional(),
  recurrence: z.string().max(200).nullable().optional(),
  /** Schedule windows; stored as starts and durations. */
  schedules: z
    .array(z.strictObject({ start: minute, end: minute }))
    .max(maxSchedulesPerConfiguration)
    .nullable()
    .optional(),
  requires_manager: z.boolean().nullable().optional(),
  notify_late: z.boolean().nullable().optional(),
  configuration: taskConfigurationContentSchema.nullable().optional(),
});
export const createDatabaseTaskConfigurationBodySchema = taskConfigurationInputSchema.extend({
  module: configurationModuleInputSchema.optional(),
  locks: z.partialRecord(taskConfigurationFieldKeySchema, z.boolean()).optional(),
});
export const createStoreTaskConfigurationBodySchema = taskConfigurationInputSchema.extend({
  module: configurationModuleInputSchema.optional(),
  origin_id: idSchema.optional(),
});
export const updateTaskConfigurationBodySchema = taskConfigurationInputSchema.extend({
  version: z.number().int().min(0),
  locks: z.partialRecord(taskConfigurationFieldKeySchema, z.boolean()).optional(),
});
export type TaskConfigurationInput = z.infer<typeof taskConfigurationInputSchema>;
export type UpdateTaskConfigurationBody = z.infer<typeof updateTaskConfigurationBodySchema>;

/* ---------- Tasks (spec 002 §3) ---------- */

/** A picture stored through POST /api/device/pictures: its storage key and when it was taken. */
export const pictureSchema = z.strictObject({
  path: z.string().min(1).max(500),
  timestamp: z.number().int(),
  details: z.string().max(500).optional(),
});

const temperatureValue = z.number().min(-273).max(1000).nullable();
const seconds = z.number().int().min(0);

export const temperaturesResultSchema = z.strictObject({
  entries: z.array(
    z.strictObject({
      element: idSchema,
      temperature: temperatureValue,
      first_temperature: temperatureValue,
      control_temperature: temperatureValue,
      comment: z.string().max(2000).default(''),
      pictures: z.array(pictureSchema).max(10).default([]),
      timestamp: seconds,
    }),
  ),
});
export const traceabilityResultSchema = z.strictObject({
  entries: z.array(z.strictObject({ element: idSchema, pictures: z.array(pictureSchema).max(20) })),
});
export const actionsResultSchema = z.strictObject({
  entries: z.array(
    z.strictObject({
      /** Position of the action in the task's actions. */
      index: z.number().int().min(0),
      action: z.string().max(200),
      done: z.boolean(),
      requires_picture: z.boolean(),
      picture: pictureSchema.nullable().default(null),
    }),
  ),
});
export const oilsResultSchema = z.strictObject({
  entries: z.array(
    z.strictObject({
      element: idSchema,
      cleaned: z.boolean(),
      oil_changed: z.boolean(),
      oil_filtered: z.boolean(),
      filter_changed: z.boolean(),
      polarity: z.number().min(0).max(100).nullable(),
      temperature: temperatureValue,
      pictures: z.array(pictureSchema).max(10).default([]),
    }),
  ),
});
const temperatureControlEntryFields = {
  element: idSchema,
  mode: z.enum(['cooling', 'reheating']),
  target_temperature: temperatureValue,
  start_temperature: temperatureValue,
  start_timestamp: seconds.nullable(),
  end_temperature: temperatureValue,
  end_timestamp: seconds.nullable(),
  comment: z.string().max(2000).default(''),
};
/**
 * A temperature control as the tablet sends it, in one or two steps: an entry with a start
 * and no end (`end_timestamp` null) records the start; a later write adds the end (the
 * recorded start is sent unchanged). The tablet never names the employees: the server takes
 * them from the employee token of each step.
 */
export const temperatureControlInputSchema = z.strictObject({
  entries: z.array(z.strictObject(temperatureControlEntryFields)),
});
/** The employee who started or ended a temperature control (spec 002 §3), set by the server. */
export const controlEmployeeSchema = z.object({
  id: idSchema,
  name: z.string(),
  surname: z.string(),
});
/**
 * A recorded temperature control result (spec 002 §3): the tablet's entry plus
 * `start_employee` (who recorded the start) and `end_employee` (who recorded the end), null
 * while that step is not recorded (and on records written before they existed).
 */
export const temperatureControlResultSchema = z.strictObject({
  entries: z.array(
    z.strictObject({
      ...temperatureControlEntryFields,
      start_employee: controlEmployeeSchema.nullable().default(null),
      end_employee: controlEmployeeSchema.nullable().default(null),
    }),
  ),
});
/** A result as a tablet sends it (POST /api/device/tasks/:id/result). */
export const taskResultSchema = z.union([
  temperaturesResultSchema,
  traceabilityResultSchema,
  actionsResultSchema,
  oilsResultSchema,
  temperatureControlInputSchema,
]);

/** What a task needs from its elements, copied when it is generated (the record stays true). */
export const taskElementSchema = z.object({
  id: idSchema,
  name: z.string(),
  minimum_temperature: z.number().nullable(),
  maximum_temperature: z.number().nullable(),
  maximum_polarity: z.number().nullable(),
  reheating_temperature: z.number().nullable(),
  cooling_temperature: z.number().nullable(),
});

export const taskSchema = z.object({
  id: idSchema,
  store_id: idSchema,
  name: z.string(),
  module: taskModuleSchema,
  type_name: z.string().nullable(),
  type_color: z.string().nullable(),
  /** ISO instant; `day` is the store's calendar day it was generated for. */
  start: z.string(),
  day: z.string(),
  duration: z.number().int(),
  requires_manager: z.boolean(),
  notify_late: z.boolean(),
  elements: z.array(taskElementSchema),
  actions: z.array(
    z.object({
      name: z.string(),
      requires_picture: z.boolean(),
      /** The action's reference files (spec 001 §3.6), read at /api/files/<path>. */
      attachments: z.array(z.object({ name: z.string(), path: z.string() })).optional(),
    }),
  ),
  configuration_id: idSchema.nullable(),
  store_configuration_id: idSchema.nullable(),
  completed_timestamp: z.string().nullable(),
  completed_employee: idSchema.nullable(),
  employee: z.object({ name: z.string(), surname: z.string() }).nullable(),
  result: z.unknown().nullable(),
  revision: z.number().int(),
  postponed_task: idSchema.nullable(),
  original_task: idSchema.nullable(),
  status: taskStatusSchema,
});
export type Task = z.infer<typeof taskSchema>;
/**
 * A store's calendar day in a query or body: an existing YYYY-MM-DD between 2000-01-01 and
 * 2099-12-31 (400 'validation/invalid-input' otherwise, never a database error).
 */
export const taskDaySchema = z.iso
  .date()
  .refine(isValidTaskDay, { message: `A day between ${earliestTaskDay} and ${latestTaskDay}.` });
export const dayQuerySchema = z.strictObject({
  day: taskDaySchema.optional(),
});
export const listTasksResponseSchema = z.object({ day: z.string(), items: z.array(taskSchema) });

/**
 * A task as the tablet gets it: with its completion window (`taskWindow` in rules.ts, the
 * rule the server's writes apply). `opens_at` is the start less the tolerance
 * (taskOpeningToleranceMinutes), `closes_at` the end of the task's store day (excluded);
 * `window` is where `now` stands: not_open_yet, open (results, corrections and postponing
 * are accepted) or closed.
 */
export const deviceTaskSchema = taskSchema.extend({
  opens_at: z.string(),
  closes_at: z.string(),
  window: z.enum(taskWindowStates),
});
export type DeviceTask = z.infer<typeof deviceTaskSchema>;
export const listDeviceTasksResponseSchema = z.object({
  day: z.string(),
  items: z.array(deviceTaskSchema),
});
export const deviceTaskResponseSchema = z.object({ task: deviceTaskSchema });

/** POST /api/device/tasks/:id/result — a retry with the same key is applied once. */
export const submitResultBodySchema = z.strictObject({
  idempotency_key: z.string().min(8).max(100),
  result: taskResultSchema,
  /**
   * When the employee finished, as the tablet saw it: kept on the revision only
   * (reported_timestamp). The task's completion time is the server's now at the first
   * completion; corrections never change it.
   */
  completed_timestamp: z.iso.datetime({ offset: true }).optional(),
  /** Required to correct a task that is already completed: a new revision is written. */
  reason: z.string().trim().min(1).max(500).optional(),
});
export const postponeBodySchema = z.strictObject({
  idempotency_key: z.string().min(8).max(100),
  /** New start, ISO instant, later than now. */
  start: z.iso.datetime({ offset: true }),
});

/* ---------- Task generation (spec 002 §3, admin screen) ---------- */

export const taskGenerationSearchBodySchema = z.strictObject({
  start: z.iso.datetime({ offset: true }),
  end: z.iso.datetime({ offset: true }),
  storeId: idSchema.nullable().optional(),
});
/**
 * GET /api/databases/:databaseId/taskConfigurations/elements?module= and
 * /api/stores/:storeId/taskConfigurations/elements?module=: the elements a Temperatures or Oils
 * configuration may reference there (active, the module active), one per element under the id
 * to send (a store override is referenced by its database element's id).
 */
export const taskElementChoicesQuerySchema = z.strictObject({
  module: z.enum(['temperatures', 'oils']),
});
export const taskElementChoiceSchema = z.object({
  id: idSchema,
  name: z.string(),
  is_delivery_item: z.boolean(),
});
export type TaskElementChoice = z.infer<typeof taskElementChoiceSchema>;
export const taskElementChoicesResponseSchema = z.object({
  items: z.array(taskElementChoiceSchema),
});

export const taskGenerationEventSchema = z.object({
  id: idSchema,
  type: z.number().int().min(0).max(4),
  store_id: idSchema.nullable(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).nullable(),
  timestamp: z.string(),
});
export const taskGenerationSearchResponseSchema = z.object({
  items: z.array(taskGenerationEventSchema),
  /** True when more events matched than the 1000 answered (narrow the range). */
  truncated: z.boolean().optional(),
});
export const taskGenerationRunBodySchema = z.strictObject({
  storeId: idSchema,
  day: taskDaySchema.optional(),
});
export const taskGenerationRunResponseSchema = z.object({
  day: z.string(),
  created: z.number().int(),
});

/* ---------- Device: employees (spec 000 §3, §5) ---------- */

export const deviceEmployeeSchema = z.object({
  id: idSchema,
  name: z.string(),
  surname: z.string(),
  role_id: idSchema.nullable(),
  illustration_url: z.string().nullable(),
  /** true: a 4-digit PIN; false: a pattern. */
  using_password: z.boolean(),
  has_secret: z.boolean(),
});
export const listDeviceEmployeesResponseSchema = z.object({
  items: z.array(deviceEmployeeSchema),
});
export const authenticateEmployeeBodySchema = z.union([
  z.strictObject({ pin: z.string().max(10) }),
  z.strictObject({ pattern: z.array(z.number().int()).max(9) }),
]);
export const authenticateEmployeeResponseSchema = z.object({
  status: z.literal('ok'),
  employee: deviceEmployeeSchema,
  /** Sent back as `x-employee-token` with the employee's actions; valid 12 hours on this device. */
  employee_token: z.string(),
  expires_at: z.string(),
});
export const pictureUploadResponseSchema = z.object({ path: z.string(), url: z.string() });
