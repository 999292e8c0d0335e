import { z } from 'zod';
import { idSchema } from '../auth/schemas';
import { attachmentTypes } from '../catalogue/constants';
import { allergenKeySchema, labelTypeSchema } from '../catalogue/schemas';
import { deviceSchema, extensionKeySchema, moduleKeySchema } from '../organisation/schemas';
import { featureKeySchema } from '../people/schemas';
import {
  deviceTaskSchema,
  temperatureControlInputSchema,
  traceabilityResultSchema,
} from '../tasks/schemas';

/*
 * What a paired tablet reads and creates beyond its day's tasks (issue 14). Every route takes
 * the device token (Bearer); writes by an employee also take `x-employee-token`.
 *
 *   GET  /api/device/context           the store, its database's screen saver and roles, the device
 *   GET  /api/device/elements          the store's active elements with labels and attachments
 *   POST /api/device/tasks             an unscheduled task (traceability, temperature control)
 *                                      created with its first result
 *   POST /api/device/back-office-link  a short-lived sign-in link for the device's linked user
 */

/* ---------- GET /api/device/context ---------- */

export const deviceContextSchema = z.object({
  store: z.object({
    id: idSchema,
    name: z.string(),
    timezone_name: z.string(),
    /** 0 Sunday … 6 Saturday, as the store's calendar starts its week. */
    week_start: z.number().int(),
    /** The store's own hidden modules together with its database's (spec 000 §3). */
    hidden_modules: z.array(moduleKeySchema),
    /** The store's own hidden extensions together with its database's. */
    hidden_extensions: z.array(extensionKeySchema),
  }),
  /** The database's screen-saver image (a URL the tablet loads with its device token), or null. */
  screen_saver_url: z.string().nullable(),
  /** The active employee roles of the store's database (spec 001 §3.10). */
  roles: z.array(
    z.object({
      id: idSchema,
      name: z.string(),
      features_permissions: z.partialRecord(featureKeySchema, z.boolean()),
    }),
  ),
  device: deviceSchema,
  /** The server's clock, ISO: the tablet measures its own clock's drift from it. */
  server_time: z.string(),
});
export type DeviceContext = z.infer<typeof deviceContextSchema>;

/* ---------- GET /api/device/elements ---------- */

export const deviceLabelSchema = z.object({
  /** The store's label row when it has one, else the database label it inherits. */
  id: idSchema,
  name: z.string(),
  type: labelTypeSchema,
  index: z.number().int(),
  /** Hours. */
  expiration_duration: z.number().int(),
  /** Hours. */
  defrosting_duration: z.number().int(),
  expiration_text: z.string().nullable(),
  cumulate_expiration_duration: z.boolean(),
  show_expiration_hour: z.boolean(),
  show_expiration_weekday: z.boolean(),
});
export type DeviceLabel = z.infer<typeof deviceLabelSchema>;

export const deviceAttachmentSchema = z.object({
  name: z.string(),
  type: z.enum(attachmentTypes),
  /** GET with the device token (`/api/files/...`), or a public URL. */
  url: z.string(),
});

/**
 * An element as the tablet uses it: its effective values as the store sees them (store
 * override over database element, the back-office's inheritance and locks). `id` is the id
 * tasks and results use for it: a database element's id (overridden by the store or not), or
 * the store's own element's id.
 */
export const deviceElementSchema = z.object({
  id: idSchema,
  name: z.string(),
  type_name: z.string().nullable(),
  illustration_url: z.string().nullable(),
  modules: z.object({
    temperatures: z.boolean(),
    labels: z.boolean(),
    traceability: z.boolean(),
    oils: z.boolean(),
    temperature_control: z.boolean(),
    encyclopedia: z.boolean(),
    /** Shown on a secondary screen (mise_display_active). */
    display_active: z.boolean(),
  }),
  minimum_temperature: z.number().nullable(),
  maximum_temperature: z.number().nullable(),
  temperature_require_picture: z.boolean(),
  temperature_picture: z.boolean(),
  maximum_polarity: z.number().nullable(),
  oils_require_picture: z.boolean(),
  reheating_temperature: z.number().nullable(),
  /** Minutes. */
  reheating_duration: z.number().int().nullable(),
  cooling_temperature: z.number().nullable(),
  /** Minutes. */
  cooling_duration: z.number().int().nullable(),
  allergens: z.array(allergenKeySchema),
  attachments: z.array(deviceAttachmentSchema),
  /** Active labels, by index. */
  labels: z.array(deviceLabelSchema),
});
export type DeviceElement = z.infer<typeof deviceElementSchema>;
export const listDeviceElementsResponseSchema = z.object({
  items: z.array(deviceElementSchema),
});

/* ---------- POST /api/device/tasks ---------- */

export const unscheduledTaskModules = ['traceability', 'temperature_control'] as const;
export type UnscheduledTaskModule = (typeof unscheduledTaskModules)[number];

/**
 * Duration (minutes) of an unscheduled traceability task: its window is the time the
 * employee takes to photograph the labels; the record is written at once anyway.
 */
export const unscheduledTraceabilityDurationMinutes = 15;
/** Duration (minutes) of a temperature control whose element gives no duration for the mode. */
export const unscheduledControlDefaultDurationMinutes = 120;

const unscheduledCommon = {
  /** Chosen by the tablet (a UUID), so it can refer to the task before it is sent. */
  id: idSchema,
  idempotency_key: z.string().min(8).max(100),
  /** The element's id as GET /api/device/elements gives it. */
  element: idSchema,
  /** When the employee did it, on the tablet's clock: kept on the revision; with the request's
   * x-sent-at it places a task made offline at the time it was made (lateDeliveryGraceHours). */
  completed_timestamp: z.iso.datetime({ offset: true }).optional(),
};

/**
 * POST /api/device/tasks: an unscheduled task (spec 002 §3: traceability and temperature
 * control are created by the employee when the work happens) and its first result, in one
 * transaction. The result's entries name the body's `element` only.
 */
export const createUnscheduledTaskBodySchema = z.discriminatedUnion('module', [
  z.strictObject({
    ...unscheduledCommon,
    module: z.literal('traceability'),
    result: traceabilityResultSchema,
  }),
  z.strictObject({
    ...unscheduledCommon,
    module: z.literal('temperature_control'),
    result: temperatureControlInputSchema,
  }),
]);
export type CreateUnscheduledTaskBody = z.infer<typeof createUnscheduledTaskBodySchema>;
export const createUnscheduledTaskResponseSchema = z.object({ task: deviceTaskSchema });

/* ---------- POST /api/device/back-office-link ---------- */

export const backOfficePages = ['history', 'documents', 'settings'] as const;
export const backOfficeLinkBodySchema = z.strictObject({ page: z.enum(backOfficePages) });
/**
 * `/?token=<single-use login token, 2 minutes>&page=<route>&store_id=<device's store>`, to
 * open on the same origin (the web's entry rule signs in with the token, tablet mode). The
 * page 'settings' opens the store page (`page=store`).
 */
export const backOfficeLinkResponseSchema = z.object({ url: z.string() });
/** Lifetime of the login token of a back-office link. */
export const backOfficeLinkLifetimeMinutes = 2;
