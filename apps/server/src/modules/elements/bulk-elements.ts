import { randomUUID } from 'node:crypto';
import {
  type BulkElementRow,
  type BulkElementsResponse,
  type BulkElementsSaveBody,
  compactLocksAndStates,
} from '@mise/shared/catalogue/bulk';
import {
  type ElementLockKey,
  elementFieldKeys,
  elementLockKeys,
} from '@mise/shared/catalogue/constants';
import { compareNames, type FieldState, mergeStoreRows } from '@mise/shared/catalogue/rules';
import type { ElementValues } from '@mise/shared/catalogue/schemas';
import type { ErrorCode } from '@mise/shared/errors/codes';
import type { ModuleKey } from '@mise/shared/organisation/constants';
import { and, asc, count, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client';
import {
  databaseElements,
  type databases,
  elementAttachments,
  elementLabels,
  elementTypes,
  probes,
  storeElements,
} from '../../db/schema';
import { AppError } from '../../platform/errors';
import type { Scope } from '../../platform/scope';
import type { Storage } from '../../platform/storage';
import { findDatabaseInScope } from '../databases/databases.service';
import { deleteQueuedFiles, queueStorageDeletions } from '../files/storage-deletions';
import {
  canEditStore,
  findEditableStore,
  findStoreInScope,
  type StoreRow,
  storeHiddenModules,
} from '../stores/stores.service';
import type { AttachmentRow } from './attachments';
import { assertExpertModeUser, canUseExpertMode } from './bulk-elements.policy';
import { allowedTypeIds } from './element-types.service';
import {
  assertNothingLocked,
  completeValues,
  type DatabaseElementRow,
  type FieldValues,
  fieldsOf,
  type Locks,
  locksOf,
  type StoreElementRow,
} from './element-values';
import { assertDatabaseWriter, canWriteDatabase } from './elements.policy';
import {
  clearIncoherentStoreTemperaturesOf,
  combineStoreParts,
  planDatabaseElementCreate,
  planDatabaseElementUpdate,
  planStoreElementCreate,
  planStoreElementUpdate,
} from './elements.service';
import type { LabelRow } from './labels';

/*
 * Expert mode, elements (spec 001 §2.9, §4; issue 19; contract packages/shared/src/catalogue/bulk.ts).
 *
 * Reads: every row of a database, or of a store merged with its database's rows it has not
 * overridden, in a fixed number of queries whatever the count (rows with their type, labels
 * and attachments of the level, the store's probes joined), each presented with the one
 * inheritance rule (effectiveStoreValues, combineStoreParts) as the element screen does.
 *
 * Saves: the rows read first (one query per kind), every row refused exactly as the single
 * calls refuse it (the plan functions of elements.service.ts, assertNothingLocked, the types
 * allowed), the versions compared, then one transaction: one multi-row INSERT for the new rows
 * and one UPDATE for the changed ones (their new columns in one JSON parameter, each row's
 * version in its WHERE), so that the work is the same for 5 rows or 500.
 */

type Deps = { db: Database; storage: Storage };
type DatabaseRow = typeof databases.$inferSelect;

/* ---------- Errors of a row ---------- */

/** The field an error without issues is about, to point at the cell (else the row). */
const fieldOfCode: Partial<Record<ErrorCode, string>> = {
  'invalid-temperature-input': 'minimum_temperature',
  'element/invalid-name': 'name',
  'element/select-type': 'type_id',
  'element/unknown-type': 'type_id',
  'element/unknown-origin': 'origin_id',
  'task-configuration/invalid-name': 'name',
  'task-configuration.select-module': 'module',
  'task-configuration/hidden-module': 'module',
  'task-configuration/module-mismatch': 'configuration',
  'task-action-required': 'configuration',
  'schedule-incoherent': 'schedules',
  'task-configuration/invalid-recurrence': 'recurrence',
  'task-configuration/unknown-element': 'configuration',
  'task-configuration/unknown-type': 'type_id',
};

/** A row's error with its issue paths under the row's key ("<key>.minimum_temperature"). */
export function rowError(key: string, error: unknown): AppError {
  if (!(error instanceof AppError)) throw error;
  const issues = error.issues?.length
    ? error.issues.map((issue) => ({ path: `${key}.${issue.path}`, message: issue.message }))
    : [
        {
          path: fieldOfCode[error.code] ? `${key}.${fieldOfCode[error.code]}` : key,
          message: error.message,
        },
      ];
  return new AppError(error.code, error.message, issues);
}

/**
 * Collects the rows' errors; `throwFirst` answers the first row's code with the issues of
 * every row refused for that same code (the grid marks them all at once).
 */
export class RowErrors {
  private readonly errors: AppError[] = [];

  /** Runs a row's checks; answers undefined when they refuse it. */
  check<T>(key: string, run: () => T): T | undefined {
    try {
      return run();
    } catch (error) {
      this.errors.push(rowError(key, error));
      return undefined;
    }
  }

  add(key: string, error: AppError): void {
    this.errors.push(rowError(key, error));
  }

  throwFirst(): void {
    const first = this.errors[0];
    if (!first) return;
    const issues = this.errors
      .filter((error) => error.code === first.code)
      .flatMap((error) => error.issues ?? []);
    throw new AppError(first.code, first.message, issues);
  }
}

/** 409 conflict/stale-rows naming every stale row (nothing is written). */
export function staleRows(keys: readonly string[]): AppError {
  return new AppError(
    'conflict/stale-rows',
    undefined,
    keys.map((path) => ({ path, message: 'Changed by someone else since it was read.' })),
  );
}

const missingRow = (key: string) =>
  rowError(key, new AppError('not-found', 'Not a row of this database or store.'));

/**
 * The body's structure: keys and ids appear once; an existing row carries the version read.
 * Throws validation/invalid-input naming the rows.
 */
export function assertDistinctRows(
  rows: readonly { key: string; id: string | null; version?: number }[],
): void {
  const errors = new RowErrors();
  const keys = new Set<string>();
  const ids = new Set<string>();
  for (const row of rows) {
    if (keys.has(row.key)) {
      errors.add(row.key, new AppError('validation/invalid-input', 'The same key twice.'));
    }
    keys.add(row.key);
    if (row.id !== null) {
      if (ids.has(row.id)) {
        errors.add(row.key, new AppError('validation/invalid-input', 'The same row twice.'));
      }
      ids.add(row.id);
      if (row.version === undefined) {
        errors.add(
          row.key,
          new AppError('validation/invalid-input', undefined, [
            { path: 'version', message: 'The version read is required to change a row.' },
          ]),
        );
      }
    }
  }
  errors.throwFirst();
}

/* ---------- One UPDATE for many versioned rows ---------- */

type VersionedTable = PgTable & { id: PgColumn; version: PgColumn; updated_at: PgColumn };

/**
 * Writes many rows in one statement: each row's new `columns` travel in one JSON parameter
 * (json_to_recordset; arrays as JSON, rebuilt in order), and a row is written only while its
 * version is still the one read (WHERE version = expected); each written row's version moves
 * by one. Answers the ids written: a row missing from them changed meanwhile.
 */
export async function updateVersionedRows(
  tx: Pick<Database, 'execute'>,
  table: VersionedTable,
  columns: readonly string[],
  rows: readonly { id: string; version: number; values: Record<string, unknown> }[],
): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const byKey = table as unknown as Record<string, PgColumn>;
  const definitions: SQL[] = [];
  const assignments: SQL[] = [];
  for (const key of columns) {
    const column = byKey[key]!;
    const name = sql.identifier(column.name);
    const type = column.getSQLType();
    if (type.endsWith('[]')) {
      const item = sql.raw(type.slice(0, -2));
      definitions.push(sql`${name} jsonb`);
      assignments.push(
        sql`${name} = case when v.${name} is null then null else array(select e.x::${item} from jsonb_array_elements_text(v.${name}) with ordinality as e(x, n) order by e.n) end`,
      );
    } else {
      definitions.push(sql`${name} ${sql.raw(type)}`);
      assignments.push(sql`${name} = v.${name}`);
    }
  }
  const payload = JSON.stringify(
    rows.map((row) => {
      const record: Record<string, unknown> = { id: row.id, expected_version: row.version };
      for (const key of columns) record[byKey[key]!.name] = row.values[key] ?? null;
      return record;
    }),
  );
  const result = (await tx.execute(sql`
    update ${table} as t
       set ${sql.join(assignments, sql`, `)},
           version = t.version + 1,
           updated_at = ${new Date().toISOString()}::timestamptz
      from json_to_recordset(${payload}::json) as v(id uuid, expected_version integer, ${sql.join(definitions, sql`, `)})
     where t.id = v.id and t.version = v.expected_version
 returning t.id`)) as unknown as { rows: { id: string }[] };
  return new Set(result.rows.map((row) => row.id));
}

/** Multi-row INSERTs of at most 500 rows a statement (well under the 65 535 parameters). */
export async function insertRows<T extends PgTable>(
  tx: Pick<Database, 'insert'>,
  table: T,
  rows: T['$inferInsert'][],
): Promise<void> {
  for (let start = 0; start < rows.length; start += 500) {
    await tx.insert(table).values(rows.slice(start, start + 500));
  }
}

/* ---------- Presentation ---------- */

/** The columns a save writes: the element's fields and the paths of its images. */
const writtenColumns = [
  'name',
  'type_id',
  'active',
  'illustration_url',
  'illustration_path',
  'allergens',
  'allergen_illustration_url',
  'allergen_illustration_path',
  'minimum_temperature',
  'maximum_temperature',
  'temperature_delivery_item',
  'temperature_require_picture',
  'temperature_picture',
  'maximum_polarity',
  'oils_require_picture',
  'reheating_temperature',
  'reheating_duration',
  'cooling_temperature',
  'cooling_duration',
  'temperatures_module_active',
  'labels_module_active',
  'traceability_module_active',
  'oils_module_active',
  'temperature_control_module_active',
  'encyclopedia_extension_active',
  'mise_display_active',
] as const satisfies readonly (keyof StoreElementRow & keyof DatabaseElementRow)[];

/** The fields a bulk row carries a lock and a state for (its data fields, labels, attachments). */
const lockKeys = elementLockKeys;

/** Every field of a database row is its own. */
const ownStates = Object.freeze(
  Object.fromEntries(lockKeys.map((key) => [key, 'own'])) as Record<ElementLockKey, FieldState>,
);

/**
 * A grid row, its keys in the response schema's order (the JSON is the same as zod's). Built
 * as one literal of a fixed shape, its locks and states sparse (compactLocksAndStates): 2,000
 * rows are built, serialised and parsed several times faster than with the full maps.
 */
function bulkRow(
  values: ElementValues,
  locks: Locks,
  fieldStates: Record<ElementLockKey, FieldState>,
  extra: Pick<
    BulkElementRow,
    | 'id'
    | 'level'
    | 'database_id'
    | 'store_id'
    | 'origin_id'
    | 'is_remote'
    | 'probe_id'
    | 'probe_missing'
    | 'type_name'
    | 'version'
    | 'updated_at'
    | 'key'
    | 'label_count'
    | 'attachment_count'
  >,
): BulkElementRow {
  const sparse = compactLocksAndStates(lockKeys, locks, fieldStates, extra.origin_id !== null);
  return {
    name: values.name,
    type_id: values.type_id,
    active: values.active,
    illustration_url: values.illustration_url,
    allergens: values.allergens,
    allergen_illustration_url: values.allergen_illustration_url,
    minimum_temperature: values.minimum_temperature,
    maximum_temperature: values.maximum_temperature,
    temperature_delivery_item: values.temperature_delivery_item,
    temperature_require_picture: values.temperature_require_picture,
    temperature_picture: values.temperature_picture,
    maximum_polarity: values.maximum_polarity,
    oils_require_picture: values.oils_require_picture,
    reheating_temperature: values.reheating_temperature,
    reheating_duration: values.reheating_duration,
    cooling_temperature: values.cooling_temperature,
    cooling_duration: values.cooling_duration,
    temperatures_module_active: values.temperatures_module_active,
    labels_module_active: values.labels_module_active,
    traceability_module_active: values.traceability_module_active,
    oils_module_active: values.oils_module_active,
    temperature_control_module_active: values.temperature_control_module_active,
    encyclopedia_extension_active: values.encyclopedia_extension_active,
    mise_display_active: values.mise_display_active,
    id: extra.id,
    level: extra.level,
    database_id: extra.database_id,
    store_id: extra.store_id,
    origin_id: extra.origin_id,
    is_remote: extra.is_remote,
    probe_id: extra.probe_id,
    probe_missing: extra.probe_missing,
    type_name: extra.type_name,
    version: extra.version,
    updated_at: extra.updated_at,
    key: extra.key,
    unlocked: sparse.unlocked,
    states: sparse.states,
    label_count: extra.label_count,
    attachment_count: extra.attachment_count,
  };
}

const byName = (left: BulkElementRow, right: BulkElementRow) =>
  compareNames(left.name, right.name) || (left.key < right.key ? -1 : 1);

/** Number of rows per element id (labels or attachments of a database's elements). */
function countsOf(rows: { id: string | null; count: number }[]): Map<string, number> {
  return new Map(rows.map((row) => [row.id ?? '', Number(row.count)]));
}

/** The columns of a database element a grid row is made of. */
const gridColumns = ['id', ...elementFieldKeys, 'locks', 'version', 'updated_at'] as const;

/** A database element as the grid's read gets it: JSON types (the instant as text). */
type JsonDatabaseElement = Pick<
  DatabaseElementRow,
  Exclude<(typeof gridColumns)[number], 'updated_at'>
> & { updated_at: string; type_name: string | null };

/**
 * One JSON text of the rows (and their type's name): with 2,000 rows of 30 columns, the
 * drivers' per-value decoding was most of the read (PGlite 75 → 30 ms, docs/scaling.md).
 */
const gridRowsJson = sql.join(
  [
    ...gridColumns.map((key) => sql`${sql.raw(`'${key}'`)}, ${databaseElements[key]}`),
    sql`'type_name', ${elementTypes.name}`,
  ],
  sql`, `,
);

/**
 * A database's elements as grid rows (every row, inactive included), sorted by name: three
 * queries (rows with their type as one JSON text, label counts, attachment counts); `ids`
 * limits them.
 */
async function databaseRows(
  db: Database,
  database: DatabaseRow,
  ids?: readonly string[],
): Promise<BulkElementRow[]> {
  const inDatabase = and(
    eq(databaseElements.database_id, database.id),
    ids ? inArray(databaseElements.id, [...ids]) : undefined,
  );
  const [json, labelCounts, attachmentCounts] = await Promise.all([
    db.execute(sql`
      select coalesce(json_agg(json_build_object(${gridRowsJson})), '[]')::text as rows
        from ${databaseElements}
        left join ${elementTypes} on ${elementTypes.id} = ${databaseElements.type_id}
       where ${inDatabase}`) as unknown as Promise<{ rows: { rows: string }[] }>,
    db
      .select({ id: elementLabels.database_element_id, count: count() })
      .from(elementLabels)
      .innerJoin(databaseElements, eq(databaseElements.id, elementLabels.database_element_id))
      .where(inDatabase)
      .groupBy(elementLabels.database_element_id),
    db
      .select({ id: elementAttachments.database_element_id, count: count() })
      .from(elementAttachments)
      .innerJoin(databaseElements, eq(databaseElements.id, elementAttachments.database_element_id))
      .where(inDatabase)
      .groupBy(elementAttachments.database_element_id),
  ]);
  const rows = JSON.parse(json.rows[0]?.rows ?? '[]') as JsonDatabaseElement[];
  const labels = countsOf(labelCounts);
  const attachments = countsOf(attachmentCounts);
  return rows
    .map((row) =>
      // A database row's values and locks as the element screen presents them
      // (effectiveDatabaseValues, without its states: they are all 'own').
      bulkRow(completeValues(row), locksOf(row), ownStates, {
        id: row.id,
        level: 'database',
        database_id: database.id,
        store_id: null,
        origin_id: null,
        is_remote: false,
        probe_id: null,
        probe_missing: false,
        type_name: row.type_name,
        version: row.version,
        updated_at: new Date(row.updated_at).toISOString(),
        key: row.id,
        label_count: labels.get(row.id) ?? 0,
        attachment_count: attachments.get(row.id) ?? 0,
      }),
    )
    .sort(byName);
}

function groupBy<T>(rows: readonly T[], keyOf: (row: T) => string | null): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    if (key === null) continue;
    const list = groups.get(key) ?? [];
    list.push(row);
    groups.set(key, list);
  }
  return groups;
}

/**
 * A store's grid rows: its database's elements it has not overridden (key `origin:<id>`) and
 * its own rows, sorted by name (mergeStoreRows), each as presentStoreElement shows it (labels
 * and attachments through combineStoreParts). Six queries whatever the size (database rows,
 * store rows with their probe, labels and attachments of each level); `ids` limits them to
 * those store rows and their origins.
 */
async function storeRows(
  db: Database,
  store: StoreRow,
  ids?: readonly string[],
): Promise<BulkElementRow[]> {
  const databaseId = store.database_id;
  const ofStore = and(
    eq(storeElements.store_id, store.id),
    ids ? inArray(storeElements.id, [...ids]) : undefined,
  );
  const origins = db.select({ id: storeElements.origin_id }).from(storeElements).where(ofStore);
  const ofDatabase = databaseId
    ? and(
        eq(databaseElements.database_id, databaseId),
        ids ? inArray(databaseElements.id, origins) : undefined,
      )
    : undefined;
  const ordered = [asc(elementLabels.index), asc(elementLabels.id)];
  // A grid row shows how many labels and attachments an element has and where they come from
  // (own, overridden, inherited, locked): combineStoreParts needs only these columns of them
  // (the label's values, left out, would be filled with a new label's).
  const labelColumns = {
    id: elementLabels.id,
    database_element_id: elementLabels.database_element_id,
    store_element_id: elementLabels.store_element_id,
    origin_id: elementLabels.origin_id,
    index: elementLabels.index,
  };
  const attachmentColumns = {
    id: elementAttachments.id,
    database_element_id: elementAttachments.database_element_id,
    store_element_id: elementAttachments.store_element_id,
  };
  const [databaseItems, storeItems, originLabels, ownLabels, originAttachments, ownAttachments] =
    await Promise.all([
      ofDatabase
        ? db
            .select({ row: databaseElements, type_name: elementTypes.name })
            .from(databaseElements)
            .leftJoin(elementTypes, eq(elementTypes.id, databaseElements.type_id))
            .where(ofDatabase)
        : Promise.resolve([]),
      db
        .select({
          row: storeElements,
          type_name: elementTypes.name,
          has_probe: sql<boolean>`${probes.id} is not null`,
        })
        .from(storeElements)
        .leftJoin(elementTypes, eq(elementTypes.id, storeElements.type_id))
        // The bound probe counts only while it is one of this store's (probe_uid is unique).
        .leftJoin(
          probes,
          and(
            eq(probes.probe_uid, storeElements.probe_id),
            eq(probes.store_id, storeElements.store_id),
          ),
        )
        .where(ofStore),
      ofDatabase
        ? db
            .select(labelColumns)
            .from(elementLabels)
            .innerJoin(databaseElements, eq(databaseElements.id, elementLabels.database_element_id))
            .where(ofDatabase)
            .orderBy(...ordered)
        : Promise.resolve([]),
      db
        .select(labelColumns)
        .from(elementLabels)
        .innerJoin(storeElements, eq(storeElements.id, elementLabels.store_element_id))
        .where(ofStore)
        .orderBy(...ordered),
      ofDatabase
        ? db
            .select(attachmentColumns)
            .from(elementAttachments)
            .innerJoin(
              databaseElements,
              eq(databaseElements.id, elementAttachments.database_element_id),
            )
            .where(ofDatabase)
        : Promise.resolve([]),
      db
        .select(attachmentColumns)
        .from(elementAttachments)
        .innerJoin(storeElements, eq(storeElements.id, elementAttachments.store_element_id))
        .where(ofStore),
    ]);
  const labelsOfOrigin = groupBy(originLabels as LabelRow[], (label) => label.database_element_id);
  const labelsOfOwn = groupBy(ownLabels as LabelRow[], (label) => label.store_element_id);
  const attachmentsOfOrigin = groupBy(
    originAttachments as AttachmentRow[],
    (attachment) => attachment.database_element_id,
  );
  const attachmentsOfOwn = groupBy(
    ownAttachments as AttachmentRow[],
    (attachment) => attachment.store_element_id,
  );
  const originById = new Map(databaseItems.map((item) => [item.row.id, item]));

  const present = (
    key: string,
    row: StoreElementRow | null,
    origin: { row: DatabaseElementRow; type_name: string | null } | null,
    own: { type_name: string | null; has_probe: boolean } | null,
  ): BulkElementRow => {
    const parts = combineStoreParts(row, origin?.row ?? null, {
      originLabels: origin ? (labelsOfOrigin.get(origin.row.id) ?? []) : null,
      originAttachments: origin
        ? (attachmentsOfOrigin.get(origin.row.id) ?? [])
        : ([] as AttachmentRow[]),
      ownLabels: row ? (labelsOfOwn.get(row.id) ?? []) : ([] as LabelRow[]),
      ownAttachments: row ? (attachmentsOfOwn.get(row.id) ?? []) : ([] as AttachmentRow[]),
    });
    const typeState: FieldState = parts.effective.states.type_id;
    const isTypeInherited = typeState === 'locked' || typeState === 'inherited';
    const probeId = row?.probe_id ?? null;
    return bulkRow(
      parts.effective.values,
      parts.effective.locks,
      {
        ...parts.effective.states,
        labels: parts.labelsState,
        attachments: parts.attachmentsState,
      },
      {
        id: row?.id ?? null,
        level: 'store',
        database_id: databaseId,
        store_id: store.id,
        origin_id: origin?.row.id ?? null,
        is_remote: row !== null,
        probe_id: probeId,
        probe_missing: probeId !== null && !own?.has_probe,
        type_name: parts.effective.values.type_id
          ? ((isTypeInherited ? origin?.type_name : own?.type_name) ?? null)
          : null,
        version: row?.version ?? 0,
        updated_at: (row ?? origin?.row)?.updated_at.toISOString() ?? new Date(0).toISOString(),
        key,
        label_count: parts.labels.length,
        attachment_count: parts.attachmentRows.length,
      },
    );
  };

  const fromDatabase = databaseItems.map((item) => {
    const row = present(`origin:${item.row.id}`, null, item, null);
    return { id: item.row.id, name: row.name, row };
  });
  const fromStore = storeItems.map((item) => {
    const origin = item.row.origin_id ? (originById.get(item.row.origin_id) ?? null) : null;
    const row = present(item.row.id, item.row, origin, item);
    return { id: item.row.id, origin_id: origin ? origin.row.id : null, name: row.name, row };
  });
  // A restricted read (after a save) answers the store rows only, not their origins.
  if (ids) return fromStore.map((item) => item.row);
  return mergeStoreRows(fromDatabase, fromStore).map((item) => item.row.row);
}

/** GET /api/databases/:databaseId/elements/bulk. */
export async function readDatabaseBulk(
  db: Database,
  scope: Scope,
  databaseId: string,
): Promise<BulkElementsResponse> {
  const database = await findDatabaseInScope(db, scope, databaseId);
  return {
    rows: await databaseRows(db, database),
    hidden_modules: database.hidden_modules as ModuleKey[],
    editable: canWriteDatabase(scope),
  };
}

/** GET /api/stores/:storeId/elements/bulk. */
export async function readStoreBulk(
  db: Database,
  scope: Scope,
  storeId: string,
): Promise<BulkElementsResponse> {
  const store = await findStoreInScope(db, scope, storeId);
  const [rows, hidden_modules] = await Promise.all([
    storeRows(db, store),
    storeHiddenModules(db, store),
  ]);
  return {
    rows,
    hidden_modules,
    editable: canEditStore(scope, store) && canUseExpertMode(scope),
  };
}

/** The saved rows in the order written, each under the key it was sent with. */
function underKeys(rows: BulkElementRow[], keyOfId: Map<string, string>): BulkElementRow[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return [...keyOfId].flatMap(([id, key]) => {
    const row = byId.get(id);
    return row ? [{ ...row, key }] : [];
  });
}

/* ---------- Saves ---------- */

/** A row's columns as written: its current columns with the plan's changes. */
function columnsAfter(
  row: FieldValues & {
    illustration_path: string | null;
    allergen_illustration_path: string | null;
  },
  changes: FieldValues,
  cleared: Record<string, null>,
): Record<string, unknown> {
  return {
    ...fieldsOf(row),
    illustration_path: row.illustration_path,
    allergen_illustration_path: row.allergen_illustration_path,
    ...changes,
    ...cleared,
  };
}

function typeIdsOf(plans: { changes: FieldValues }[]): string[] {
  return plans.flatMap(({ changes }) =>
    typeof changes.type_id === 'string' ? [changes.type_id] : [],
  );
}

/** Refuses the rows whose new type is not one of the level's (element/unknown-type). */
function assertTypesAllowed(
  plans: { key: string; changes: FieldValues }[],
  allowed: Set<string>,
): void {
  const errors = new RowErrors();
  for (const plan of plans) {
    const typeId = plan.changes.type_id;
    if (typeof typeId === 'string' && !allowed.has(typeId)) {
      errors.add(plan.key, new AppError('element/unknown-type'));
    }
  }
  errors.throwFirst();
}

/**
 * POST /api/databases/:databaseId/elements/bulk: new rows created, changed rows updated, in
 * one transaction, as POST /api/databases/:databaseId/elements and PATCH
 * /api/databaseElements/:id would (labels and attachments are not part of a grid row).
 */
export async function saveDatabaseBulk(
  deps: Deps,
  scope: Scope,
  databaseId: string,
  body: BulkElementsSaveBody,
): Promise<BulkElementRow[]> {
  const { db } = deps;
  const database = await findDatabaseInScope(db, scope, databaseId);
  assertDatabaseWriter(scope);
  assertDistinctRows(body.rows);
  const structure = new RowErrors();
  for (const write of body.rows) {
    if (write.origin_id) {
      structure.add(
        write.key,
        new AppError('validation/invalid-input', 'Origins are for store elements.', [
          { path: 'origin_id', message: 'Not a database element field.' },
        ]),
      );
    }
  }
  structure.throwFirst();

  const ids = body.rows.flatMap((write) => (write.id ? [write.id] : []));
  const existing = new Map(
    (ids.length
      ? await db
          .select()
          .from(databaseElements)
          .where(
            and(eq(databaseElements.database_id, database.id), inArray(databaseElements.id, ids)),
          )
      : []
    ).map((row) => [row.id, row]),
  );
  const missing = body.rows.filter((write) => write.id && !existing.has(write.id));
  if (missing.length) {
    throw new AppError(
      'not-found',
      undefined,
      missing.flatMap((write) => missingRow(write.key).issues ?? []),
    );
  }
  const stale = body.rows.filter(
    (write) => write.id && existing.get(write.id)!.version !== write.version,
  );
  if (stale.length) throw staleRows(stale.map((write) => write.key));

  const errors = new RowErrors();
  const creates: {
    key: string;
    id: string;
    changes: FieldValues;
    locks: DatabaseElementRow['locks'];
  }[] = [];
  const updates: {
    key: string;
    row: DatabaseElementRow;
    version: number;
    changes: FieldValues;
    values: Record<string, unknown>;
    paths: string[];
  }[] = [];
  for (const write of body.rows) {
    const row = write.id ? existing.get(write.id)! : null;
    errors.check(write.key, () => {
      if (!row) {
        const plan = planDatabaseElementCreate(write.values, write.locks);
        creates.push({ key: write.key, id: randomUUID(), ...plan });
        return;
      }
      const plan = planDatabaseElementUpdate(row, write.values, write.locks);
      updates.push({
        key: write.key,
        row,
        version: write.version!,
        changes: plan.changes,
        values: {
          ...columnsAfter(row, plan.changes, plan.cleared.columns),
          locks: plan.locks ?? row.locks,
        },
        paths: plan.cleared.paths,
      });
    });
  }
  errors.throwFirst();
  const plans = [...creates, ...updates];
  assertTypesAllowed(
    plans,
    await allowedTypeIds(db, typeIdsOf(plans), { databaseId: database.id }),
  );

  const queued = updates.flatMap((update) => update.paths);
  await db.transaction(async (tx) => {
    await insertRows(
      tx,
      databaseElements,
      creates.map((create) => ({
        ...(create.changes as Partial<typeof databaseElements.$inferInsert>),
        id: create.id,
        name: create.changes.name as string,
        database_id: database.id,
        locks: create.locks,
      })),
    );
    const written = await updateVersionedRows(
      tx,
      databaseElements,
      [...writtenColumns, 'locks'],
      updates.map((update) => ({
        id: update.row.id,
        version: update.version,
        values: update.values,
      })),
    );
    const lost = updates.filter((update) => !written.has(update.row.id));
    if (lost.length) throw staleRows(lost.map((update) => update.key));
    await clearIncoherentStoreTemperaturesOf(
      tx,
      updates.map((update) => update.row.id),
    );
    await queueStorageDeletions(tx, queued);
  });
  await deleteQueuedFiles(db, deps.storage, queued);

  const keyOfId = new Map<string, string>();
  for (const write of body.rows) {
    const id = write.id ?? creates.find((create) => create.key === write.key)!.id;
    keyOfId.set(id, write.key);
  }
  return underKeys(await databaseRows(db, database, [...keyOfId.keys()]), keyOfId);
}

function isUniqueViolation(error: unknown): boolean {
  const candidates = [error, (error as { cause?: unknown })?.cause];
  return candidates.some((item) => (item as { code?: string })?.code === '23505');
}

/**
 * POST /api/stores/:storeId/elements/bulk: overrides (`origin_id`) and elements of the store's
 * own created, changed rows updated, in one transaction, as POST /api/stores/:storeId/elements
 * and PATCH /api/storeElements/:id would: a field the origin locks refused
 * (element/field-locked), no locks. A database row someone else has overridden since it was
 * read is stale like a changed row.
 */
export async function saveStoreBulk(
  deps: Deps,
  scope: Scope,
  storeId: string,
  body: BulkElementsSaveBody,
): Promise<BulkElementRow[]> {
  const { db } = deps;
  const store = await findEditableStore(db, scope, storeId);
  // A customer edits its store on the single screens, not in expert mode (spec 001 §2.1).
  assertExpertModeUser(scope);
  assertDistinctRows(body.rows);
  const structure = new RowErrors();
  for (const write of body.rows) {
    if (write.locks !== undefined) {
      structure.add(
        write.key,
        new AppError('validation/invalid-input', 'Locks are set on database elements.', [
          { path: 'locks', message: 'Not a store element field.' },
        ]),
      );
    }
  }
  structure.throwFirst();

  const ids = body.rows.flatMap((write) => (write.id ? [write.id] : []));
  const originIds = body.rows.flatMap((write) =>
    !write.id && write.origin_id ? [write.origin_id] : [],
  );
  const databaseId = store.database_id;
  // The rows with their origin (in the store's current database only), the origins of the
  // new overrides, and the store's overrides of those origins: three queries.
  const [existingRows, origins, overrides] = await Promise.all([
    ids.length
      ? db
          .select({ row: storeElements, origin: databaseElements })
          .from(storeElements)
          .leftJoin(
            databaseElements,
            and(
              eq(databaseElements.id, storeElements.origin_id),
              databaseId ? eq(databaseElements.database_id, databaseId) : sql`false`,
            ),
          )
          .where(and(eq(storeElements.store_id, store.id), inArray(storeElements.id, ids)))
      : Promise.resolve([]),
    originIds.length && databaseId
      ? db
          .select()
          .from(databaseElements)
          .where(
            and(
              eq(databaseElements.database_id, databaseId),
              inArray(databaseElements.id, originIds),
            ),
          )
      : Promise.resolve([] as DatabaseElementRow[]),
    originIds.length
      ? db
          .select({ origin_id: storeElements.origin_id })
          .from(storeElements)
          .where(
            and(eq(storeElements.store_id, store.id), inArray(storeElements.origin_id, originIds)),
          )
      : Promise.resolve([]),
  ]);
  const existing = new Map(existingRows.map((item) => [item.row.id, item]));
  const originById = new Map(origins.map((row) => [row.id, row]));
  const overridden = new Set(overrides.map((item) => item.origin_id));

  const missing = body.rows.filter((write) => write.id && !existing.has(write.id));
  if (missing.length) {
    throw new AppError(
      'not-found',
      undefined,
      missing.flatMap((write) => missingRow(write.key).issues ?? []),
    );
  }
  const lookups = new RowErrors();
  for (const write of body.rows) {
    if (write.id) {
      const row = existing.get(write.id)!.row;
      if (write.origin_id !== undefined && write.origin_id !== row.origin_id) {
        lookups.add(
          write.key,
          new AppError('validation/invalid-input', 'The origin of a row does not change.', [
            { path: 'origin_id', message: 'Not the origin of the row.' },
          ]),
        );
      }
    } else if (write.origin_id && !originById.has(write.origin_id)) {
      lookups.add(write.key, new AppError('element/unknown-origin'));
    }
  }
  lookups.throwFirst();
  // Locked fields first, as the single calls check them before anything else.
  const locked = new RowErrors();
  for (const write of body.rows) {
    const origin = write.id
      ? existing.get(write.id)!.origin
      : write.origin_id
        ? originById.get(write.origin_id)!
        : null;
    if (origin) {
      locked.check(write.key, () =>
        assertNothingLocked(locksOf(origin), write.values as Record<string, unknown>),
      );
    }
  }
  locked.throwFirst();
  const stale = body.rows.filter((write) =>
    write.id
      ? existing.get(write.id)!.row.version !== write.version
      : write.origin_id !== undefined &&
        write.origin_id !== null &&
        overridden.has(write.origin_id),
  );
  if (stale.length) throw staleRows(stale.map((write) => write.key));

  const errors = new RowErrors();
  const creates: {
    key: string;
    id: string;
    origin: DatabaseElementRow | null;
    own: FieldValues;
    changes: FieldValues;
  }[] = [];
  const updates: {
    key: string;
    row: StoreElementRow;
    version: number;
    changes: FieldValues;
    values: Record<string, unknown>;
    paths: string[];
  }[] = [];
  const creating = new Set<string>();
  for (const write of body.rows) {
    errors.check(write.key, () => {
      if (!write.id) {
        const origin = write.origin_id ? originById.get(write.origin_id)! : null;
        if (origin && creating.has(origin.id)) throw new AppError('element/already-overridden');
        if (origin) creating.add(origin.id);
        const plan = planStoreElementCreate(origin, write.values);
        creates.push({ key: write.key, id: randomUUID(), origin, ...plan });
        return;
      }
      const { row, origin } = existing.get(write.id)!;
      const plan = planStoreElementUpdate(row, origin, write.values);
      updates.push({
        key: write.key,
        row,
        version: write.version!,
        changes: plan.changes,
        values: columnsAfter(row, plan.changes, plan.cleared.columns),
        paths: plan.cleared.paths,
      });
    });
  }
  errors.throwFirst();
  const plans = [...creates, ...updates];
  assertTypesAllowed(plans, await allowedTypeIds(db, typeIdsOf(plans), { store }));

  const queued = updates.flatMap((update) => update.paths);
  try {
    await db.transaction(async (tx) => {
      await insertRows(
        tx,
        storeElements,
        creates.map((create) => ({
          ...(create.own as Partial<typeof storeElements.$inferInsert>),
          id: create.id,
          store_id: store.id,
          origin_id: create.origin?.id ?? null,
          probe_id: null,
        })),
      );
      const written = await updateVersionedRows(
        tx,
        storeElements,
        writtenColumns,
        updates.map((update) => ({
          id: update.row.id,
          version: update.version,
          values: update.values,
        })),
      );
      const lost = updates.filter((update) => !written.has(update.row.id));
      if (lost.length) throw staleRows(lost.map((update) => update.key));
      await queueStorageDeletions(tx, queued);
    });
  } catch (error) {
    // An override created meanwhile by someone else (the unique store/origin index).
    if (isUniqueViolation(error)) {
      throw staleRows(creates.filter((create) => create.origin).map((create) => create.key));
    }
    throw error;
  }
  await deleteQueuedFiles(db, deps.storage, queued);

  const keyOfId = new Map<string, string>();
  for (const write of body.rows) {
    const id = write.id ?? creates.find((create) => create.key === write.key)!.id;
    keyOfId.set(id, write.key);
  }
  return underKeys(await storeRows(db, store, [...keyOfId.keys()]), keyOfId);
}
