import {
  defaultElementLocks,
  type ElementFieldKey,
  type ElementLockKey,
  type StoreElementTab,
} from '@mise/shared/catalogue/constants';
import {
  compareNames,
  type FieldState,
  mergeStoreRows,
  resolveInheritance,
} from '@mise/shared/catalogue/rules';
import type {
  CreateDatabaseElementBody,
  CreateStoreElementBody,
  Element,
  ElementInput,
  ElementListItem,
  ElementValues,
  Label,
  UpdateElementBody,
} from '@mise/shared/catalogue/schemas';
import type { ModuleKey } from '@mise/shared/organisation/constants';
import { type AnyColumn, and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  databaseElements,
  type databases,
  elementTypes,
  probes,
  storeElements,
  stores,
} from '../../db/schema';
import { AppError, notFound } from '../../platform/errors';
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
import {
  type AttachmentOwner,
  type AttachmentRow,
  attachmentsOf,
  presentAttachment,
  saveAttachmentOrder,
} from './attachments';
import { assertStoreProbe, storeProbesByUid } from './element-probes';
import { isTypeAllowed } from './element-types.service';
import {
  assertNothingLocked,
  assertValidElement,
  completeValues,
  type DatabaseElementRow,
  type Effective,
  effectiveDatabaseValues,
  effectiveStoreValues,
  type FieldValues,
  fieldChanges,
  fieldsOf,
  type Locks,
  locksOf,
  newElementValues,
  type StoreElementRow,
} from './element-values';
import { assertDatabaseWriter, canWriteDatabase } from './elements.policy';
import {
  type LabelRow,
  labelsOfDatabaseElement,
  labelsOfStoreElement,
  presentDatabaseLabels,
  presentStoreLabels,
  saveDatabaseLabels,
  saveStoreLabels,
} from './labels';

type DatabaseRow = typeof databases.$inferSelect;
export type Deps = { db: Database; storage: Storage };

/* ---------- Lookups and permissions ---------- */

export type DatabaseElementRef = {
  level: 'database';
  row: DatabaseElementRow;
  database: DatabaseRow;
};
export type StoreElementRef = {
  level: 'store';
  row: StoreElementRow;
  store: StoreRow;
  /** The origin, when it belongs to the store's current database. */
  origin: DatabaseElementRow | null;
};
export type ElementRef = DatabaseElementRef | StoreElementRef;

/** A database element whose database is in the scope (404 otherwise). */
export async function findDatabaseElement(
  db: Database,
  scope: Scope,
  id: string,
): Promise<DatabaseElementRef> {
  const [row] = await db.select().from(databaseElements).where(eq(databaseElements.id, id));
  if (!row) throw notFound();
  const database = await findDatabaseInScope(db, scope, row.database_id);
  return { level: 'database', row, database };
}

export async function findWritableDatabaseElement(
  db: Database,
  scope: Scope,
  id: string,
): Promise<DatabaseElementRef> {
  const ref = await findDatabaseElement(db, scope, id);
  assertDatabaseWriter(scope);
  return ref;
}

/** The origin of a store element counts only when it belongs to the store's current database. */
async function findOrigin(
  db: Pick<Database, 'select'>,
  store: Pick<StoreRow, 'database_id'>,
  originId: string | null,
): Promise<DatabaseElementRow | null> {
  if (!originId || !store.database_id) return null;
  const [row] = await db
    .select()
    .from(databaseElements)
    .where(
      and(eq(databaseElements.id, originId), eq(databaseElements.database_id, store.database_id)),
    );
  return row ?? null;
}

export async function findStoreElement(
  db: Database,
  scope: Scope,
  id: string,
  options: { isWrite: boolean } = { isWrite: false },
): Promise<StoreElementRef> {
  // The row with its origin in one query: the origin counts only in the store's current
  // database (as findOrigin), answered once the store is known to be in the scope.
  const [found] = await db
    .select({ row: storeElements, origin: databaseElements })
    .from(storeElements)
    .innerJoin(stores, eq(stores.id, storeElements.store_id))
    .leftJoin(
      databaseElements,
      and(
        eq(databaseElements.id, storeElements.origin_id),
        eq(databaseElements.database_id, stores.database_id),
      ),
    )
    .where(eq(storeElements.id, id));
  if (!found) throw notFound();
  const { row, origin } = found;
  const store = options.isWrite
    ? await findEditableStore(db, scope, row.store_id)
    : await findStoreInScope(db, scope, row.store_id);
  return { level: 'store', row, store, origin: store.database_id ? origin : null };
}

/** Throws element/field-locked when the origin of a store element locks one of the keys. */
export function assertUnlocked(ref: ElementRef, keys: ElementLockKey[]): void {
  if (ref.level !== 'store' || !ref.origin) return;
  const locks = locksOf(ref.origin);
  assertNothingLocked(locks, Object.fromEntries(keys.map((key) => [key, true])), keys);
}

/** The version the caller read must be the element's (409 conflict/stale-version otherwise). */
export function assertVersion(ref: ElementRef, version: number): void {
  if (ref.row.version !== version) throw new AppError('conflict/stale-version');
}

/** Storage prefix of an element's files (spec 001 §7). */
export function ownerPrefix(ref: ElementRef): string {
  return ref.level === 'database' ? `databases/${ref.database.id}` : `stores/${ref.store.id}`;
}

export function attachmentOwner(ref: ElementRef): AttachmentOwner {
  return ref.level === 'database'
    ? { level: 'database', elementId: ref.row.id, databaseId: ref.database.id }
    : { level: 'store', elementId: ref.row.id, storeId: ref.store.id };
}

/* ---------- Presentation ---------- */

async function typeName(db: Database, typeId: string | null): Promise<string | null> {
  if (!typeId) return null;
  const [row] = await db
    .select({ name: elementTypes.name })
    .from(elementTypes)
    .where(eq(elementTypes.id, typeId));
  return row?.name ?? null;
}

function base(
  effective: Effective,
  extra: {
    labels: Label[];
    attachments: Element['attachments'];
    labelsState: FieldState;
    attachmentsState: FieldState;
  },
) {
  return {
    ...effective.values,
    locks: effective.locks,
    field_states: {
      ...effective.states,
      labels: extra.labelsState,
      attachments: extra.attachmentsState,
    },
    labels: extra.labels,
    attachments: extra.attachments,
  };
}

export async function presentDatabaseElement(
  db: Database,
  scope: Scope,
  ref: DatabaseElementRef,
): Promise<Element> {
  const { row, database } = ref;
  const owner = attachmentOwner(ref);
  const [labels, attachments, type_name] = await Promise.all([
    labelsOfDatabaseElement(db, [row.id]),
    attachmentsOf(db, owner),
    typeName(db, row.type_id),
  ]);
  return {
    ...base(effectiveDatabaseValues(row), {
      labels: presentDatabaseLabels(labels),
      attachments: attachments.map((attachment) => presentAttachment(attachment, false)),
      labelsState: 'own',
      attachmentsState: 'own',
    }),
    id: row.id,
    level: 'database',
    database_id: database.id,
    store_id: null,
    origin_id: null,
    is_remote: false,
    probe_id: null,
    probe: null,
    probe_missing: false,
    type_name,
    hidden_modules: database.hidden_modules as ModuleKey[],
    editable: canWriteDatabase(scope),
    version: row.version,
    updated_at: row.updated_at.toISOString(),
  };
}

/** GET /api/databases/:databaseId/elements/context. */
export async function databaseElementContext(db: Database, scope: Scope, databaseId: string) {
  const database = await findDatabaseInScope(db, scope, databaseId);
  return {
    hidden_modules: database.hidden_modules as ModuleKey[],
    editable: canWriteDatabase(scope),
  };
}

/** GET /api/stores/:storeId/elements/context: the store's and its database's hidden modules. */
export async function storeElementContext(db: Database, scope: Scope, storeId: string) {
  const store = await findStoreInScope(db, scope, storeId);
  return {
    hidden_modules: await storeHiddenModules(db, store),
    editable: canEditStore(scope, store),
  };
}

/** Everything a store element is presented or duplicated from. */
export async function loadStoreParts(
  db: Database,
  row: StoreElementRow | null,
  origin: DatabaseElementRow | null,
) {
  const [originLabels, originAttachments, ownLabels, ownAttachments] = await Promise.all([
    origin ? labelsOfDatabaseElement(db, [origin.id]) : Promise.resolve(null),
    origin
      ? attachmentsOf(db, {
          level: 'database',
          elementId: origin.id,
          databaseId: origin.database_id,
        })
      : Promise.resolve([] as AttachmentRow[]),
    row ? labelsOfStoreElement(db, row.id) : Promise.resolve([] as LabelRow[]),
    row
      ? attachmentsOf(db, { level: 'store', elementId: row.id, storeId: row.store_id })
      : Promise.resolve([] as AttachmentRow[]),
  ]);
  return combineStoreParts(row, origin, {
    originLabels,
    originAttachments,
    ownLabels,
    ownAttachments,
  });
}

/**
 * A store element's effective values, labels and attachments from its rows and its origin's
 * (loaded by loadStoreParts, or for many elements at once by an export).
 */
export function combineStoreParts(
  row: StoreElementRow | null,
  origin: DatabaseElementRow | null,
  loaded: {
    originLabels: LabelRow[] | null;
    originAttachments: AttachmentRow[];
    ownLabels: LabelRow[];
    ownAttachments: AttachmentRow[];
  },
) {
  const { originLabels, originAttachments, ownLabels, ownAttachments } = loaded;
  const effective = effectiveStoreValues(row, origin);
  const locks = effective.locks;
  const labels = presentStoreLabels(ownLabels, originLabels, Boolean(origin && locks.labels));
  const isAttachmentsLocked = Boolean(origin && locks.attachments);
  const attachmentRows = [
    ...originAttachments.map((attachment) => ({ row: attachment, isInherited: true })),
    ...(isAttachmentsLocked ? [] : ownAttachments).map((attachment) => ({
      row: attachment,
      isInherited: false,
    })),
  ];
  const labelsState: FieldState = !origin
    ? 'own'
    : locks.labels
      ? 'locked'
      : labels.some((label) => label.state === 'own' || label.state === 'overridden')
        ? 'overridden'
        : 'inherited';
  const attachmentsState: FieldState = !origin
    ? 'own'
    : locks.attachments
      ? 'locked'
      : ownAttachments.length
        ? 'overridden'
        : 'inherited';
  return { effective, labels, attachmentRows, labelsState, attachmentsState, originLabels };
}

/** A store element (row null: a database element the store has not overridden yet). */
export async function presentStoreElement(
  db: Database,
  scope: Scope,
  store: StoreRow,
  row: StoreElementRow | null,
  origin: DatabaseElementRow | null,
): Promise<Element> {
  // The type name, the hidden modules and the bound probe alongside the labels and
  // attachments: one round trip.
  const probeId = row?.probe_id ?? null;
  const [parts, type_name, hidden_modules, storeProbes] = await Promise.all([
    loadStoreParts(db, row, origin),
    typeName(db, effectiveStoreValues(row, origin).values.type_id),
    storeHiddenModules(db, store),
    probeId ? storeProbesByUid(db, store.id, [probeId]) : null,
  ]);
  const probe = probeId ? (storeProbes?.get(probeId) ?? null) : null;
  return {
    ...base(parts.effective, {
      labels: parts.labels,
      attachments: parts.attachmentRows.map((item) =>
        presentAttachment(item.row, item.isInherited),
      ),
      labelsState: parts.labelsState,
      attachmentsState: parts.attachmentsState,
    }),
    id: row?.id ?? null,
    level: 'store',
    database_id: store.database_id,
    store_id: store.id,
    origin_id: origin?.id ?? null,
    is_remote: row !== null,
    probe_id: probeId,
    probe,
    probe_missing: probeId !== null && probe === null,
    type_name,
    hidden_modules,
    editable: canEditStore(scope, store),
    version: row?.version ?? 0,
    updated_at: (row ?? origin)?.updated_at.toISOString() ?? new Date(0).toISOString(),
  };
}

export function presentElement(db: Database, scope: Scope, ref: ElementRef): Promise<Element> {
  return ref.level === 'database'
    ? presentDatabaseElement(db, scope, ref)
    : presentStoreElement(db, scope, ref.store, ref.row, ref.origin);
}

/** Re-reads an element after a write and presents it. */
export async function reloadElement(db: Database, scope: Scope, ref: ElementRef): Promise<Element> {
  if (ref.level === 'database') {
    const [row] = await db
      .select()
      .from(databaseElements)
      .where(eq(databaseElements.id, ref.row.id));
    if (!row) throw notFound();
    return presentDatabaseElement(db, scope, { ...ref, row });
  }
  const [row] = await db.select().from(storeElements).where(eq(storeElements.id, ref.row.id));
  if (!row) throw notFound();
  return presentStoreElement(
    db,
    scope,
    ref.store,
    row,
    await findOrigin(db, ref.store, row.origin_id),
  );
}

/* ---------- Lists ---------- */

export type ListQuery = { search?: string; includeInactive: boolean; tab?: StoreElementTab };

const folded = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLocaleLowerCase();

/** The query's search folded once, for every name of the list. */
function searchOf(query: { search?: string }): string | null {
  return query.search ? folded(query.search) : null;
}

function matches(item: ElementListItem, query: ListQuery): boolean {
  if (!query.includeInactive && !item.active) return false;
  if (query.tab === 'temperature' && item.temperature_delivery_item) return false;
  if (query.tab === 'delivery' && !item.temperature_delivery_item) return false;
  if (query.tab === 'probes' && !item.probe_id) return false;
  return true;
}

/**
 * The element fields a list item shows (ElementListItem): lists select these columns only
 * and resolve only these fields (spec 001 §3.2), not the element's 24.
 */
const listFieldKeys = [
  'name',
  'type_id',
  'active',
  'illustration_url',
  'allergens',
  'minimum_temperature',
  'maximum_temperature',
  'temperature_delivery_item',
] as const satisfies readonly ElementFieldKey[];
/** The fields of the allergens table (modules/allergens). */
export const allergenFieldKeys = [
  'name',
  'type_id',
  'active',
  'allergens',
] as const satisfies readonly ElementFieldKey[];
type ListFieldKey = (typeof listFieldKeys)[number];
type ListValues = Pick<ElementValues, ListFieldKey>;

/** The columns of `keys` of a catalogue table (with its id), for a narrow select. */
function columnsOf<T extends typeof databaseElements | typeof storeElements>(
  table: T,
  keys: readonly ListFieldKey[],
): Record<string, AnyColumn> {
  const columns = table as unknown as Record<string, AnyColumn>;
  return Object.fromEntries([['id', columns.id!], ...keys.map((key) => [key, columns[key]!])]);
}

/** Effective values of a list's fields: resolveInheritance over `keys`, then completed. */
function listValues(
  keys: readonly ListFieldKey[],
  own: FieldValues | null,
  origin: { values: FieldValues; locks: Partial<Locks> } | null,
): { values: ListValues; states: Record<ListFieldKey, FieldState> } {
  const resolved = resolveInheritance<ListFieldKey, unknown>(keys, own ?? {}, origin);
  const values = resolved.values as Record<string, unknown>;
  // What completeValues fills (never null in an effective value).
  if (values.name === null) values.name = '';
  if (values.allergens === null) values.allergens = [];
  if (values.active === null) values.active = true;
  if (values.temperature_delivery_item === null) values.temperature_delivery_item = false;
  return { values: resolved.values as ListValues, states: resolved.states };
}

/** A list item, its keys in the response schema's order (the serialised JSON is unchanged). */
function listItem(
  key: string,
  values: Partial<ListValues>,
  extra: Pick<
    ElementListItem,
    'id' | 'origin_id' | 'is_remote' | 'type_name' | 'probe_id' | 'probe_missing'
  >,
): ElementListItem {
  return {
    key,
    id: extra.id,
    origin_id: extra.origin_id,
    is_remote: extra.is_remote,
    name: values.name as string,
    type_id: values.type_id ?? null,
    type_name: extra.type_name,
    active: values.active as boolean,
    illustration_url: values.illustration_url ?? null,
    allergens: values.allergens ?? [],
    minimum_temperature: values.minimum_temperature ?? null,
    maximum_temperature: values.maximum_temperature ?? null,
    temperature_delivery_item: values.temperature_delivery_item ?? false,
    probe_id: extra.probe_id,
    probe_missing: extra.probe_missing,
  };
}

const byName = (left: ElementListItem, right: ElementListItem) =>
  compareNames(left.name, right.name) || (left.key < right.key ? -1 : 1);

/** GET /api/databases/:databaseId/elements: one query (types joined), sorted by name. */
export async function listDatabaseElements(
  db: Database,
  scope: Scope,
  databaseId: string,
  query: ListQuery,
  keys: readonly ListFieldKey[] = listFieldKeys,
): Promise<ElementListItem[]> {
  const database = await findDatabaseInScope(db, scope, databaseId);
  if (query.tab !== undefined) {
    throw new AppError('validation/invalid-input', 'Tabs are for store lists.', [
      { path: 'tab', message: 'Not a database list filter.' },
    ]);
  }
  const rows = (await db
    .select({ ...columnsOf(databaseElements, keys), type_name: elementTypes.name })
    .from(databaseElements)
    .leftJoin(elementTypes, eq(elementTypes.id, databaseElements.type_id))
    .where(eq(databaseElements.database_id, database.id))) as (FieldValues & {
    id: string;
    type_name: string | null;
  })[];
  const search = searchOf(query);
  const items: ElementListItem[] = [];
  for (const row of rows) {
    if (search !== null && !folded(row.name as string).includes(search)) continue;
    const item = listItem(row.id, listValues(keys, row, null).values, {
      id: row.id,
      origin_id: null,
      is_remote: false,
      type_name: row.type_name,
      probe_id: null,
      probe_missing: false,
    });
    if (matches(item, query)) items.push(item);
  }
  return items.sort(byName);
}

type DatabaseListRow = FieldValues & { id: string; type_name: string | null };
type StoreListRow = FieldValues & {
  id: string;
  origin_id: string | null;
  probe_id: string | null;
  /** The bound probe is one of the store's (false when unbound). */
  has_probe: boolean;
  type_name: string | null;
  /** The locks of the row's origin (whichever database it is in; used only from the store's). */
  origin_locks: DatabaseElementRow['locks'] | null;
};

/**
 * A store's elements with their effective values (spec 001 §3.2): its database's elements it
 * has not overridden, and its own rows. Three queries whatever the size (store, database rows
 * and store rows, each with its type joined, the store rows with their origin's locks — the
 * only locks a list needs), the columns of `keys` only; with `search`, the rows whose
 * effective name does not match are left out before anything else is computed.
 */
export async function effectiveStoreItems(
  db: Database,
  store: StoreRow,
  options: { keys?: readonly ListFieldKey[]; search?: string } = {},
): Promise<ElementListItem[]> {
  const keys = options.keys ?? listFieldKeys;
  const [databaseRows, storeRows] = await Promise.all([
    store.database_id
      ? (db
          .select({
            ...columnsOf(databaseElements, keys),
            type_name: elementTypes.name,
          })
          .from(databaseElements)
          .leftJoin(elementTypes, eq(elementTypes.id, databaseElements.type_id))
          .where(eq(databaseElements.database_id, store.database_id)) as unknown as Promise<
          DatabaseListRow[]
        >)
      : Promise.resolve([] as DatabaseListRow[]),
    db
      .select({
        ...columnsOf(storeElements, keys),
        origin_id: storeElements.origin_id,
        probe_id: storeElements.probe_id,
        has_probe: sql<boolean>`${probes.id} is not null`,
        type_name: elementTypes.name,
        origin_locks: databaseElements.locks,
      })
      .from(storeElements)
      .leftJoin(elementTypes, eq(elementTypes.id, storeElements.type_id))
      .leftJoin(databaseElements, eq(databaseElements.id, storeElements.origin_id))
      // The bound probe counts only while it is one of this store's (probe_uid is unique).
      .leftJoin(
        probes,
        and(
          eq(probes.probe_uid, storeElements.probe_id),
          eq(probes.store_id, storeElements.store_id),
        ),
      )
      .where(eq(storeElements.store_id, store.id)) as unknown as Promise<StoreListRow[]>,
  ]);
  const search = searchOf(options);
  const isFound = (name: unknown) =>
    search === null || folded((name as string | null) ?? '').includes(search);
  const originById = new Map(databaseRows.map((row) => [row.id, row]));
  // Overridden database elements are left out of the list, found by the search or not.
  const overridden = new Set<string>();
  for (const row of storeRows) {
    if (row.origin_id && originById.has(row.origin_id)) overridden.add(row.origin_id);
  }
  const databaseItems: { id: string; name: string; item: ElementListItem }[] = [];
  for (const row of databaseRows) {
    if (overridden.has(row.id) || !isFound(row.name)) continue;
    // Not overridden: every field is the origin's, locked or inherited alike (the store has
    // no value of its own), so the origin's values are resolved as they are, without locks.
    const values = listValues(keys, row, null).values;
    databaseItems.push({
      id: row.id,
      name: values.name,
      item: listItem(`origin:${row.id}`, values, {
        id: null,
        origin_id: row.id,
        is_remote: false,
        type_name: row.type_name,
        probe_id: null,
        probe_missing: false,
      }),
    });
  }
  const storeItems: {
    id: string;
    origin_id: string | null;
    name: string;
    item: ElementListItem;
  }[] = [];
  for (const row of storeRows) {
    const origin = row.origin_id ? originById.get(row.origin_id) : undefined;
    const inheritance = origin
      ? { values: origin, locks: locksOf({ locks: row.origin_locks ?? defaultElementLocks }) }
      : null;
    if (search !== null && !isFound(listValues(['name'], row, inheritance).values.name)) continue;
    const effective = listValues(keys, row, inheritance);
    const typeState = effective.states.type_id;
    storeItems.push({
      id: row.id,
      origin_id: origin ? origin.id : null,
      name: effective.values.name,
      item: listItem(row.id, effective.values, {
        id: row.id,
        origin_id: origin ? origin.id : null,
        is_remote: true,
        type_name:
          typeState === 'locked' || typeState === 'inherited'
            ? (origin?.type_name ?? null)
            : row.type_name,
        probe_id: row.probe_id,
        probe_missing: row.probe_id !== null && !row.has_probe,
      }),
    });
  }
  return mergeStoreRows(databaseItems, storeItems).map(({ row }) => row.item);
}

export async function listStoreElements(
  db: Database,
  scope: Scope,
  storeId: string,
  query: ListQuery,
): Promise<ElementListItem[]> {
  const store = await findStoreInScope(db, scope, storeId);
  const items = await effectiveStoreItems(db, store, { search: query.search });
  return items.filter((item) => matches(item, query));
}

/** GET /api/stores/:storeId/elements/origin/:originId. */
export async function presentOriginForStore(
  db: Database,
  scope: Scope,
  storeId: string,
  originId: string,
): Promise<Element> {
  const store = await findStoreInScope(db, scope, storeId);
  const origin = await findOrigin(db, store, originId);
  if (!origin) throw notFound();
  const [row] = await db
    .select()
    .from(storeElements)
    .where(and(eq(storeElements.store_id, store.id), eq(storeElements.origin_id, origin.id)));
  return presentStoreElement(db, scope, store, row ?? null, origin);
}

/* ---------- Writes ---------- */

function isUniqueViolation(error: unknown): boolean {
  const candidates = [error, (error as { cause?: unknown })?.cause];
  return candidates.some((item) => (item as { code?: string })?.code === '23505');
}

async function assertTypeAllowed(
  db: Database,
  typeId: unknown,
  owner: Parameters<typeof isTypeAllowed>[2],
): Promise<void> {
  if (typeof typeId !== 'string') return;
  if (!(await isTypeAllowed(db, typeId, owner))) throw new AppError('element/unknown-type');
}

/*
 * The checks of a save that need nothing from the database beyond the rows already read
 * (spec 001 §5): the single calls below and the bulk save (bulk-elements.ts) both go through
 * these, so a grid row is refused exactly as the element screen would be. The type and the
 * origin lookups, the version and the writes stay with each caller.
 */

/** POST /api/databases/:databaseId/elements: the columns of a new element, its locks. */
export function planDatabaseElementCreate(
  input: ElementInput,
  locks: Partial<Locks> | undefined,
): { changes: FieldValues; locks: Locks } {
  const changes = fieldChanges(input, 'database');
  assertValidElement(completeValues({ ...newElementValues, ...changes }), 'database');
  return { changes, locks: { ...defaultElementLocks, ...locks } };
}

/** PATCH /api/databaseElements/:id: the columns changed, the images cleared, the locks. */
export function planDatabaseElementUpdate(
  row: DatabaseElementRow,
  input: ElementInput,
  locks: Partial<Locks> | undefined,
) {
  const changes = fieldChanges(input, 'database');
  assertValidElement(
    effectiveDatabaseValues({ ...row, ...(changes as Partial<DatabaseElementRow>) }).values,
    'database',
  );
  return {
    changes,
    cleared: clearedImages(changes, row),
    locks: locks ? { ...locksOf(row), ...locks } : undefined,
  };
}

/**
 * POST /api/stores/:storeId/elements (locked fields already refused): the store's own values
 * (an element of its own starts from the database defaults, an override from nothing).
 */
export function planStoreElementCreate(
  origin: DatabaseElementRow | null,
  input: ElementInput,
): { changes: FieldValues; own: FieldValues } {
  const changes = fieldChanges(input, 'store');
  const own = origin ? changes : { ...newElementValues, ...changes };
  const effective = effectiveStoreValues(own, origin);
  assertValidElement(effective.values, 'store', origin ? effective.locks : undefined);
  return { changes, own };
}

/** PATCH /api/storeElements/:id (locked fields already refused): columns changed, images cleared. */
export function planStoreElementUpdate(
  row: StoreElementRow,
  origin: DatabaseElementRow | null,
  input: ElementInput,
) {
  const changes = fieldChanges(input, 'store');
  const own = { ...fieldsOf(row), ...changes };
  const effective = effectiveStoreValues(own, origin);
  assertValidElement(effective.values, 'store', origin ? effective.locks : undefined);
  return { changes, cleared: clearedImages(changes, row) };
}

/** POST /api/databases/:databaseId/elements. */
export async function createDatabaseElement(
  deps: Deps,
  scope: Scope,
  databaseId: string,
  body: CreateDatabaseElementBody,
): Promise<DatabaseElementRef> {
  const { db } = deps;
  const database = await findDatabaseInScope(db, scope, databaseId);
  assertDatabaseWriter(scope);
  const { locks: lockChanges, labels, ...input } = body;
  const { changes, locks } = planDatabaseElementCreate(input, lockChanges);
  await assertTypeAllowed(db, changes.type_id, { databaseId: database.id });
  const row = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(databaseElements)
      .values({
        ...(changes as Partial<typeof databaseElements.$inferInsert>),
        name: changes.name as string,
        database_id: database.id,
        locks,
      })
      .returning();
    if (labels) await saveDatabaseLabels(tx, inserted!, labels);
    return inserted!;
  });
  return { level: 'database', row, database };
}

/** Image fields cleared by the body: their paths (set null with them) go to the deletion queue. */
function clearedImages(
  changes: FieldValues,
  row: { illustration_path: string | null; allergen_illustration_path: string | null },
): { columns: Record<string, null>; paths: string[] } {
  const columns: Record<string, null> = {};
  const paths: string[] = [];
  if (changes.illustration_url === null) {
    columns.illustration_path = null;
    if (row.illustration_path) paths.push(row.illustration_path);
  }
  if (changes.allergen_illustration_url === null) {
    columns.allergen_illustration_path = null;
    if (row.allergen_illustration_path) paths.push(row.allergen_illustration_path);
  }
  return { columns, paths };
}

/**
 * A database element's new minimum, maximum or locks can make a store override incoherent
 * (its effective minimum above its effective maximum). Those stores' temperature overrides
 * are cleared (null: follow the database again, whose pair is valid), their version moved,
 * in one query of the save's transaction (docs/decisions.md). Answers how many were cleared.
 */
export function clearIncoherentStoreTemperatures(
  tx: Pick<Database, 'update'>,
  row: DatabaseElementRow,
): Promise<number> {
  return clearIncoherentStoreTemperaturesOf(tx, [row.id]);
}

/**
 * The same for many database elements at once (a bulk save), read as they are in the
 * transaction: one query whatever their number. A lock missing from a row's locks takes its
 * default (locksOf).
 */
export async function clearIncoherentStoreTemperaturesOf(
  tx: Pick<Database, 'update'>,
  ids: readonly string[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const isLocked = (key: 'minimum_temperature' | 'maximum_temperature') =>
    sql`coalesce((${databaseElements.locks} ->> ${key})::boolean, ${defaultElementLocks[key]})`;
  const effective = (key: 'minimum_temperature' | 'maximum_temperature') =>
    sql`case when ${isLocked(key)} then ${databaseElements[key]} else coalesce(${storeElements[key]}, ${databaseElements[key]}) end`;
  const cleared = await tx
    .update(storeElements)
    .set({
      minimum_temperature: null,
      maximum_temperature: null,
      version: sql`${storeElements.version} + 1`,
      updated_at: new Date(),
    })
    .from(databaseElements)
    .where(
      and(
        eq(databaseElements.id, storeElements.origin_id),
        inArray(databaseElements.id, [...ids]),
        sql`${effective('minimum_temperature')} > ${effective('maximum_temperature')}`,
      ),
    )
    .returning({ id: storeElements.id });
  return cleared.length;
}

/** PATCH /api/databaseElements/:id: one transaction with labels and attachments, versioned. */
export async function updateDatabaseElement(
  deps: Deps,
  scope: Scope,
  id: string,
  body: UpdateElementBody,
): Promise<DatabaseElementRef> {
  const { db } = deps;
  const ref = await findWritableDatabaseElement(db, scope, id);
  const { version, locks, labels, attachments, probe_id, ...input } = body;
  if (probe_id !== undefined) {
    throw new AppError('validation/invalid-input', 'Probes are set on store elements.', [
      { path: 'probe_id', message: 'Not a database element field.' },
    ]);
  }
  if (ref.row.version !== version) throw new AppError('conflict/stale-version');
  const plan = planDatabaseElementUpdate(ref.row, input, locks);
  const { changes, cleared } = plan;
  await assertTypeAllowed(db, changes.type_id, { databaseId: ref.database.id });
  const queued = [...cleared.paths];
  const row = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(databaseElements)
      .set({
        ...(changes as Partial<DatabaseElementRow>),
        ...cleared.columns,
        ...(plan.locks ? { locks: plan.locks } : {}),
        version: sql`${databaseElements.version} + 1`,
        updated_at: new Date(),
      })
      .where(and(eq(databaseElements.id, id), eq(databaseElements.version, version)))
      .returning();
    if (!updated) throw new AppError('conflict/stale-version');
    await clearIncoherentStoreTemperatures(tx, updated);
    if (labels) await saveDatabaseLabels(tx, updated, labels);
    if (attachments)
      queued.push(...(await saveAttachmentOrder(tx, attachmentOwner(ref), attachments)));
    await queueStorageDeletions(tx, queued);
    return updated;
  });
  await deleteQueuedFiles(db, deps.storage, queued);
  return { ...ref, row };
}

/** POST /api/stores/:storeId/elements: an element of the store's own, or an override of `origin_id`. */
export async function createStoreElement(
  deps: Deps,
  scope: Scope,
  storeId: string,
  body: CreateStoreElementBody,
): Promise<StoreElementRef> {
  const { db } = deps;
  const store = await findEditableStore(db, scope, storeId);
  const { origin_id, probe_id, labels, ...input } = body;
  let origin: DatabaseElementRow | null = null;
  if (origin_id) {
    origin = await findOrigin(db, store, origin_id);
    if (!origin) throw new AppError('element/unknown-origin');
    assertNothingLocked(locksOf(origin), body as Record<string, unknown>);
    const [existing] = await db
      .select({ id: storeElements.id })
      .from(storeElements)
      .where(and(eq(storeElements.store_id, store.id), eq(storeElements.origin_id, origin.id)));
    if (existing) throw new AppError('element/already-overridden');
  }
  const { changes, own } = planStoreElementCreate(origin, input);
  await assertTypeAllowed(db, changes.type_id, { store });
  await assertStoreProbe(db, store.id, probe_id);
  try {
    const row = await db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(storeElements)
        .values({
          ...(own as Partial<typeof storeElements.$inferInsert>),
          store_id: store.id,
          origin_id: origin?.id ?? null,
          probe_id: probe_id ?? null,
        })
        .returning();
      if (labels) {
        const originLabels = origin ? await labelsOfDatabaseElement(tx, [origin.id]) : [];
        await saveStoreLabels(tx, inserted!, originLabels, labels);
      }
      return inserted!;
    });
    return { level: 'store', row, store, origin };
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('element/already-overridden');
    throw error;
  }
}

/** PATCH /api/storeElements/:id: locked fields refused, the rest as at database level. */
export async function updateStoreElement(
  deps: Deps,
  scope: Scope,
  id: string,
  body: UpdateElementBody,
): Promise<StoreElementRef> {
  const { db } = deps;
  const ref = await findStoreElement(db, scope, id, { isWrite: true });
  const { version, locks, labels, attachments, probe_id, ...input } = body;
  if (locks !== undefined) {
    throw new AppError('validation/invalid-input', 'Locks are set on database elements.', [
      { path: 'locks', message: 'Not a store element field.' },
    ]);
  }
  if (ref.origin) assertNothingLocked(locksOf(ref.origin), body as Record<string, unknown>);
  if (ref.row.version !== version) throw new AppError('conflict/stale-version');
  const { changes, cleared } = planStoreElementUpdate(ref.row, ref.origin, input);
  await assertTypeAllowed(db, changes.type_id, { store: ref.store });
  await assertStoreProbe(db, ref.store.id, probe_id, ref.row.probe_id);
  const queued = [...cleared.paths];
  const row = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(storeElements)
      .set({
        ...(changes as Partial<StoreElementRow>),
        ...cleared.columns,
        ...(probe_id !== undefined ? { probe_id } : {}),
        version: sql`${storeElements.version} + 1`,
        updated_at: new Date(),
      })
      .where(and(eq(storeElements.id, id), eq(storeElements.version, version)))
      .returning();
    if (!updated) throw new AppError('conflict/stale-version');
    if (labels) {
      const originLabels = ref.origin ? await labelsOfDatabaseElement(tx, [ref.origin.id]) : [];
      await saveStoreLabels(tx, updated, originLabels, labels);
    }
    if (attachments)
      queued.push(...(await saveAttachmentOrder(tx, attachmentOwner(ref), attachments)));
    await queueStorageDeletions(tx, queued);
    return updated;
  });
  await deleteQueuedFiles(db, deps.storage, queued);
  return { ...ref, row };
}
