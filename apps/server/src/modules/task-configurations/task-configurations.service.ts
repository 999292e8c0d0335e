import { copySuffix } from '@mise/shared/catalogue/constants';
import { compareNames, mergeStoreRows } from '@mise/shared/catalogue/rules';
import type { ModuleKey } from '@mise/shared/organisation/constants';
import {
  type ConfigurationModule,
  defaultRecurrence,
  defaultTaskConfigurationLocks,
} from '@mise/shared/tasks/constants';
import {
  dayInZone,
  isValidRecurrence,
  listsFromWindows,
  normalizeRecurrence,
  validateSchedules,
} from '@mise/shared/tasks/rules';
import type {
  TaskConfiguration,
  TaskConfigurationInput,
  TaskConfigurationListItem,
  UpdateTaskConfigurationBody,
} from '@mise/shared/tasks/schemas';
import { and, asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client';
import {
  type databases,
  stores,
  storeTaskConfigurations,
  taskConfigurations,
  taskTypes,
} from '../../db/schema';
import { AppError, notFound } from '../../platform/errors';
import type { Scope } from '../../platform/scope';
import { findDatabaseInScope } from '../databases/databases.service';
import type { ElementSnapshot } from '../elements/element-snapshots';
import { assertDatabaseWriter, canWriteDatabase } from '../elements/elements.policy';
import {
  canEditStore,
  findEditableStore,
  findStoreInScope,
  type StoreRow,
  storeHiddenModules,
} from '../stores/stores.service';
import {
  canonicalReferencesIn,
  configurationElementChoices,
  type ElementChoice,
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
  emptyContent,
  itemCountOf,
  locksOf,
  moduleOfContent,
  type StoreConfigurationRow,
} from './task-configuration-values';
import { allowedTaskTypeIds } from './task-types.service';

type DatabaseRow = typeof databases.$inferSelect;

/* ---------- Lookups and permissions ---------- */

export type DatabaseConfigurationRef = {
  level: 'database';
  row: DatabaseConfigurationRow;
  database: DatabaseRow;
};
export type StoreConfigurationRef = {
  level: 'store';
  row: StoreConfigurationRow;
  store: StoreRow;
  /** The origin, when it belongs to the store's current database. */
  origin: DatabaseConfigurationRow | null;
};
export type ConfigurationRef = DatabaseConfigurationRef | StoreConfigurationRef;

/** A database configuration whose database is in the scope (404 otherwise). */
export async function findDatabaseConfiguration(
  db: Database,
  scope: Scope,
  id: string,
  options: { isWrite: boolean } = { isWrite: false },
): Promise<DatabaseConfigurationRef> {
  const [row] = await db.select().from(taskConfigurations).where(eq(taskConfigurations.id, id));
  if (!row) throw notFound();
  const database = await findDatabaseInScope(db, scope, row.database_id);
  if (options.isWrite) assertDatabaseWriter(scope);
  return { level: 'database', row, database };
}

/** The origin of a store configuration counts only when it belongs to the store's current database. */
async function findOrigin(
  db: Pick<Database, 'select'>,
  store: Pick<StoreRow, 'database_id'>,
  originId: string | null,
): Promise<DatabaseConfigurationRow | null> {
  if (!originId || !store.database_id) return null;
  const [row] = await db
    .select()
    .from(taskConfigurations)
    .where(
      and(
        eq(taskConfigurations.id, originId),
        eq(taskConfigurations.database_id, store.database_id),
      ),
    );
  return row ?? null;
}

export async function findStoreConfiguration(
  db: Database,
  scope: Scope,
  id: string,
  options: { isWrite: boolean } = { isWrite: false },
): Promise<StoreConfigurationRef> {
  const [row] = await db
    .select()
    .from(storeTaskConfigurations)
    .where(eq(storeTaskConfigurations.id, id));
  if (!row) throw notFound();
  const store = options.isWrite
    ? await findEditableStore(db, scope, row.store_id)
    : await findStoreInScope(db, scope, row.store_id);
  return { level: 'store', row, store, origin: await findOrigin(db, store, row.origin_id) };
}

/* ---------- Presentation ---------- */

async function typeOf(
  db: Database,
  typeId: string | null,
): Promise<{ name: string | null; color: string | null }> {
  if (!typeId) return { name: null, color: null };
  const [row] = await db
    .select({ name: taskTypes.name, color: taskTypes.color })
    .from(taskTypes)
    .where(eq(taskTypes.id, typeId));
  return { name: row?.name ?? null, color: row?.color ?? null };
}

/** The modules hidden on a store: its own and its database's (the stores module's rule). */
function hiddenModulesOf(db: Database, store: StoreRow): Promise<ModuleKey[]> {
  return storeHiddenModules(db, store);
}

/**
 * A task of a module the database or store hides is never generated: creating, changing or
 * duplicating one is refused (issue 13), before anything is written.
 */
function assertModuleShown(hiddenModules: readonly string[], module: ConfigurationModule): void {
  if (hiddenModules.includes(module)) throw new AppError('task-configuration/hidden-module');
}

async function presentEffective(
  db: Database,
  effective: Effective,
  owner: ElementOwner,
): Promise<
  Pick<
    TaskConfiguration,
    keyof Effective['values'] | 'module' | 'type_name' | 'type_color' | 'locks' | 'field_states'
  > & { element_names: Record<string, string> }
> {
  const [type, names] = await Promise.all([
    typeOf(db, effective.values.type_id),
    visibleElementNames(db, owner, elementIdsOf(effective.values.configuration)),
  ]);
  return {
    ...effective.values,
    module: effective.module,
    type_name: type.name,
    type_color: type.color,
    locks: effective.locks,
    field_states: effective.states,
    element_names: Object.fromEntries(names),
  };
}

export async function presentDatabaseConfiguration(
  db: Database,
  scope: Scope,
  ref: DatabaseConfigurationRef,
): Promise<TaskConfiguration> {
  const { row, database } = ref;
  return {
    ...(await presentEffective(db, effectiveDatabaseConfiguration(row), {
      level: 'database',
      databaseId: database.id,
    })),
    id: row.id,
    level: 'database',
    database_id: database.id,
    store_id: null,
    origin_id: null,
    is_remote: false,
    hidden_modules: database.hidden_modules as ModuleKey[],
    editable: canWriteDatabase(scope),
    version: row.version,
    updated_at: row.updated_at.toISOString(),
  };
}

/** A store configuration (row null: a database configuration the store has not overridden). */
export async function presentStoreConfiguration(
  db: Database,
  scope: Scope,
  store: StoreRow,
  row: StoreConfigurationRow | null,
  origin: DatabaseConfigurationRow | null,
): Promise<TaskConfiguration> {
  const [values, hidden_modules] = await Promise.all([
    presentEffective(db, effectiveStoreConfiguration(row, origin), { level: 'store', store }),
    hiddenModulesOf(db, store),
  ]);
  return {
    ...values,
    id: row?.id ?? null,
    level: 'store',
    database_id: store.database_id,
    store_id: store.id,
    origin_id: origin?.id ?? null,
    is_remote: row !== null,
    hidden_modules,
    editable: canEditStore(scope, store),
    version: row?.version ?? 0,
    updated_at: (row ?? origin)?.updated_at.toISOString() ?? new Date(0).toISOString(),
  };
}

export function presentConfiguration(
  db: Database,
  scope: Scope,
  ref: ConfigurationRef,
): Promise<TaskConfiguration> {
  return ref.level === 'database'
    ? presentDatabaseConfiguration(db, scope, ref)
    : presentStoreConfiguration(db, scope, ref.store, ref.row, ref.origin);
}

/** GET /api/stores/:storeId/taskConfigurations/origin/:originId. */
export async function presentOriginForStore(
  db: Database,
  scope: Scope,
  storeId: string,
  originId: string,
): Promise<TaskConfiguration> {
  const store = await findStoreInScope(db, scope, storeId);
  const origin = await findOrigin(db, store, originId);
  if (!origin) throw notFound();
  const [row] = await db
    .select()
    .from(storeTaskConfigurations)
    .where(
      and(
        eq(storeTaskConfigurations.store_id, store.id),
        eq(storeTaskConfigurations.origin_id, origin.id),
      ),
    );
  return presentStoreConfiguration(db, scope, store, row ?? null, origin);
}

/* ---------- Lists ---------- */

export type ListQuery = { search?: string; includeInactive: boolean };

const folded = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLocaleLowerCase();

function matches(item: TaskConfigurationListItem, query: ListQuery): boolean {
  if (!query.includeInactive && !item.active) return false;
  if (query.search && !folded(item.name).includes(folded(query.search))) return false;
  return true;
}

type TypeColumns = { name: string | null; color: string | null } | null;

function listItem(
  key: string,
  effective: Effective,
  type: TypeColumns,
  extra: Pick<TaskConfigurationListItem, 'id' | 'origin_id' | 'is_remote'>,
): TaskConfigurationListItem {
  const values = effective.values;
  return {
    key,
    ...extra,
    name: values.name,
    module: effective.module,
    active: values.active,
    type_id: values.type_id,
    type_name: values.type_id ? (type?.name ?? null) : null,
    type_color: values.type_id ? (type?.color ?? null) : null,
    recurrence: values.recurrence,
    starts: values.starts,
    durations: values.durations,
    requires_manager: values.requires_manager,
    item_count: itemCountOf(values.configuration),
  };
}

const typeColumns = { name: taskTypes.name, color: taskTypes.color };

/** GET /api/databases/:databaseId/taskConfigurations: one query (types joined), sorted by name. */
export async function listDatabaseConfigurations(
  db: Database,
  scope: Scope,
  databaseId: string,
  query: ListQuery,
): Promise<TaskConfigurationListItem[]> {
  const database = await findDatabaseInScope(db, scope, databaseId);
  const rows = await db
    .select({ configuration: taskConfigurations, type: typeColumns })
    .from(taskConfigurations)
    .leftJoin(taskTypes, eq(taskTypes.id, taskConfigurations.type_id))
    .where(eq(taskConfigurations.database_id, database.id));
  return rows
    .map(({ configuration, type }) =>
      listItem(configuration.id, effectiveDatabaseConfiguration(configuration), type, {
        id: configuration.id,
        origin_id: null,
        is_remote: false,
      }),
    )
    .filter((item) => matches(item, query))
    .sort((left, right) => compareNames(left.name, right.name) || (left.key < right.key ? -1 : 1));
}

/**
 * A store's configurations with their effective values: its database's configurations it has
 * not overridden and its own rows (spec 001 §3.6). Two queries whatever the size, each with the
 * type joined (an override's own type and its origin's).
 */
export async function effectiveStoreItems(
  db: Database,
  store: StoreRow,
): Promise<TaskConfigurationListItem[]> {
  const originType = alias(taskTypes, 'origin_type');
  const originTable = alias(taskConfigurations, 'origin');
  const [databaseRows, storeRows] = await Promise.all([
    store.database_id
      ? db
          .select({ configuration: taskConfigurations, type: typeColumns })
          .from(taskConfigurations)
          .leftJoin(taskTypes, eq(taskTypes.id, taskConfigurations.type_id))
          .where(eq(taskConfigurations.database_id, store.database_id))
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
      .where(eq(storeTaskConfigurations.store_id, store.id)),
  ]);
  const originById = new Map(databaseRows.map((item) => [item.configuration.id, item]));
  const databaseItems = databaseRows.map(({ configuration, type }) => {
    const effective = effectiveStoreConfiguration(null, configuration);
    return {
      id: configuration.id,
      name: effective.values.name,
      item: listItem(`origin:${configuration.id}`, effective, type, {
        id: null,
        origin_id: configuration.id,
        is_remote: false,
      }),
    };
  });
  const storeItems = storeRows.map(({ configuration, type, originType: inheritedType }) => {
    const origin = configuration.origin_id ? originById.get(configuration.origin_id) : undefined;
    const effective = effectiveStoreConfiguration(configuration, origin?.configuration ?? null);
    const typeState = effective.states.type_id;
    const isTypeInherited = typeState === 'locked' || typeState === 'inherited';
    return {
      id: configuration.id,
      origin_id: origin ? origin.configuration.id : null,
      name: effective.values.name,
      item: listItem(configuration.id, effective, isTypeInherited ? inheritedType : type, {
        id: configuration.id,
        origin_id: origin ? origin.configuration.id : null,
        is_remote: true,
      }),
    };
  });
  return mergeStoreRows(databaseItems, storeItems).map(({ row }) => row.item);
}

/** GET …/taskConfigurations/elements?module=: anyone who sees the database or store. */
export async function listElementChoices(
  db: Database,
  scope: Scope,
  owner: { databaseId: string } | { storeId: string },
  module: 'temperatures' | 'oils',
): Promise<ElementChoice[]> {
  if ('databaseId' in owner) {
    const database = await findDatabaseInScope(db, scope, owner.databaseId);
    return configurationElementChoices(db, { level: 'database', databaseId: database.id }, module);
  }
  const store = await findStoreInScope(db, scope, owner.storeId);
  return configurationElementChoices(db, { level: 'store', store }, module);
}

export async function listStoreConfigurations(
  db: Database,
  scope: Scope,
  storeId: string,
  query: ListQuery,
): Promise<TaskConfigurationListItem[]> {
  const store = await findStoreInScope(db, scope, storeId);
  return (await effectiveStoreItems(db, store)).filter((item) => matches(item, query));
}

/* ---------- Validation ---------- */

/*
 * The checks of a save, shared by the single calls below and the bulk save
 * (bulk-configurations.ts): what they need from the database (the referenced elements and
 * types) is read first (loadContentLookups, one set of queries for one row or many), then each
 * row is checked without any query (the plan functions), so a grid row is refused exactly as
 * the task screen would refuse it.
 */

export type Columns = Partial<
  Pick<
    StoreConfigurationRow,
    | 'name'
    | 'description'
    | 'type_id'
    | 'active'
    | 'recurrence'
    | 'recurrence_anchor'
    | 'starts'
    | 'durations'
    | 'requires_manager'
    | 'notify_late'
    | 'configuration'
  >
>;

const nonNullAtDatabase = [
  'active',
  'recurrence',
  'schedules',
  'requires_manager',
  'notify_late',
  'configuration',
] as const;

/** The body's fields that are present, as columns (schedules as sorted starts and durations). */
function columnChanges(input: TaskConfigurationInput, level: 'database' | 'store'): Columns {
  const record = input as Record<string, unknown>;
  if (level === 'database') {
    const missing = nonNullAtDatabase.filter((key) => record[key] === null);
    if (missing.length) {
      throw new AppError(
        'validation/invalid-input',
        undefined,
        missing.map((path) => ({ path, message: 'A database task needs a value here.' })),
      );
    }
  }
  const changes: Columns = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.description !== undefined)
    changes.description = input.description ?? (level === 'database' ? '' : null);
  if (input.type_id !== undefined) changes.type_id = input.type_id;
  if (input.active !== undefined) changes.active = input.active;
  if (input.requires_manager !== undefined) changes.requires_manager = input.requires_manager;
  if (input.notify_late !== undefined) changes.notify_late = input.notify_late;
  if (input.configuration !== undefined) changes.configuration = input.configuration;
  if (input.recurrence !== undefined)
    changes.recurrence = input.recurrence === null ? null : normalizeRecurrence(input.recurrence);
  if (input.schedules !== undefined) {
    if (input.schedules === null) {
      changes.starts = null;
      changes.durations = null;
    } else {
      const lists = listsFromWindows(input.schedules);
      changes.starts = lists.starts;
      changes.durations = lists.durations;
    }
  }
  return changes;
}

function assertValidName(effective: Effective): void {
  if (!effective.values.name.trim()) throw new AppError('task-configuration/invalid-name');
}

/** Storage prefixes an action attachment may point to (keys are built by the server). */
function attachmentPrefixes(owner: ElementOwner): string[] {
  const folder = 'task_configurations_attachments/';
  if (owner.level === 'database') return [`databases/${owner.databaseId}/${folder}`];
  return [
    `stores/${owner.store.id}/${folder}`,
    ...(owner.store.database_id ? [`databases/${owner.store.database_id}/${folder}`] : []),
  ];
}

/** What the content checks read: the referenced elements and types of one or many saves. */
export type ContentLookups = {
  /** The elements visible at the level among those referenced (visibleElementNames). */
  visible: ReadonlyMap<string, string>;
  /** The same elements' snapshots, for their module flags (canonicalReferencesIn). */
  snapshots: ReadonlyMap<string, ElementSnapshot>;
  /** The task types of the level among those referenced. */
  types: ReadonlySet<string>;
};

/** Reads what checkContent needs for these inputs: three queries at most, whatever their number. */
export async function loadContentLookups(
  db: Database,
  owner: ElementOwner,
  inputs: readonly TaskConfigurationInput[],
): Promise<ContentLookups> {
  const elementIds = [...new Set(inputs.flatMap((input) => elementIdsOf(input.configuration)))];
  const typeIds = [
    ...new Set(
      inputs.flatMap((input) => (typeof input.type_id === 'string' ? [input.type_id] : [])),
    ),
  ];
  const [visible, snapshots, types] = await Promise.all([
    visibleElementNames(db, owner, elementIds),
    elementIds.length
      ? elementSnapshotsOf(db, owner, elementIds)
      : Promise.resolve(new Map<string, ElementSnapshot>()),
    allowedTaskTypeIds(
      db,
      typeIds,
      owner.level === 'database' ? { databaseId: owner.databaseId } : { store: owner.store },
    ),
  ]);
  return { visible, snapshots, types };
}

/**
 * The checks after the name, in the contract's order (packages/shared/src/tasks/schemas.ts):
 * the configuration matches the module, an Action task has an action, every schedule window
 * is coherent, the recurrence is one the editor writes, element and type ids are visible at
 * the level. `effective` is the configuration as it would be saved; `lookups` were read for
 * this input (loadContentLookups).
 */
function checkContent(
  input: TaskConfigurationInput,
  effective: Effective,
  owner: ElementOwner,
  lookups: ContentLookups,
): void {
  if (input.configuration && moduleOfContent(input.configuration) !== effective.module)
    throw new AppError('task-configuration/module-mismatch');
  const content = effective.values.configuration;
  if (effective.module === 'actions' && (!('actions' in content) || content.actions.length === 0))
    throw new AppError('task-action-required');
  if (validateSchedules(input.schedules ?? [])) throw new AppError('schedule-incoherent');
  if (typeof input.recurrence === 'string' && !isValidRecurrence(input.recurrence))
    throw new AppError('task-configuration/invalid-recurrence');
  const elementIds = elementIdsOf(input.configuration);
  if (elementIds.length) {
    const unknown = [...new Set(elementIds)].filter((id) => !lookups.visible.has(id));
    // An element whose module is not active (temperatures / oils) cannot be referenced either.
    if (!unknown.length && effective.module !== 'actions') {
      unknown.push(
        ...canonicalReferencesIn(lookups.snapshots, elementIds, effective.module).refused,
      );
    }
    if (unknown.length) {
      throw new AppError(
        'task-configuration/unknown-element',
        undefined,
        unknown.map((id) => ({ path: 'configuration', message: id })),
      );
    }
  }
  if (typeof input.type_id === 'string' && !lookups.types.has(input.type_id))
    throw new AppError('task-configuration/unknown-type');
  if (input.configuration && 'actions' in input.configuration) {
    const prefixes = attachmentPrefixes(owner);
    const refused = input.configuration.actions
      .flatMap((action) => action.attachments)
      .filter(
        (attachment) =>
          attachment.path.includes('..') ||
          !prefixes.some((prefix) => attachment.path.startsWith(prefix)),
      );
    if (refused.length) {
      throw new AppError(
        'validation/invalid-input',
        undefined,
        refused.map((attachment) => ({
          path: 'configuration.actions.attachments',
          message: `Unknown file ${attachment.path}`,
        })),
      );
    }
  }
}

/* ---------- Writes ---------- */

function isUniqueViolation(error: unknown): boolean {
  const candidates = [error, (error as { cause?: unknown })?.cause];
  return candidates.some((item) => (item as { code?: string })?.code === '23505');
}

/** A store row not yet written, to compute what a create would save. */
function draftStoreRow(
  store: StoreRow,
  module: ConfigurationModule | null,
  origin: DatabaseConfigurationRow | null,
  columns: Columns,
): StoreConfigurationRow {
  const now = new Date();
  return {
    id: '',
    store_id: store.id,
    origin_id: origin?.id ?? null,
    module,
    name: null,
    description: null,
    type_id: null,
    active: null,
    recurrence: null,
    recurrence_anchor: null,
    starts: null,
    durations: null,
    requires_manager: null,
    notify_late: null,
    configuration: null,
    version: 0,
    created_at: now,
    updated_at: now,
    ...columns,
  };
}

/**
 * Store-level element references made canonical before saving: an override's id becomes its
 * origin's id and duplicates are dropped (ids that are not the store's are left for
 * checkContent to refuse). `snapshots` are the store's elements among those referenced
 * (elementSnapshotsOf).
 */
export function canonicalInput<T extends { configuration?: unknown }>(
  input: T,
  snapshots: ReadonlyMap<string, ElementSnapshot>,
): T {
  const content = input.configuration as Record<string, unknown> | undefined | null;
  if (!content || typeof content !== 'object') return input;
  const key =
    'temperature_elements' in content
      ? 'temperature_elements'
      : 'oil_elements' in content
        ? 'oil_elements'
        : null;
  if (!key || !Array.isArray(content[key])) return input;
  const { ids: canonical, refused } = canonicalReferencesIn(
    snapshots,
    content[key] as string[],
    null,
  );
  if (refused.length) return input;
  return { ...input, configuration: { ...content, [key]: canonical } };
}

async function withCanonicalElements<T extends { configuration?: unknown }>(
  db: Database,
  store: Pick<StoreRow, 'id' | 'database_id'>,
  input: T,
): Promise<T> {
  const ids = elementIdsOf(input.configuration);
  if (ids.length === 0) return input;
  return canonicalInput(input, await elementSnapshotsOf(db, { level: 'store', store }, ids));
}

/** The zone a database's recurrence anchors use when none of its stores gives one. */
export const defaultAnchorZone = 'Europe/Paris';

/** A store-level recurrence anchor: the store's local today. */
function storeAnchor(store: { timezone_name: string }): string {
  try {
    return dayInZone(new Date(), store.timezone_name);
  } catch {
    return dayInZone(new Date(), defaultAnchorZone);
  }
}

/**
 * A database-level recurrence anchor: today in the zone of the database's first store (by
 * creation), Europe/Paris when it has none.
 */
export async function databaseAnchor(db: Database, databaseId: string): Promise<string> {
  const [first] = await db
    .select({ zone: stores.timezone_name })
    .from(stores)
    .where(eq(stores.database_id, databaseId))
    .orderBy(asc(stores.created_at), asc(stores.id))
    .limit(1);
  return storeAnchor({ timezone_name: first?.zone ?? defaultAnchorZone });
}

type DatabaseCreateBody = TaskConfigurationInput & {
  module?: ConfigurationModule;
  locks?: Partial<Record<string, boolean>>;
};
type DatabaseConfigurationValues = Omit<
  DatabaseConfigurationRow,
  'id' | 'created_at' | 'updated_at'
>;
type StoreConfigurationValues = Omit<StoreConfigurationRow, 'id' | 'created_at' | 'updated_at'>;

/** POST /api/databases/:databaseId/taskConfigurations: the checks, then the row's values. */
export function planDatabaseConfigurationCreate(
  database: DatabaseRow,
  anchor: string,
  body: DatabaseCreateBody,
  lookups: ContentLookups,
): DatabaseConfigurationValues {
  const { module, locks, ...input } = body;
  const changes = columnChanges(input, 'database');
  if (!changes.name?.trim()) throw new AppError('task-configuration/invalid-name');
  if (!module) throw new AppError('task-configuration.select-module');
  assertModuleShown(database.hidden_modules, module);
  const draft: DatabaseConfigurationRow = {
    id: '',
    database_id: database.id,
    module,
    name: changes.name,
    description: changes.description ?? '',
    type_id: changes.type_id ?? null,
    active: changes.active ?? true,
    recurrence: changes.recurrence ?? defaultRecurrence,
    recurrence_anchor: anchor,
    starts: changes.starts ?? [],
    durations: changes.durations ?? [],
    requires_manager: changes.requires_manager ?? false,
    notify_late: changes.notify_late ?? false,
    configuration: changes.configuration ?? emptyContent(module),
    locks: { ...defaultTaskConfigurationLocks, ...locks },
    version: 0,
    created_at: new Date(),
    updated_at: new Date(),
  };
  const effective = effectiveDatabaseConfiguration(draft);
  checkContent(input, effective, { level: 'database', databaseId: database.id }, lookups);
  const { id: _id, created_at: _created, updated_at: _updated, ...values } = draft;
  return values;
}

export async function createDatabaseConfiguration(
  db: Database,
  scope: Scope,
  databaseId: string,
  body: DatabaseCreateBody,
): Promise<DatabaseConfigurationRef> {
  const database = await findDatabaseInScope(db, scope, databaseId);
  assertDatabaseWriter(scope);
  const owner: ElementOwner = { level: 'database', databaseId: database.id };
  const [anchor, lookups] = await Promise.all([
    databaseAnchor(db, database.id),
    loadContentLookups(db, owner, [body]),
  ]);
  const values = planDatabaseConfigurationCreate(database, anchor, body, lookups);
  const [row] = await db.insert(taskConfigurations).values(values).returning();
  return { level: 'database', row: row!, database };
}

/** PATCH /api/taskConfigurations/:id (version checked): the columns changed and the locks. */
export function planDatabaseConfigurationUpdate(
  row: DatabaseConfigurationRow,
  database: DatabaseRow,
  input: TaskConfigurationInput,
  locks: Partial<Record<string, boolean>> | undefined,
  lookups: ContentLookups,
): { changes: Columns; locks: DatabaseConfigurationRow['locks'] | undefined } {
  const changes = columnChanges(input, 'database');
  const effective = effectiveDatabaseConfiguration({
    ...row,
    ...(changes as Partial<DatabaseConfigurationRow>),
  });
  assertValidName(effective);
  assertModuleShown(database.hidden_modules, effective.module);
  checkContent(input, effective, { level: 'database', databaseId: database.id }, lookups);
  return { changes, locks: locks ? { ...locksOf(row), ...locks } : undefined };
}

/** PATCH /api/taskConfigurations/:id: versioned; the module cannot change. */
export async function updateDatabaseConfiguration(
  db: Database,
  scope: Scope,
  id: string,
  body: UpdateTaskConfigurationBody,
): Promise<DatabaseConfigurationRef> {
  const ref = await findDatabaseConfiguration(db, scope, id, { isWrite: true });
  const { version, locks: lockChanges, ...input } = body;
  if (ref.row.version !== version) throw new AppError('conflict/stale-version');
  const lookups = await loadContentLookups(db, { level: 'database', databaseId: ref.database.id }, [
    input,
  ]);
  const { changes, locks } = planDatabaseConfigurationUpdate(
    ref.row,
    ref.database,
    input,
    lockChanges,
    lookups,
  );
  const [row] = await db
    .update(taskConfigurations)
    .set({
      ...(changes as Partial<DatabaseConfigurationRow>),
      ...(locks ? { locks } : {}),
      version: sql`${taskConfigurations.version} + 1`,
      updated_at: new Date(),
    })
    .where(and(eq(taskConfigurations.id, id), eq(taskConfigurations.version, version)))
    .returning();
  if (!row) throw new AppError('conflict/stale-version');
  return { ...ref, row };
}

/** POST /api/taskConfigurations/:id/duplicate: same values and locks, name + ' (Copy)'. */
export async function duplicateDatabaseConfiguration(
  db: Database,
  scope: Scope,
  id: string,
): Promise<DatabaseConfigurationRef> {
  const ref = await findDatabaseConfiguration(db, scope, id, { isWrite: true });
  assertModuleShown(ref.database.hidden_modules, ref.row.module);
  const {
    id: _id,
    version: _version,
    created_at: _created,
    updated_at: _updated,
    ...values
  } = ref.row;
  const [row] = await db
    .insert(taskConfigurations)
    .values({
      ...values,
      name: `${ref.row.name}${copySuffix}`,
      locks: locksOf(ref.row),
      recurrence_anchor: await databaseAnchor(db, ref.row.database_id),
    })
    .returning();
  return { ...ref, row: row! };
}

/**
 * POST /api/stores/:storeId/taskConfigurations (origin found, its locks and an existing
 * override already refused; element references canonical): the checks, then the row's values.
 */
export function planStoreConfigurationCreate(
  store: StoreRow,
  hiddenModules: readonly string[],
  origin: DatabaseConfigurationRow | null,
  body: TaskConfigurationInput & { module?: ConfigurationModule },
  lookups: ContentLookups,
): StoreConfigurationValues {
  const { module: bodyModule, ...input } = body;
  if (origin && bodyModule && bodyModule !== origin.module) {
    throw new AppError('validation/invalid-input', 'An override keeps the module of its origin.', [
      { path: 'module', message: 'Not the module of the origin.' },
    ]);
  }
  const changes = columnChanges(input, 'store');
  const module = origin?.module ?? bodyModule ?? null;
  assertValidName(
    effectiveStoreConfiguration(draftStoreRow(store, module, origin, changes), origin),
  );
  if (!module) throw new AppError('task-configuration.select-module');
  assertModuleShown(hiddenModules, module);
  // A store's own configuration starts from the defaults of a new one; an override from nothing.
  const own: Columns = origin
    ? changes
    : {
        description: '',
        active: true,
        recurrence: defaultRecurrence,
        starts: [],
        durations: [],
        requires_manager: false,
        notify_late: false,
        configuration: emptyContent(module),
        ...changes,
      };
  const draft = draftStoreRow(store, module, origin, {
    ...own,
    // The store's own anchor: always for its own configuration, for an override once it sets a recurrence.
    recurrence_anchor: !origin || own.recurrence ? storeAnchor(store) : null,
  });
  const effective = effectiveStoreConfiguration(draft, origin);
  checkContent(input, effective, { level: 'store', store }, lookups);
  const { id: _id, created_at: _created, updated_at: _updated, ...values } = draft;
  return values;
}

/**
 * POST /api/stores/:storeId/taskConfigurations: a configuration of the store's own (its
 * module required), or an override of `origin_id` (the origin's module).
 */
export async function createStoreConfiguration(
  db: Database,
  scope: Scope,
  storeId: string,
  body: TaskConfigurationInput & { module?: ConfigurationModule; origin_id?: string },
): Promise<StoreConfigurationRef> {
  const store = await findEditableStore(db, scope, storeId);
  const { origin_id, ...sent } = body;
  const input = await withCanonicalElements(db, store, sent);
  let origin: DatabaseConfigurationRow | null = null;
  if (origin_id) {
    origin = await findOrigin(db, store, origin_id);
    if (!origin) throw new AppError('task-configuration/unknown-origin');
    assertNothingLocked(locksOf(origin), input as Record<string, unknown>);
    const [existing] = await db
      .select({ id: storeTaskConfigurations.id })
      .from(storeTaskConfigurations)
      .where(
        and(
          eq(storeTaskConfigurations.store_id, store.id),
          eq(storeTaskConfigurations.origin_id, origin.id),
        ),
      );
    if (existing) throw new AppError('task-configuration/already-overridden');
  }
  const [hiddenModules, lookups] = await Promise.all([
    hiddenModulesOf(db, store),
    loadContentLookups(db, { level: 'store', store }, [input]),
  ]);
  const values = planStoreConfigurationCreate(store, hiddenModules, origin, input, lookups);
  try {
    const [row] = await db.insert(storeTaskConfigurations).values(values).returning();
    return { level: 'store', row: row!, store, origin };
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('task-configuration/already-overridden');
    throw error;
  }
}

/**
 * PATCH /api/storeTaskConfigurations/:id (locked fields already refused, version checked,
 * element references canonical): the columns changed.
 */
export function planStoreConfigurationUpdate(
  ref: Pick<StoreConfigurationRef, 'row' | 'origin' | 'store'>,
  hiddenModules: readonly string[],
  input: TaskConfigurationInput,
  lookups: ContentLookups,
): Columns {
  const changes = columnChanges(input, 'store');
  if (ref.origin && changes.recurrence !== undefined) {
    // An override that sets its own recurrence counts it from that day; null follows the origin.
    const isChanged = changes.recurrence !== ref.row.recurrence;
    changes.recurrence_anchor =
      changes.recurrence === null
        ? null
        : isChanged
          ? storeAnchor(ref.store)
          : ref.row.recurrence_anchor;
  }
  const effective = effectiveStoreConfiguration(
    { ...ref.row, ...(changes as Partial<StoreConfigurationRow>) },
    ref.origin,
  );
  assertValidName(effective);
  assertModuleShown(hiddenModules, effective.module);
  checkContent(input, effective, { level: 'store', store: ref.store }, lookups);
  return changes;
}

/** PATCH /api/storeTaskConfigurations/:id: locked fields refused, the rest as at database level. */
export async function updateStoreConfiguration(
  db: Database,
  scope: Scope,
  id: string,
  body: UpdateTaskConfigurationBody,
): Promise<StoreConfigurationRef> {
  const ref = await findStoreConfiguration(db, scope, id, { isWrite: true });
  const { version, locks, ...sent } = body;
  const input = await withCanonicalElements(db, ref.store, sent);
  if (locks !== undefined) {
    throw new AppError('validation/invalid-input', 'Locks are set on database tasks.', [
      { path: 'locks', message: 'Not a store task field.' },
    ]);
  }
  if (ref.origin) assertNothingLocked(locksOf(ref.origin), input as Record<string, unknown>);
  if (ref.row.version !== version) throw new AppError('conflict/stale-version');
  const [hiddenModules, lookups] = await Promise.all([
    hiddenModulesOf(db, ref.store),
    loadContentLookups(db, { level: 'store', store: ref.store }, [input]),
  ]);
  const changes = planStoreConfigurationUpdate(ref, hiddenModules, input, lookups);
  const [row] = await db
    .update(storeTaskConfigurations)
    .set({
      ...(changes as Partial<StoreConfigurationRow>),
      version: sql`${storeTaskConfigurations.version} + 1`,
      updated_at: new Date(),
    })
    .where(and(eq(storeTaskConfigurations.id, id), eq(storeTaskConfigurations.version, version)))
    .returning();
  if (!row) throw new AppError('conflict/stale-version');
  return { ...ref, row };
}

/**
 * POST /api/storeTaskConfigurations/:id/duplicate: a configuration of the store's own (no
 * origin) with the effective values and module, name + ' (Copy)'.
 */
export async function duplicateStoreConfiguration(
  db: Database,
  scope: Scope,
  id: string,
): Promise<StoreConfigurationRef> {
  const ref = await findStoreConfiguration(db, scope, id, { isWrite: true });
  const effective = effectiveStoreConfiguration(ref.row, ref.origin);
  assertModuleShown(await hiddenModulesOf(db, ref.store), effective.module);
  const values = effective.values;
  const [row] = await db
    .insert(storeTaskConfigurations)
    .values({
      store_id: ref.store.id,
      origin_id: null,
      module: effective.module,
      name: `${values.name}${copySuffix}`,
      description: values.description,
      type_id: values.type_id,
      active: values.active,
      recurrence: values.recurrence,
      recurrence_anchor: storeAnchor(ref.store),
      starts: values.starts,
      durations: values.durations,
      requires_manager: values.requires_manager,
      notify_late: values.notify_late,
      configuration: values.configuration,
    })
    .returning();
  return { level: 'store', row: row!, store: ref.store, origin: null };
}
