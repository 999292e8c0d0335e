import { z } from 'zod';
import { idSchema } from '../auth/schemas';
import { moduleKeySchema } from '../organisation/schemas';
import {
  allergenKeys,
  attachmentNameMaxLength,
  attachmentTypes,
  durationRange,
  elementFieldKeys,
  elementLockKeys,
  labelHoursRange,
  labelTypes,
  polarityRange,
  storeElementTabs,
  temperatureRange,
} from './constants';

/*
 * Catalogue API contract (spec 001 §2.5, §2.8, §3.2–3.5, §3.8).
 *
 * Database level:  /api/databases/:databaseId/elements, /api/databaseElements/:id
 * Store level:     /api/stores/:storeId/elements, /api/storeElements/:id,
 *                  /api/stores/:storeId/elements/origin/:originId (a database element the
 *                  store has not overridden yet, shown with its effective values)
 * Types:           /api/databases/:databaseId/elementTypes, /api/stores/:storeId/elementTypes,
 *                  /api/elementTypes/:id
 * Allergens:       /api/allergens?databaseId= | storeId=, /api/pdf/allergens?...
 */

const name = z.string().trim().max(120);
const temperature = z.number().min(temperatureRange.min).max(temperatureRange.max);
const duration = z.number().int().min(durationRange.min).max(durationRange.max);
const polarity = z.number().min(polarityRange.min).max(polarityRange.max);
const url = z.string().max(2000);

export const allergenKeySchema = z.enum(allergenKeys);
export const labelTypeSchema = z.enum(labelTypes);
export const fieldStateSchema = z.enum(['own', 'locked', 'overridden', 'inherited']);
export const elementLockKeySchema = z.enum(elementLockKeys);

/** Every data field of an element with its effective value (spec 001 §3.2). */
export const elementValuesSchema = z.object({
  name: z.string(),
  type_id: idSchema.nullable(),
  active: z.boolean(),
  illustration_url: z.string().nullable(),
  allergens: z.array(allergenKeySchema),
  allergen_illustration_url: z.string().nullable(),
  minimum_temperature: z.number().nullable(),
  maximum_temperature: z.number().nullable(),
  temperature_delivery_item: z.boolean(),
  temperature_require_picture: z.boolean(),
  temperature_picture: z.boolean(),
  maximum_polarity: z.number().nullable(),
  oils_require_picture: z.boolean(),
  reheating_temperature: z.number().nullable(),
  reheating_duration: z.number().int().nullable(),
  cooling_temperature: z.number().nullable(),
  cooling_duration: z.number().int().nullable(),
  temperatures_module_active: z.boolean(),
  labels_module_active: z.boolean(),
  traceability_module_active: z.boolean(),
  oils_module_active: z.boolean(),
  temperature_control_module_active: z.boolean(),
  encyclopedia_extension_active: z.boolean(),
  mise_display_active: z.boolean(),
});
export type ElementValues = z.infer<typeof elementValuesSchema>;

/**
 * Writable fields. Images (illustration_url, allergen_illustration_url) are set through
 * their upload endpoints and cleared by sending null. Durations of 0 are stored as null.
 * At store level a null value means "follow the origin".
 */
export const elementInputSchema = z.strictObject({
  name: name.optional(),
  type_id: idSchema.nullable().optional(),
  active: z.boolean().optional(),
  illustration_url: z.null().optional(),
  allergens: z.array(allergenKeySchema).max(allergenKeys.length).nullable().optional(),
  allergen_illustration_url: z.null().optional(),
  minimum_temperature: temperature.nullable().optional(),
  maximum_temperature: temperature.nullable().optional(),
  temperature_delivery_item: z.boolean().nullable().optional(),
  temperature_require_picture: z.boolean().nullable().optional(),
  temperature_picture: z.boolean().nullable().optional(),
  maximum_polarity: polarity.nullable().optional(),
  oils_require_picture: z.boolean().nullable().optional(),
  reheating_temperature: temperature.nullable().optional(),
  reheating_duration: duration.nullable().optional(),
  cooling_temperature: temperature.nullable().optional(),
  cooling_duration: duration.nullable().optional(),
  temperatures_module_active: z.boolean().nullable().optional(),
  labels_module_active: z.boolean().nullable().optional(),
  traceability_module_active: z.boolean().nullable().optional(),
  oils_module_active: z.boolean().nullable().optional(),
  temperature_control_module_active: z.boolean().nullable().optional(),
  encyclopedia_extension_active: z.boolean().nullable().optional(),
  mise_display_active: z.boolean().nullable().optional(),
});
export type ElementInput = z.infer<typeof elementInputSchema>;

export const elementLocksSchema = z.record(elementLockKeySchema, z.boolean());
export const elementLocksInputSchema = z.partialRecord(elementLockKeySchema, z.boolean());
export type ElementLocks = z.infer<typeof elementLocksSchema>;

/* ---------- Labels ---------- */

const labelHours = z.number().int().min(labelHoursRange.min).max(labelHoursRange.max);

export const labelValuesSchema = z.object({
  active: z.boolean(),
  name: z.string(),
  type: labelTypeSchema,
  /** Hours (days × 24 + hours). */
  expiration_duration: z.number().int(),
  defrosting_duration: z.number().int(),
  expiration_text: z.string().nullable(),
  cumulate_expiration_duration: z.boolean(),
  show_expiration_hour: z.boolean(),
  show_expiration_weekday: z.boolean(),
});

export const labelSchema = labelValuesSchema.extend({
  /** The label's own row; null for a database label the store has not overridden. */
  id: idSchema.nullable(),
  /** At store level, the database label it follows. */
  origin_id: idSchema.nullable(),
  index: z.number().int(),
  state: fieldStateSchema,
});
export type Label = z.infer<typeof labelSchema>;

/**
 * One label of the list saved with the element, in display order (index is rewritten from
 * the position). `id` names an existing label of this element; `origin_id` (store level) the
 * database label it overrides. Labels of the element left out of the list are deleted; a
 * database label cannot be deleted from a store, only deactivated.
 */
export const labelInputSchema = z.strictObject({
  id: idSchema.optional(),
  origin_id: idSchema.optional(),
  active: z.boolean(),
  name: z.string().trim().max(120),
  type: labelTypeSchema,
  expiration_duration: labelHours,
  defrosting_duration: labelHours,
  expiration_text: z.string().max(2000).nullable(),
  cumulate_expiration_duration: z.boolean(),
  show_expiration_hour: z.boolean(),
  show_expiration_weekday: z.boolean(),
});
export type LabelInput = z.infer<typeof labelInputSchema>;

/* ---------- Attachments (encyclopedia) ---------- */

export const attachmentSchema = z.object({
  id: idSchema,
  name: z.string(),
  type: z.enum(attachmentTypes),
  /** GET URL of the file (inline); add `?download=1` for a download. */
  url: z.string(),
  size: z.number().int(),
  index: z.number().int(),
  video_id: z.string().nullable(),
  /** At store level, an attachment of the database element (read-only there). */
  inherited: z.boolean(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

/**
 * The element's own attachments as kept on save, in display order: renamed ones carry their
 * new name; those left out are deleted once the save has succeeded.
 */
export const attachmentOrderInputSchema = z.strictObject({
  id: idSchema,
  name: z.string().trim().min(1).max(attachmentNameMaxLength),
});
export const renameAttachmentBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(attachmentNameMaxLength),
});
/**
 * `?version=N` of the writes that bypass the element PATCH (uploads, stock image, attachment
 * rename): the element's version read; a stale one answers 409 and nothing is stored.
 */
export const expectedVersionQuerySchema = z.strictObject({
  version: z.coerce.number().int().min(0),
});

/* ---------- Elements ---------- */

/** The store probe an element is bound to (matched by probeUID among the store's probes). */
export const elementProbeSchema = z.object({
  probe_uid: z.string(),
  name: z.string(),
  last_temperature: z.number().nullable(),
  last_temperature_timestamp: z.string().nullable(),
});
export type ElementProbe = z.infer<typeof elementProbeSchema>;

export const elementSchema = elementValuesSchema.extend({
  /** The row's id; null for a database element seen from a store that has not overridden it. */
  id: idSchema.nullable(),
  level: z.enum(['database', 'store']),
  database_id: idSchema.nullable(),
  store_id: idSchema.nullable(),
  /** Store level: the database element it follows. */
  origin_id: idSchema.nullable(),
  /** Store level: the row exists in the store (spec isRemote). */
  is_remote: z.boolean(),
  probe_id: z.string().nullable(),
  /** The bound probe when it is still one of the store's probes; null otherwise. */
  probe: elementProbeSchema.nullable(),
  /** probe_id is set but is no longer one of the store's probes (spec: "Modifiez la"). */
  probe_missing: z.boolean(),
  type_name: z.string().nullable(),
  /** Database level: the element's locks. Store level: the origin's locks (all false without origin). */
  locks: elementLocksSchema,
  /** Per field and for labels and attachments: own, locked, overridden or inherited. */
  field_states: z.record(elementLockKeySchema, fieldStateSchema),
  labels: z.array(labelSchema),
  attachments: z.array(attachmentSchema),
  /** Module keys hidden where the element is edited (database, or store and its database). */
  hidden_modules: z.array(moduleKeySchema),
  /** Whether the caller may save it (false for a manager on a store not manager-owned, customers on databases). */
  editable: z.boolean(),
  version: z.number().int(),
  updated_at: z.string(),
});
export type Element = z.infer<typeof elementSchema>;
export const elementResponseSchema = z.object({ element: elementSchema });

export const elementListItemSchema = z.object({
  /** Stable React key: the row id, or `origin:<id>` for a database row not yet in the store. */
  key: z.string(),
  id: idSchema.nullable(),
  origin_id: idSchema.nullable(),
  is_remote: z.boolean(),
  name: z.string(),
  type_id: idSchema.nullable(),
  type_name: z.string().nullable(),
  active: z.boolean(),
  illustration_url: z.string().nullable(),
  allergens: z.array(allergenKeySchema),
  minimum_temperature: z.number().nullable(),
  maximum_temperature: z.number().nullable(),
  temperature_delivery_item: z.boolean(),
  probe_id: z.string().nullable(),
  /** probe_id is set but is no longer one of the store's probes. */
  probe_missing: z.boolean(),
});
export type ElementListItem = z.infer<typeof elementListItemSchema>;

export const listElementsQuerySchema = z.strictObject({
  search: z.string().trim().max(100).optional(),
  includeInactive: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true'),
  /** Store level only: temperature (not delivery items), delivery, probes (elements with a probe). */
  tab: z.enum(storeElementTabs).optional(),
});
export const listElementsResponseSchema = z.object({ items: z.array(elementListItemSchema) });

/**
 * GET /api/databases/:databaseId/elements/context and /api/stores/:storeId/elements/context:
 * what a new element's screen needs — the modules hidden (a store's with its database's) and
 * whether the caller may create elements there.
 */
export const elementContextResponseSchema = z.object({
  hidden_modules: z.array(moduleKeySchema),
  editable: z.boolean(),
});
export type ElementContext = z.infer<typeof elementContextResponseSchema>;

const fieldKeys = new Set<string>(elementFieldKeys);
export const isElementFieldKey = (key: string): key is (typeof elementFieldKeys)[number] =>
  fieldKeys.has(key);

/** POST /api/databases/:databaseId/elements — name required; other fields default. */
export const createDatabaseElementBodySchema = elementInputSchema.extend({
  name,
  locks: elementLocksInputSchema.optional(),
  labels: z.array(labelInputSchema).max(100).optional(),
});
/** POST /api/stores/:storeId/elements — `origin_id` to override a database element. */
export const createStoreElementBodySchema = elementInputSchema.extend({
  origin_id: idSchema.optional(),
  probe_id: z.string().trim().max(100).nullable().optional(),
  labels: z.array(labelInputSchema).max(100).optional(),
});
/** PATCH /api/databaseElements/:id and /api/storeElements/:id — with the version read. */
export const updateElementBodySchema = elementInputSchema.extend({
  version: z.number().int().min(0),
  locks: elementLocksInputSchema.optional(),
  probe_id: z.string().trim().max(100).nullable().optional(),
  labels: z.array(labelInputSchema).max(100).optional(),
  attachments: z.array(attachmentOrderInputSchema).max(200).optional(),
});
export type CreateDatabaseElementBody = z.infer<typeof createDatabaseElementBodySchema>;
export type CreateStoreElementBody = z.infer<typeof createStoreElementBodySchema>;
export type UpdateElementBody = z.infer<typeof updateElementBodySchema>;

/* ---------- Element types (spec 001 §3.3) ---------- */

export const elementTypeSchema = z.object({
  id: idSchema,
  name: z.string(),
  /** A store's own type; only these are editable at store level. */
  store_side: z.boolean(),
  database_id: idSchema.nullable(),
  store_id: idSchema.nullable(),
});
export type ElementType = z.infer<typeof elementTypeSchema>;
export const listElementTypesResponseSchema = z.object({ items: z.array(elementTypeSchema) });
export const elementTypeResponseSchema = z.object({ type: elementTypeSchema });
export const elementTypeBodySchema = z.strictObject({ name: z.string().trim().max(120) });

/* ---------- Allergens screen (spec 001 §2.8) ---------- */

export const allergensQuerySchema = z
  .strictObject({ databaseId: idSchema.optional(), storeId: idSchema.optional() })
  .refine((query) => Boolean(query.databaseId) !== Boolean(query.storeId), {
    message: 'Give either databaseId or storeId.',
  });
export const allergenTableSchema = z.object({
  title: z.string(),
  groups: z.array(
    z.object({
      type_id: idSchema.nullable(),
      type_name: z.string().nullable(),
      elements: z.array(
        z.object({ key: z.string(), name: z.string(), allergens: z.array(allergenKeySchema) }),
      ),
    }),
  ),
});
export type AllergenTable = z.infer<typeof allergenTableSchema>;

/* ---------- Stock images (integration) ---------- */

export const stockImagesQuerySchema = z.strictObject({ query: z.string().trim().min(1).max(100) });
export const stockImagesResponseSchema = z.object({
  /** False when no stock image provider is configured: the search is disabled. */
  configured: z.boolean(),
  items: z.array(z.object({ id: z.string(), thumbnail_url: z.string(), url: z.string() })),
});
export const pickStockImageBodySchema = z.strictObject({ url: url });
