import { randomUUID } from 'node:crypto';
import type {
  BulkTaskConfigurationRow,
  BulkTaskConfigurationsResponse,
  BulkTaskConfigurationsSaveBody,
} from '@mise/shared/catalogue/bulk';
import { compareNames, type FieldState, mergeStoreRows } from '@mise/shared/catalogue/rules';
import type { ModuleKey } from '@mise/shared/organisation/constants';
import type { TaskConfigurationInput } from '@mise/shared/tasks/schemas';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client';
import {
  type databases,
  storeTaskConfigurations,
  taskConfigurations,
  taskTypes,
} from '../../db/schema';
import { AppError } from '../../platform/errors';
import type { Scope } from '../../platform/scope';
import { findDatabaseInScope } from '../databases/databases.service';
import {
  assertDistinctRows,
  insertRows,
  RowErrors,
  rowError,
  staleRows,
  updateVersionedRows,
} from '../elements/bulk-elements';
import { assertExpertModeUser, canUseExpertMode } from '../elements/bulk-elements.policy';
import { assertDatabaseWriter, canWriteDatabase } from '../elements/elements.policy';
import {
  canEditStore,
  findEditableStore,
  findStoreInScope,
  type StoreRow,
  storeHiddenModules,
} from '../stores/stores.service';
import {
  type ElementOwner,
  elementSnapshotsOf,
  visibleElementNames,
} from './configuration-elements';
import {
  assertNothingLocked,
  type DatabaseConfigurationRow,
  type Effective,
  effectiveDatabaseConfiguration,
  effectiveStoreConfiguration,
  elementIdsOf,
  itemCountOf,
  locksOf,
  type StoreConfigurationRow,
} from './task-configuration-values';
import {
  type Columns,
  canonicalInput,
  databaseAnchor,
  loadContentLookups,
  planDatabaseConfigurationCreate,
  planDatabaseConfigurationUpdate,
  planStoreConfigurationCreate,
  planStoreConfigurationUpdate,
} from './task-configurations.service';

/*
 * Expert mode, task configurations (spec 001 §2.9, §4; issue 19; contract
 * packages/shared/src/catalogue/bulk.ts), built as the elements' (bulk-elements.ts): reads in a
 * fixed number of queries, every row presented with the one inheritance rule
 * (effectiveStoreConfiguration) as the task screen does; saves checked by the single calls'
 * plan functions over lookups read once for all rows (elements, types, origins), versions
 * compared, then one INSERT and one UPDATE in one transaction.
 */

type DatabaseRow = typeof databases.$inferSelect;
type TypeColumns = { name: string | null; color: string | null } | null;

/* ---------- Presentation ---------- */

/** A grid row, its keys in the response schema's order (the JSON is the same as zod's). */
function bulkRow(
  effective: Effective,
  type: TypeColumns,
  names: ReadonlyMap<string, string>,
  extra: Pick<
    BulkTaskConfigurationRow,
    | 'id'
    | 'level'
    | 'database_id'
    | 'store_id'
    | 'origin_id'
    | 'is_remote'
    | 'version'
    | 'updated_at'
    | 'key'
  >,
): BulkTaskConfigurationRow {
  const values = effective.values;
  const element_names: Record<string, string> = {};
  for (const id of elementIdsOf(values.configuration)) {
    const name = names.get(id);
    if (name !== undefined) element_names[id] = name;
  }
  return {
    ...values,
    id: extra.id,
    level: extra.level,
    database_id: extra.database_id,
    store_id: extra.store_id,
    origin_id: extra.origin_id,
    is_remote: extra.is_remote,
    module: effective.module,
    type_name: values.type_id ? (type?.name ?? null) : null,
    type_color: values.type_id ? (type?.color ?? null) : null,
    locks: effective.locks,
    field_states: effective.states,
    element_names,
    version: extra.version,
    updated_at: extra.updated_at,
    key: extra.key,
    item_count: itemCountOf(values.configuration),
  };
}

const typeColumns = { name: taskTypes.name, color: taskTypes.color };

const byName = (left: BulkTaskConfigurationRow, right: BulkTaskConfigurationRow) =>
  compareNames(left.name, right.name) || (left.key < right.key ? -1 : 1);

/** Names of the elements referenced by these configurations, as the level sees them: one query. */
function elementNamesOf(
  db: Database,
  owner: ElementOwner,
  effectives: readonly Effective[],
): Promise<Map<string, string>> {
  return visibleElementNames(
    db,
    owner,
    effectives.flatMap((effective) => elementIdsOf(effective.values.configuration)),
  );
}

/** A database's configurations as grid rows, sorted by name: two queries; `ids` limits them. */
async function databaseRows(
  db: Database,
  database: DatabaseRow,
  ids?: readonly string[],
): Promise<BulkTaskConfigurationRow[]> {
  const rows = await db
    .select({ configuration: taskConfigurations, type: typeColumns })
    .from(taskConfigurations)
    .leftJoin(taskTypes, eq(taskTypes.id, taskConfigurations.type_id))
    .where(
      and(
        eq(taskConfigurations.database_id, database.id),
        ids ? inArray(taskConfigurations.id, [...ids]) : undefined,
      ),
    );
  const effectives = rows.map(({ configuration }) => effectiveDatabaseConfiguration(configuration));
  const names = await elementNamesOf(
    db,
    { level: 'database', databaseId: database.id },
    effectives,
  );
  return rows
    .map(({ configuration, type }, index) =>
      bulkRow(effectives[index]!, type, names, {
        id: configuration.id,
        level: 'database',
        database_id: database.id,
        store_id: null,
        origin_id: null,
        is_remote: false,
        version: configuration.version,
        updated_at: configuration.updated_at.toISOString(),
        key: configuration.id,
      }),
    )
    .sort(byName);
}

/**
 * A store's grid rows: its database's configurations it has not overridden (key
 * `origin:<id>`) and its own rows, sorted by name (mergeStoreRows), as effectiveStoreItems
 * lists them: three queries (database rows, store rows with their own and their origin's
 * type, element names); `ids` limits them to those store rows and their origins.
 */
async function storeRows(
  db: Database,
  store: StoreRow,
  ids?: readonly string[],
): Promise<BulkTaskConfigurationRow[]> {
  const originType = alias(taskTypes, 'origin_type');
  const originTable = alias(taskConfigurations, 'origin');
  const ofStore = and(
    eq(storeTaskConfigurations.store_id, store.id),
    ids ? inArray(storeTaskConfigurations.id, [...ids]) : undefined,
  );
  const [databaseItems, storeItems] = await Promise.all([
    store.database_id
      ? db
          .select({ configuration: taskConfigurations, type: typeColumns })
          .from(taskConfigurations)
          .leftJoin(taskTypes, eq(taskTypes.id, taskConfigurations.type_id))
          .where(
            and(
              eq(taskConfigurations.database_id, store.database_id),
              ids
                ? inArray(
                    taskConfigurations.id,
                    db
                      .select({ id: storeTaskConfigurations.origin_id })
                      .from(storeTaskConfigurations)
                      .where(ofStore),
                  )
                : undefined,
            ),
          )
      : Promise.resolve([]),
    db
      .select({
        configuration: storeTaskConfigurations,
        type: typeColumns,
        originType: { name: originType.name, color: originType.color },
      })
      .from(storeTaskConfigurations)
      .leftJoin(taskTypes, eq(taskTypes.id, storeTaskConfigurations.type_id))
      .leftJoin(originTable, eq(originTable.id, storeTaskConfigurations.origin_id))
      .leftJoin(originType, eq(originType.id, originTable.type_id))
      .where(ofStore),
  ]);
  const originById = new Map(databaseItems.map((item) => [item.configuration.id, item]));
  const fromDatabase = databaseItems.map((item) => ({
    item,
    effective: effectiveStoreConfiguration(null, item.configuration),
  }));
  const fromStore = storeItems.map((item) => {
    const origin = item.configuration.origin_id
      ? (originById.get(item.configuration.origin_id) ?? null)
      : null;
    return {
      item,
      origin,
      effective: effectiveStoreConfiguration(item.configuration, origin?.configuration ?? null),
    };
  });
  const names = await elementNamesOf(db, { level: 'store', store }, [
    ...fromDatabase.map((entry) => entry.effective),
    ...fromStore.map((entry) => entry.effective),
  ]);
  const databaseRowsOut = fromDatabase.map(({ item, effective }) => {
    const row = bulkRow(effective, item.type, names, {
      id: null,
      level: 'store',
      database_id: store.database_id,
      store_id: store.id,
      origin_id: item.configuration.id,
      is_remote: false,
      version: 0,
      updated_at: item.configuration.updated_at.toISOString(),
      key: `origin:${item.configuration.id}`,
    });
    return { id: item.configuration.id, name: row.name, row };
  });
  const storeRowsOut = fromStore.map(({ item, origin, effective }) => {
    const typeState: FieldState = effective.states.type_id;
    const isTypeInherited = typeState === 'locked' || typeState === 'inherited';
    const row = bulkRow(effective, isTypeInherited ? item.originType : item.type, names, {
      id: item.configuration.id,
      level: 'store',
      database_id: store.database_id,
      store_id: store.id,
      origin_id: origin ? origin.configuration.id : null,
      is_remote: true,
      version: item.configuration.version,
      updated_at: item.configuration.updated_at.toISOString(),
      key: item.configuration.id,
    });
    return {
      id: item.configuration.id,
      origin_id: origin ? origin.configuration.id : null,
      name: row.name,
      row,
    };
  });
  // A restricted read (after a save) answers the store rows only, not their origins.
  if (ids) return storeRowsOut.map((entry) => entry.row);
  return mergeStoreRows(databaseRowsOut, storeRowsOut).map((entry) => entry.row.row);
}

/** GET /api/databases/:databaseId/taskConfigurations/bulk. */
export async function readDatabaseBulk(
  db: Database,
  scope: Scope,
  databaseId: string,
): Promise<BulkTaskConfigurationsResponse> {
  const database = await findDatabaseInScope(db, scope, databaseId);
  return {
    rows: await databaseRows(db, database),
    hidden_modules: database.hidden_modules as ModuleKey[],
    editable: canWriteDatabase(scope),
  };
}

/** GET /api/stores/:storeId/taskConfigurations/bulk. */
export async function readStoreBulk(
  db: Database,
  scope: Scope,
  storeId: string,
): Promise<BulkTaskConfigurationsResponse> {
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
function underKeys(
  rows: BulkTaskConfigurationRow[],
  keyOfId: Map<string, string>,
): BulkTaskConfigurationRow[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return [...keyOfId].flatMap(([id, key]) => {
    const row = byId.get(id);
    return row ? [{ ...row, key }] : [];
  });
}

/* ---------- Saves ---------- */

/** The columns a save writes (the module never changes). */
const writtenColumns = [
  'name',
  'description',
  'type_id',
  'active',
  'recurrence',
  'recurrence_anchor',
  'starts',
  'durations',
  'requires_manager',
  'notify_late',
  'configuration',
] as const satisfies readonly (keyof StoreConfigurationRow & keyof DatabaseConfigurationRow)[];

function columnsAfter(
  row: StoreConfigurationRow | DatabaseConfigurationRow,
  changes: Columns,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const key of writtenColumns) values[key] = key in changes ? changes[key] : row[key];
  return values;
}

const moduleChange = () =>
  new AppError('validation/invalid-input', 'The module of a task does not change.', [
    { path: 'module', message: 'Read-only once the task exists.' },
  ]);

function throwMissing(keys: readonly string[]): void {
  if (keys.length === 0) return;
  throw new AppError(
    'not-found',
    undefined,
    keys.flatMap(
      (key) =>
        rowError(key, new AppError('not-found', 'Not a row of this database or store.')).issues ??
        [],
    ),
  );
}

function isUniqueViolation(error: unknown): boolean {
  const candidates = [error, (error as { cause?: unknown })?.cause];
  return candidates.some((item) => (item as { code?: string })?.code === '23505');
}

/**
 * POST /api/databases/:databaseId/taskConfigurations/bulk: new rows created (module required),
 * changed rows updated, in one transaction, as POST /api/databases/:databaseId/taskConfigurations
 * and PATCH /api/taskConfigurations/:id would.
 */
export async function saveDatabaseBulk(
  db: Database,
  scope: Scope,
  databaseId: string,
  body: BulkTaskConfigurationsSaveBody,
): Promise<BulkTaskConfigurationRow[]> {
  const database = await findDatabaseInScope(db, scope, databaseId);
  assertDatabaseWriter(scope);
  assertDistinctRows(body.rows);
  const structure = new RowErrors();
  for (const write of body.rows) {
    if (write.origin_id) {
      structure.add(
        write.key,
        new AppError('validation/invalid-input', 'Origins are for store tasks.', [
          { path: 'origin_id', message: 'Not a database task field.' },
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
          .from(taskConfigurations)
          .where(
            and(
              eq(taskConfigurations.database_id, database.id),
              inArray(taskConfigurations.id, ids),
            ),
          )
      : []
    ).map((row) => [row.id, row]),
  );
  throwMissing(
    body.rows.filter((write) => write.id && !existing.has(write.id)).map((write) => write.key),
  );
  const modules = new RowErrors();
  for (const write of body.rows) {
    const row = write.id ? existing.get(write.id) : undefined;
    if (row && write.values.module !== undefined && write.values.module !== row.module) {
      modules.add(write.key, moduleChange());
    }
  }
  modules.throwFirst();
  const stale = body.rows.filter(
    (write) => write.id && existing.get(write.id)!.version !== write.version,
  );
  if (stale.length) throw staleRows(stale.map((write) => write.key));

  const inputs = body.rows.map((write): TaskConfigurationInput => {
    const { module: _module, ...input } = write.values;
    return input;
  });
  const isCreating = body.rows.some((write) => !write.id);
  const [lookups, anchor] = await Promise.all([
    loadContentLookups(db, { level: 'database', databaseId: database.id }, inputs),
    isCreating ? databaseAnchor(db, database.id) : Promise.resolve(''),
  ]);
  const errors = new RowErrors();
  const creates: { key: string; values: typeof taskConfigurations.$inferInsert }[] = [];
  const updates: {
    key: string;
    id: string;
    version: number;
    values: Record<string, unknown>;
  }[] = [];
  body.rows.forEach((write, index) => {
    errors.check(write.key, () => {
      const row = write.id ? existing.get(write.id)! : null;
      if (!row) {
        const values = planDatabaseConfigurationCreate(
          database,
          anchor,
          { ...write.values, locks: write.locks },
          lookups,
        );
        creates.push({ key: write.key, values: { ...values, id: randomUUID() } });
        return;
      }
      const plan = planDatabaseConfigurationUpdate(
        row,
        database,
        inputs[index]!,
        write.locks,
        lookups,
      );
      updates.push({
        key: write.key,
        id: row.id,
        version: write.version!,
        values: { ...columnsAfter(row, plan.changes), locks: plan.locks ?? row.locks },
      });
    });
  });
  errors.throwFirst();

  await db.transaction(async (tx) => {
    await insertRows(
      tx,
      taskConfigurations,
      creates.map((create) => create.values),
    );
    const written = await updateVersionedRows(
      tx,
      taskConfigurations,
      [...writtenColumns, 'locks'],
      updates,
    );
    const lost = updates.filter((update) => !written.has(update.id));
    if (lost.length) throw staleRows(lost.map((update) => update.key));
  });

  const keyOfId = new Map<string, string>();
  for (const write of body.rows) {
    keyOfId.set(
      write.id ?? creates.find((create) => create.key === write.key)!.values.id!,
      write.key,
    );
  }
  return underKeys(await databaseRows(db, database, [...keyOfId.keys()]), keyOfId);
}

/**
 * POST /api/stores/:storeId/taskConfigurations/bulk: overrides (`origin_id`) and
 * configurations of the store's own created, changed rows updated, in one transaction, as
 * POST /api/stores/:storeId/taskConfigurations and PATCH /api/storeTaskConfigurations/:id
 * would: element references made canonical, a field the origin locks refused
 * (task-configuration/field-locked), no locks. A database row someone else has overridden
 * since it was read is stale like a changed row.
 */
export async function saveStoreBulk(
  db: Database,
  scope: Scope,
  storeId: string,
  body: BulkTaskConfigurationsSaveBody,
): Promise<BulkTaskConfigurationRow[]> {
  const store = await findEditableStore(db, scope, storeId);
  // A customer edits its store on the single screens, not in expert mode (spec 001 §2.1).
  assertExpertModeUser(scope);
  assertDistinctRows(body.rows);
  const structure = new RowErrors();
  for (const write of body.rows) {
    if (write.locks !== undefined) {
      structure.add(
        write.key,
        new AppError('validation/invalid-input', 'Locks are set on database tasks.', [
          { path: 'locks', message: 'Not a store task field.' },
        ]),
      );
    }
  }
  structure.throwFirst();

  const owner: ElementOwner = { level: 'store', store };
  const ids = body.rows.flatMap((write) => (write.id ? [write.id] : []));
  const originIds = body.rows.flatMap((write) =>
    !write.id && write.origin_id ? [write.origin_id] : [],
  );
  const databaseId = store.database_id;
  const referenced = body.rows.flatMap((write) => elementIdsOf(write.values.configuration));
  // The rows with their origin (in the store's current database only), the new overrides'
  // origins, the store's overrides of them, its hidden modules and the elements referenced.
  const [existingRows, origins, overrides, hiddenModules, snapshots] = await Promise.all([
    ids.length
      ? db
          .select({ row: storeTaskConfigurations, origin: taskConfigurations })
          .from(storeTaskConfigurations)
          .leftJoin(
            taskConfigurations,
            and(
              eq(taskConfigurations.id, storeTaskConfigurations.origin_id),
              databaseId ? eq(taskConfigurations.database_id, databaseId) : sql`false`,
            ),
          )
          .where(
            and(
              eq(storeTaskConfigurations.store_id, store.id),
              inArray(storeTaskConfigurations.id, ids),
            ),
          )
      : Promise.resolve([]),
    originIds.length && databaseId
      ? db
          .select()
          .from(taskConfigurations)
          .where(
            and(
              eq(taskConfigurations.database_id, databaseId),
              inArray(taskConfigurations.id, originIds),
            ),
          )
      : Promise.resolve([] as DatabaseConfigurationRow[]),
    originIds.length
      ? db
          .select({ origin_id: storeTaskConfigurations.origin_id })
          .from(storeTaskConfigurations)
          .where(
            and(
              eq(storeTaskConfigurations.store_id, store.id),
              inArray(storeTaskConfigurations.origin_id, originIds),
            ),
          )
      : Promise.resolve([]),
    storeHiddenModules(db, store),
    referenced.length ? elementSnapshotsOf(db, owner, referenced) : Promise.resolve(new Map()),
  ]);
  const existing = new Map(existingRows.map((item) => [item.row.id, item]));
  const originById = new Map(origins.map((row) => [row.id, row]));
  const overridden = new Set(overrides.map((item) => item.origin_id));
  throwMissing(
    body.rows.filter((write) => write.id && !existing.has(write.id)).map((write) => write.key),
  );

  // Element references canonical (an override's id → its origin's), as the single calls.
  const inputs = body.rows.map((write) => canonicalInput(write.values, snapshots));
  const lookups = new RowErrors();
  body.rows.forEach((write) => {
    if (write.id) {
      const { row, origin } = existing.get(write.id)!;
      if (write.origin_id !== undefined && write.origin_id !== row.origin_id) {
        lookups.add(
          write.key,
          new AppError('validation/invalid-input', 'The origin of a row does not change.', [
            { path: 'origin_id', message: 'Not the origin of the row.' },
          ]),
        );
      }
      const module = effectiveStoreConfiguration(row, origin).module;
      if (write.values.module !== undefined && write.values.module !== module) {
        lookups.add(write.key, moduleChange());
      }
    } else if (write.origin_id && !originById.has(write.origin_id)) {
      lookups.add(write.key, new AppError('task-configuration/unknown-origin'));
    }
  });
  lookups.throwFirst();
  const locked = new RowErrors();
  body.rows.forEach((write, index) => {
    const origin = write.id
      ? existing.get(write.id)!.origin
      : write.origin_id
        ? originById.get(write.origin_id)!
        : null;
    if (origin) {
      locked.check(write.key, () =>
        assertNothingLocked(locksOf(origin), inputs[index] as Record<string, unknown>),
      );
    }
  });
  locked.throwFirst();
  const stale = body.rows.filter((write) =>
    write.id
      ? existing.get(write.id)!.row.version !== write.version
      : write.origin_id !== undefined &&
        write.origin_id !== null &&
        overridden.has(write.origin_id),
  );
  if (stale.length) throw staleRows(stale.map((write) => write.key));

  const contentLookups = await loadContentLookups(db, owner, inputs);
  const errors = new RowErrors();
  const creates: {
    key: string;
    isOverride: boolean;
    values: typeof storeTaskConfigurations.$inferInsert;
  }[] = [];
  const updates: { key: string; id: string; version: number; values: Record<string, unknown> }[] =
    [];
  const creating = new Set<string>();
  body.rows.forEach((write, index) => {
    errors.check(write.key, () => {
      const input = inputs[index]!;
      if (!write.id) {
        const origin = write.origin_id ? originById.get(write.origin_id)! : null;
        if (origin && creating.has(origin.id)) {
          throw new AppError('task-configuration/already-overridden');
        }
        if (origin) creating.add(origin.id);
        const values = planStoreConfigurationCreate(
          store,
          hiddenModules,
          origin,
          input,
          contentLookups,
        );
        creates.push({
          key: write.key,
          isOverride: origin !== null,
          values: { ...values, id: randomUUID() },
        });
        return;
      }
      const ref = { ...existing.get(write.id)!, store };
      const { module: _module, ...changesInput } = input;
      const changes = planStoreConfigurationUpdate(
        ref,
        hiddenModules,
        changesInput,
        contentLookups,
      );
      updates.push({
        key: write.key,
        id: ref.row.id,
        version: write.version!,
        values: columnsAfter(ref.row, changes),
      });
    });
  });
  errors.throwFirst();

  try {
    await db.transaction(async (tx) => {
      await insertRows(
        tx,
        storeTaskConfigurations,
        creates.map((create) => create.values),
      );
      const written = await updateVersionedRows(
        tx,
        storeTaskConfigurations,
        writtenColumns,
        updates,
      );
      const lost = updates.filter((update) => !written.has(update.id));
      if (lost.length) throw staleRows(lost.map((update) => update.key));
    });
  } catch (error) {
    // An override created meanwhile by someone else (the unique store/origin index).
    if (isUniqueViolation(error)) {
      throw staleRows(creates.filter((create) => create.isOverride).map((create) => create.key));
    }
    throw error;
  }

  const keyOfId = new Map<string, string>();
  for (const write of body.rows) {
    keyOfId.set(
      write.id ?? creates.find((create) => create.key === write.key)!.values.id!,
      write.key,
    );
  }
  return underKeys(await storeRows(db, store, [...keyOfId.keys()]), keyOfId);
}
