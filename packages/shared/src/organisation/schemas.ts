import { z } from 'zod';
import { idSchema } from '../auth/schemas';
import { escalationMinutesRange } from '../probes/alerts';
import {
  billingCycles,
  europeanCountryCodes,
  extensionKeys,
  legacyModuleKey,
  maximumDevicesRange,
  moduleKeys,
  weekStartRange,
} from './constants';
import { isValidTimezone } from './rules';

const text = (max: number) => z.string().trim().max(max);
const required = (max: number) => z.string().trim().min(1).max(max);
const price = z.number().min(0).max(100_000).multipleOf(0.01);
const versioned = { version: z.number().int().min(0) };
const listQuery = {
  search: z.string().trim().max(100).optional(),
  includeInactive: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true'),
};
export const countrySchema = z.enum(europeanCountryCodes as [string, ...string[]]);
export const timezoneNameSchema = z.string().max(64).refine(isValidTimezone, 'unknown time zone');
export const moduleKeySchema = z.enum(moduleKeys);
/** Hidden modules as sent: 'cleaning' read as 'actions' (spec 000 §3), each key once. */
const hiddenModulesInputSchema = z
  .array(z.preprocess(legacyModuleKey, moduleKeySchema))
  .max(moduleKeys.length)
  .transform((keys) => [...new Set(keys)]);
export const extensionKeySchema = z.enum(extensionKeys);

/* ---------- Distributors (spec 000 §2, §3, §5) ---------- */

export const distributorContactSchema = z.strictObject({
  name: text(100),
  role: text(100).default(''),
  email: text(254).default(''),
  phone: text(40).default(''),
});

export const distributorSummarySchema = z.object({
  id: idSchema,
  name: z.string(),
  active: z.boolean(),
  city: z.string(),
  countries: z.array(z.string()),
  logo: z.string().nullable(),
  store_count: z.number().int(),
  licensed_store_count: z.number().int(),
});
export const distributorSchema = distributorSummarySchema.extend({
  address: z.string(),
  postal_code: z.string(),
  phone: z.string(),
  email: z.string(),
  shop_email: z.string().nullable(),
  billing_cycle: z.number().int(),
  /** Sent to admins only; null for other viewers. */
  licence_price: z.number().nullable(),
  contacts: z.array(distributorContactSchema),
  databases: z.array(idSchema),
  sensor_connected: z.boolean(),
  version: z.number().int(),
});
export type DistributorSummary = z.infer<typeof distributorSummarySchema>;
export type Distributor = z.infer<typeof distributorSchema>;

export const listDistributorsQuerySchema = z.strictObject(listQuery);
export const listDistributorsResponseSchema = z.object({
  items: z.array(distributorSummarySchema),
});
export const distributorResponseSchema = z.object({ distributor: distributorSchema });

/** New distributor: name, address, postal code, city and a country, all required. */
export const createDistributorBodySchema = z.strictObject({
  name: required(120),
  address: required(200),
  postal_code: required(20),
  city: required(100),
  country: countrySchema,
});
export const updateDistributorBodySchema = z.strictObject({
  ...versioned,
  name: required(120).optional(),
  active: z.boolean().optional(),
  address: text(200).optional(),
  postal_code: text(20).optional(),
  city: text(100).optional(),
  phone: text(40).optional(),
  email: z
    .union([z.literal(''), z.string().trim().toLowerCase().max(254).pipe(z.email())])
    .optional(),
  countries: z.array(countrySchema).max(60).optional(),
  billing_cycle: z
    .union(billingCycles.map((cycle) => z.literal(cycle)) as [z.ZodLiteral<1>, z.ZodLiteral<60>])
    .optional(),
  licence_price: price.optional(),
  contacts: z.array(distributorContactSchema).max(50).optional(),
});
export type CreateDistributorBody = z.infer<typeof createDistributorBodySchema>;
export type UpdateDistributorBody = z.infer<typeof updateDistributorBodySchema>;

/* ---------- Databases (spec 001 §2.1, §3.1, §4) ---------- */

export const databaseManagerSchema = z.object({
  id: idSchema,
  name: z.string(),
  surname: z.string(),
  email: z.string(),
});
export const databaseSummarySchema = z.object({
  id: idSchema,
  name: z.string(),
  distributor: idSchema.nullable(),
  distributor_name: z.string().nullable(),
  illustration_url: z.string().nullable(),
  hidden: z.boolean(),
  store_count: z.number().int(),
  /** Extensions the database hides (lists leave out a database whose feature it hides). */
  hidden_extensions: z.array(extensionKeySchema).optional(),
});
export const databaseSchema = databaseSummarySchema.extend({
  store_access: z.boolean(),
  hidden_modules: z.array(moduleKeySchema),
  hidden_extensions: z.array(extensionKeySchema),
  /** mise_licence_price; sent to admins only. */
  licence_price: z.number().nullable(),
  screen_saver_url: z.string().nullable(),
  /** Minutes before an unacknowledged probe alert goes to the next level (issue 15). */
  alert_escalation_minutes: z.number().int(),
  managers: z.array(databaseManagerSchema),
  /** Pending manager invitations (e-mail only); optional in the type for older fixtures. */
  invited_managers: z.array(z.lazy(() => invitedAccountSchema)).optional(),
  stores: z.array(idSchema),
  version: z.number().int(),
});
export type DatabaseSummary = z.infer<typeof databaseSummarySchema>;
export type DatabaseDetail = z.infer<typeof databaseSchema>;

export const listDatabasesQuerySchema = z.strictObject({ search: listQuery.search });
export const listDatabasesResponseSchema = z.object({ items: z.array(databaseSummarySchema) });
export const databaseResponseSchema = z.object({ database: databaseSchema });
export const createDatabaseBodySchema = z.strictObject({
  name: required(120),
  /** Admins choose; a distributor's database is linked to itself. */
  distributorId: idSchema.nullable().optional(),
});
export const updateDatabaseBodySchema = z.strictObject({
  ...versioned,
  name: required(120).optional(),
  /** Set once: only while the database has none. */
  distributorId: idSchema.optional(),
  store_access: z.boolean().optional(),
  hidden: z.boolean().optional(),
  hidden_modules: hiddenModulesInputSchema.optional(),
  hidden_extensions: z.array(extensionKeySchema).max(extensionKeys.length).optional(),
  licence_price: price.nullable().optional(),
  alert_escalation_minutes: z
    .number()
    .int()
    .min(escalationMinutesRange.min)
    .max(escalationMinutesRange.max)
    .optional(),
});
/** POST /api/database/addManager (spec 000 §7). */
export const addManagerBodySchema = z.strictObject({
  email: z.string().trim().toLowerCase().min(1).max(254).pipe(z.email()),
  databaseId: idSchema,
});
/** ok: linked; invited: an account outside the tenant was mailed an invitation to accept. */
export const addManagerResponseSchema = z.object({ status: z.enum(['ok', 'invited']) });
export type CreateDatabaseBody = z.infer<typeof createDatabaseBodySchema>;
export type UpdateDatabaseBody = z.infer<typeof updateDatabaseBodySchema>;

/* ---------- Stores (spec 000 §2, §3, §4, §5) ---------- */

export const storeOwnerSchema = z.object({
  id: idSchema,
  name: z.string(),
  surname: z.string(),
  email: z.string(),
  role: z.string(),
  store_count: z.number().int(),
});
/** An e-mail invited to own a store or manage a database, until its holder accepts. */
export const invitedAccountSchema = z.object({
  email: z.string(),
  status: z.literal('invited'),
  invited_at: z.string(),
});
export type InvitedAccount = z.infer<typeof invitedAccountSchema>;
/** POST /api/stores/:id/invitations/withdraw, /api/databases/:id/invitations/withdraw. */
export const withdrawInvitationBodySchema = z.strictObject({
  email: z.string().trim().toLowerCase().min(1).max(254).pipe(z.email()),
});
export const licenceEventSchema = z.object({ timestamp: z.string(), activated: z.boolean() });

export const storeSummarySchema = z.object({
  id: idSchema,
  name: z.string(),
  address: z.string(),
  postal_code: z.string(),
  city: z.string(),
  country: z.string(),
  active: z.boolean(),
  illustration_url: z.string().nullable(),
  distributor: idSchema.nullable(),
  /** null shows "Unknown distributor." */
  distributor_name: z.string().nullable(),
  database: idSchema.nullable(),
  database_name: z.string().nullable(),
  mise_licence: z.boolean(),
});
export const storeSchema = storeSummarySchema.extend({
  score: z.number().nullable(),
  timezone: z.number(),
  timezone_name: z.string(),
  task_generation_hour: z.number().int(),
  hidden_modules: z.array(moduleKeySchema),
  hidden_extensions: z.array(extensionKeySchema),
  slow_internet_mode: z.boolean(),
  audio_task_reminders: z.boolean(),
  licence_activation_history: z.array(licenceEventSchema),
  manager_owned: z.boolean(),
  maximum_devices: z.number().int(),
  week_start: z.number().int(),
  demonstration_store: z.boolean(),
  /** The store's override; admins only (null otherwise). */
  licence_price: z.number().nullable(),
  /** What the store is billed: override, else database, else distributor, else 19 (admins only). */
  effective_licence_price: z.number().nullable(),
  sensor_sticker_id: z.string().nullable(),
  /** Pairing key for tablets; admins, distributors and owners only. */
  pairing_key: z.string().nullable(),
  owners: z.array(storeOwnerSchema),
  /**
   * Pending owner invitations (e-mail only; nothing of an invited account is disclosed).
   * Always sent, empty for managers; optional in the type only for older clients' fixtures.
   */
  invited_owners: z.array(invitedAccountSchema).optional(),
  device_count: z.number().int(),
  creation_date: z.string(),
  /** Managers are read-only on stores that are not manager-owned (spec 000 §6). */
  is_read_only: z.boolean(),
  version: z.number().int(),
});
export type StoreSummary = z.infer<typeof storeSummarySchema>;
export type StoreDetail = z.infer<typeof storeSchema>;

export const storesPageSize = 100;
export const listStoresQuerySchema = z.strictObject({
  ...listQuery,
  databaseId: idSchema.optional(),
  distributorId: idSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(storesPageSize),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
/** One page of stores by name; `total` counts every match (refine the search past a page). */
export const listStoresResponseSchema = z.object({
  items: z.array(storeSummarySchema),
  total: z.number().int(),
});
export const storeResponseSchema = z.object({ store: storeSchema });

/** New store: name, address, postal code, city, country required; admins pick the distributor. */
export const createStoreBodySchema = z.strictObject({
  name: required(120),
  address: required(200),
  postal_code: required(20),
  city: required(100),
  country: countrySchema.default('FR'),
  timezone_name: timezoneNameSchema.default('Europe/Paris'),
  distributorId: idSchema.nullable().optional(),
  databaseId: idSchema.nullable().optional(),
});
export const updateStoreBodySchema = z.strictObject({
  ...versioned,
  name: required(120).optional(),
  address: required(200).optional(),
  postal_code: required(20).optional(),
  city: required(100).optional(),
  country: countrySchema.optional(),
  timezone_name: timezoneNameSchema.optional(),
  active: z.boolean().optional(),
  manager_owned: z.boolean().optional(),
  demonstration_store: z.boolean().optional(),
  maximum_devices: z
    .number()
    .int()
    .min(maximumDevicesRange.min)
    .max(maximumDevicesRange.max)
    .optional(),
  week_start: z.number().int().min(weekStartRange.min).max(weekStartRange.max).optional(),
  task_generation_hour: z.number().int().min(0).max(23).optional(),
  hidden_modules: hiddenModulesInputSchema.optional(),
  hidden_extensions: z.array(extensionKeySchema).max(extensionKeys.length).optional(),
  slow_internet_mode: z.boolean().optional(),
  audio_task_reminders: z.boolean().optional(),
  /** null resets to the inherited price. */
  licence_price: price.nullable().optional(),
  sensor_sticker_id: z.string().trim().min(1).max(100).nullable().optional(),
});
export type CreateStoreBody = z.infer<typeof createStoreBodySchema>;
export type UpdateStoreBody = z.infer<typeof updateStoreBodySchema>;

/** POST /api/stores/:id/database: assign a database (invalid-database when none or no distributor). */
export const assignDatabaseBodySchema = z.strictObject({ databaseId: idSchema.nullable() });
/** POST /api/stores/updateLicence (spec 000 §7). */
export const updateLicenceBodySchema = z.strictObject({
  storeId: idSchema,
  activated: z.boolean(),
});
/** POST /api/stores/addOwner (spec 000 §7). */
export const addOwnerBodySchema = z.strictObject({
  email: z.string().trim().toLowerCase().min(1).max(254).pipe(z.email()),
  storeId: idSchema,
});
export const addOwnerResponseSchema = z.object({
  status: z.enum(['not-elligible', 'invited', 'ok']),
});

/* ---------- Devices (spec 000 §2, §3) ---------- */

export const deviceSchema = z.object({
  id: idSchema,
  store_id: idSchema,
  device_id: z.string(),
  device_model: z.string(),
  name: z.string(),
  app_version: z.string(),
  os_version: z.string(),
  creation_timestamp: z.string(),
  last_connexion: z.string().nullable(),
  dark_mode: z.boolean(),
  slow_internet_mode: z.boolean(),
  audio_task_reminders: z.boolean(),
  show_unscheduled_tasks: z.boolean(),
  rotation_lock: z.boolean(),
  prevent_screen_lock: z.boolean(),
  /** Order of the task types in the tablet's calendar. */
  calendar_types_order: z.array(z.string()),
  /**
   * The store owner's account the tablet opens the back-office with (history, documents,
   * settings in tablet mode); set to the store's first owner at pairing.
   */
  linked_user: idSchema.nullable(),
  version: z.number().int(),
});
export type Device = z.infer<typeof deviceSchema>;
export const listDevicesResponseSchema = z.object({ items: z.array(deviceSchema) });
export const deviceResponseSchema = z.object({ device: deviceSchema });
export const updateDeviceBodySchema = z.strictObject({
  ...versioned,
  name: required(80).optional(),
  dark_mode: z.boolean().optional(),
  slow_internet_mode: z.boolean().optional(),
  audio_task_reminders: z.boolean().optional(),
  show_unscheduled_tasks: z.boolean().optional(),
  rotation_lock: z.boolean().optional(),
  prevent_screen_lock: z.boolean().optional(),
  /** One of the store's owners (400 'device/unknown-owner' otherwise), or null for none. */
  linked_user: idSchema.nullable().optional(),
});
/** POST /api/devices/register: a tablet pairs itself with a store's pairing key. */
export const registerDeviceBodySchema = z.strictObject({
  pairing_key: z.string().trim().min(6).max(32),
  device_id: required(200),
  device_model: text(120).default(''),
  app_version: text(40).default(''),
  os_version: text(40).default(''),
  name: text(80).optional(),
});
export const registerDeviceResponseSchema = z.object({ device: deviceSchema, token: z.string() });
export const pairingKeyResponseSchema = z.object({ pairing_key: z.string() });

/* ---------- Sensor provider (Koovea, spec 000 §7) ---------- */

export const sensorCredentialsBodySchema = z.strictObject({
  email: z.string().trim().min(1).max(254),
  /** SHA-256 of the password, hex (the web hashes before sending). */
  password: z.string().regex(/^[0-9a-f]{64}$/),
  distributorId: idSchema.nullable().optional(),
  storeId: idSchema.nullable().optional(),
});
export const sensorCredentialsResponseSchema = z.object({ status: z.string() });
export const sensorSessionQuerySchema = z.strictObject({ storeId: idSchema });
/**
 * GET /api/koovea/tags (spec 000 §7: storeId, userId). userId, the caller's account id in the
 * spec, is accepted for clients built on the spec and not used: who asks comes from the session.
 */
export const sensorTagsQuerySchema = z.strictObject({
  storeId: idSchema,
  userId: z.string().trim().max(128).optional(),
});
export const sensorSessionResponseSchema = z.object({
  isDistributor: z.boolean(),
  loggedIn: z.boolean(),
  stickers: z.array(z.object({ id: z.string(), name: z.string() })),
});
export const sensorTagsResponseSchema = z.object({
  tags: z.array(z.object({ id: z.string(), name: z.string() })),
});
/**
 * POST /api/koovea/import: the tags of the store's account (of its hub when one is set) become
 * probes of the store; those already imported are counted, a tag whose id cannot be a probe UID
 * is skipped.
 */
export const sensorImportBodySchema = z.strictObject({ storeId: idSchema });
export const sensorImportResponseSchema = z.object({
  created: z.number().int(),
  existing: z.number().int(),
  skipped: z.number().int(),
});
export type SensorImportBody = z.infer<typeof sensorImportBodySchema>;
export type SensorImportResponse = z.infer<typeof sensorImportResponseSchema>;

/* ---------- Pickers (the account dialog) ---------- */
export const distributorOptionSchema = distributorSummarySchema.pick({
  id: true,
  name: true,
  active: true,
});
export const databaseOptionSchema = databaseSummarySchema.pick({
  id: true,
  name: true,
  distributor: true,
  store_count: true,
});
export const storeOptionSchema = storeSummarySchema.pick({
  id: true,
  name: true,
  address: true,
  postal_code: true,
  city: true,
  country: true,
  active: true,
  distributor: true,
  database: true,
});
export const distributorOptionsResponseSchema = z.object({
  items: z.array(distributorOptionSchema),
});
export const databaseOptionsResponseSchema = z.object({ items: z.array(databaseOptionSchema) });
export const storeOptionsResponseSchema = z.object({ items: z.array(storeOptionSchema) });
export type DistributorOption = z.infer<typeof distributorOptionSchema>;
export type DatabaseOption = z.infer<typeof databaseOptionSchema>;
export type StoreOption = z.infer<typeof storeOptionSchema>;

export type SensorCredentialsBody = z.infer<typeof sensorCredentialsBodySchema>;
export type SensorSession = z.infer<typeof sensorSessionResponseSchema>;
export type SensorTags = z.infer<typeof sensorTagsResponseSchema>;
export type UpdateDeviceBody = z.infer<typeof updateDeviceBodySchema>;
export type StoreOwner = z.infer<typeof storeOwnerSchema>;
export type SensorCredentialsResponse = z.infer<typeof sensorCredentialsResponseSchema>;
