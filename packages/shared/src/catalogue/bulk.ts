import { z } from 'zod';
import { idSchema } from '../auth/schemas';
import { moduleKeySchema } from '../organisation/schemas';
import {
  configurationModuleInputSchema,
  taskConfigurationFieldKeySchema,
  taskConfigurationInputSchema,
  taskConfigurationSchema,
} from '../tasks/schemas';
import type { FieldState } from './rules';
import {
  elementInputSchema,
  elementLockKeySchema,
  elementLocksInputSchema,
  elementSchema,
  fieldStateSchema,
} from './schemas';

/*
 * Expert mode (spec 001 §2.9, §4, §7; issue 19): bulk reads and saves, and the export (copy)
 * calls.
 *
 * Bulk reads:   GET  /api/databases/:databaseId/elements/bulk, GET /api/stores/:storeId/elements/bulk
 *               GET  /api/databases/:databaseId/taskConfigurations/bulk,
 *               GET  /api/stores/:storeId/taskConfigurations/bulk
 *               (every row, inactive included: the grid filters on the client)
 * Bulk saves:   POST the same paths: only new or changed rows, in one transaction. A row whose
 *               version moved answers 409 'conflict/stale-rows' with one issue per conflicted
 *               row (path = the row's key) and nothing is written; a row refused by the single
 *               screen's rules answers that rule's code with the issue paths prefixed by the
 *               row's key ("<key>.minimum_temperature").
 * Export:       POST /api/database/copyDatabaseElements, /api/database/copyDatabaseTaskConfs,
 *               /api/stores/copyStoreElements, /api/stores/copyStoreTaskConfs, with an
 *               `Idempotency-Key` header: a retried request answers the first answer again.
 */

export const maxBulkRows = 2000;

/* ---------- Sparse locks and field states of an element row ---------- */

/*
 * An element row's 26 locks and 26 field states were three fifths of a 2,000-row answer
 * (4.8 MB), nearly all of them the same. They travel sparse:
 *   - `unlocked`: the fields whose lock is off; every other field is locked;
 *   - `states`: only the fields whose state is not the row's default one, which is, for a row
 *     following an origin (`origin_id` set), 'locked' where the field is locked and 'inherited'
 *     elsewhere, and 'own' for any other row.
 * compactLocksAndStates (server) and expandLocksAndStates (web) are each other's inverse.
 */

/** The state a field of a bulk row has unless its row's `states` says otherwise. */
export function defaultFieldState(hasOrigin: boolean, isLocked: boolean): FieldState {
  if (!hasOrigin) return 'own';
  return isLocked ? 'locked' : 'inherited';
}

/** Full locks and field states as a bulk row sends them (see above). */
export function compactLocksAndStates<K extends string>(
  keys: readonly K[],
  locks: Readonly<Record<K, boolean>>,
  states: Readonly<Record<K, FieldState>>,
  hasOrigin: boolean,
): { unlocked: K[]; states: Partial<Record<K, FieldState>> } {
  const unlocked: K[] = [];
  const sparse: Partial<Record<K, FieldState>> = {};
  for (const key of keys) {
    const isLocked = locks[key] === true;
    if (!isLocked) unlocked.push(key);
    const state = states[key];
    if (state !== undefined && state !== defaultFieldState(hasOrigin, isLocked))
      sparse[key] = state;
  }
  return { unlocked, states: sparse };
}

/** A bulk row's sparse locks and field states made whole again. */
export function expandLocksAndStates<K extends string>(
  keys: readonly K[],
  row: { unlocked: readonly K[]; states: Partial<Record<K, FieldState>>; origin_id: string | null },
): { locks: Record<K, boolean>; states: Record<K, FieldState> } {
  const hasOrigin = row.origin_id !== null;
  const unlocked = new Set<string>(row.unlocked);
  const locks = {} as Record<K, boolean>;
  const states = {} as Record<K, FieldState>;
  for (const key of keys) {
    const isLocked = !unlocked.has(key);
    locks[key] = isLocked;
    states[key] = row.states[key] ?? defaultFieldState(hasOrigin, isLocked);
  }
  return { locks, states };
}

/* ---------- Elements ---------- */

/**
 * A grid row: the element's effective values, its locks and field states (sparse, see
 * compactLocksAndStates) and version (no labels).
 */
export const bulkElementRowSchema = elementSchema
  .omit({
    labels: true,
    attachments: true,
    hidden_modules: true,
    probe: true,
    editable: true,
    locks: true,
    field_states: true,
  })
  .extend({
    /** The row id, or `origin:<id>` for a database element the store has not overridden. */
    key: z.string(),
    /** Database level: the fields the row leaves unlocked. Store level: the origin's. */
    unlocked: z.array(elementLockKeySchema),
    /** The field states that are not the row's default one (defaultFieldState). */
    states: z.partialRecord(elementLockKeySchema, fieldStateSchema),
    label_count: z.number().int(),
    attachment_count: z.number().int(),
  });
export type BulkElementRow = z.infer<typeof bulkElementRowSchema>;

export const bulkElementsResponseSchema = z.object({
  rows: z.array(bulkElementRowSchema),
  hidden_modules: z.array(moduleKeySchema),
  editable: z.boolean(),
});
export type BulkElementsResponse = z.infer<typeof bulkElementsResponseSchema>;

/**
 * One written row. `id` null creates: at database level a new element (name required); at
 * store level an override of `origin_id` or, without it, an element of the store's own.
 * `version` is the one read (required with `id`). Locks at database level only.
 */
export const bulkElementWriteSchema = z.strictObject({
  key: z.string().min(1).max(100),
  id: idSchema.nullable(),
  origin_id: idSchema.nullable().optional(),
  version: z.number().int().min(0).optional(),
  values: elementInputSchema,
  locks: elementLocksInputSchema.optional(),
});
export type BulkElementWrite = z.infer<typeof bulkElementWriteSchema>;

export const bulkElementsSaveBodySchema = z.strictObject({
  rows: z.array(bulkElementWriteSchema).min(1).max(maxBulkRows),
});
export type BulkElementsSaveBody = z.infer<typeof bulkElementsSaveBodySchema>;

/** Each written row by its key, as saved (new ids and versions). */
export const bulkElementsSaveResponseSchema = z.object({
  rows: z.array(bulkElementRowSchema),
});

/* ---------- Task configurations ---------- */

export const bulkTaskConfigurationRowSchema = taskConfigurationSchema
  .omit({ hidden_modules: true, editable: true })
  .extend({
    key: z.string(),
    /** Number of elements (temperatures, oils) or sub-tasks (actions). */
    item_count: z.number().int(),
  });
export type BulkTaskConfigurationRow = z.infer<typeof bulkTaskConfigurationRowSchema>;

export const bulkTaskConfigurationsResponseSchema = z.object({
  rows: z.array(bulkTaskConfigurationRowSchema),
  hidden_modules: z.array(moduleKeySchema),
  editable: z.boolean(),
});
export type BulkTaskConfigurationsResponse = z.infer<typeof bulkTaskConfigurationsResponseSchema>;

export const bulkTaskConfigurationWriteSchema = z.strictObject({
  key: z.string().min(1).max(100),
  id: idSchema.nullable(),
  origin_id: idSchema.nullable().optional(),
  version: z.number().int().min(0).optional(),
  /** `module` is required to create and refused afterwards (read-only once created). */
  values: taskConfigurationInputSchema.extend({
    module: configurationModuleInputSchema.optional(),
  }),
  locks: z.partialRecord(taskConfigurationFieldKeySchema, z.boolean()).optional(),
});
export type BulkTaskConfigurationWrite = z.infer<typeof bulkTaskConfigurationWriteSchema>;

export const bulkTaskConfigurationsSaveBodySchema = z.strictObject({
  rows: z.array(bulkTaskConfigurationWriteSchema).min(1).max(maxBulkRows),
});
export type BulkTaskConfigurationsSaveBody = z.infer<typeof bulkTaskConfigurationsSaveBodySchema>;

export const bulkTaskConfigurationsSaveResponseSchema = z.object({
  rows: z.array(bulkTaskConfigurationRowSchema),
});

/* ---------- Export (copy) calls ---------- */

/** Spec 001 §7: sourceId, targetId, objectIds, copyAttachments. */
export const copyBodySchema = z.strictObject({
  sourceId: idSchema,
  targetId: idSchema,
  objectIds: z.array(idSchema).min(1).max(maxBulkRows),
  copyAttachments: z.boolean(),
});
export type CopyBody = z.infer<typeof copyBodySchema>;

/** Why a selected object was not copied. */
export const copySkipReasons = [
  /** Copied from the same source into this target before (and that copy still exists). */
  'already-exported',
  /** Not one of the source's objects (or not visible to the caller). */
  'not-found',
  /** A task configuration referencing an element the target has no match for (by name). */
  'missing-elements',
  /** A store element whose module or the task's module is hidden at the target. */
  'module-hidden',
] as const;
export type CopySkipReason = (typeof copySkipReasons)[number];

export const copyResponseSchema = z.object({
  created: z.array(z.object({ source_id: idSchema, id: idSchema, name: z.string() })),
  skipped: z.array(
    z.object({
      source_id: idSchema,
      name: z.string().nullable(),
      reason: z.enum(copySkipReasons),
      /** missing-elements: the names of the elements the target lacks. */
      missing: z.array(z.string()).optional(),
    }),
  ),
  /** Element and task types created at the target because no same-named type existed. */
  created_types: z.array(z.object({ id: idSchema, name: z.string() })),
  attachments_copied: z.number().int(),
});
export type CopyResponse = z.infer<typeof copyResponseSchema>;
