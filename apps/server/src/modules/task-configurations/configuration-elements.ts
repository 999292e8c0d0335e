import { resolveInheritance } from '@mise/shared/catalogue/rules';
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { databaseElements, storeElements } from '../../db/schema';
import { type ElementSnapshot, loadElementSnapshots } from '../elements/element-snapshots';
import type { StoreRow } from '../stores/stores.service';

export type ElementOwner =
  | { level: 'database'; databaseId: string }
  | { level: 'store'; store: Pick<StoreRow, 'id' | 'database_id'> };

/**
 * The elements a level sees among `ids`, with their effective names, in one query: at
 * database level the database's elements; at store level the database elements of the
 * store's database (with the store's override of the name when the origin does not lock it)
 * and the store's own elements. An id missing from the answer is not visible there.
 */
export async function visibleElementNames(
  db: Pick<Database, 'select'>,
  owner: ElementOwner,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const wanted = [...new Set(ids)];
  const names = new Map<string, string>();
  if (wanted.length === 0) return names;
  if (owner.level === 'database') {
    const rows = await db
      .select({ id: databaseElements.id, name: databaseElements.name })
      .from(databaseElements)
      .where(
        and(
          eq(databaseElements.database_id, owner.databaseId),
          inArray(databaseElements.id, wanted),
        ),
      );
    for (const row of rows) names.set(row.id, row.name);
    return names;
  }
  const { store } = owner;
  const databaseId = store.database_id;
  const storeSide = db
    .select({
      is_store: sql<boolean>`true`.as('is_store'),
      element_id: sql<string>`${storeElements.id}`.as('element_id'),
      origin_id: sql<string | null>`${databaseElements.id}`.as('origin_id'),
      own_name: sql<string | null>`${storeElements.name}`.as('own_name'),
      origin_name: sql<string | null>`${databaseElements.name}`.as('origin_name'),
      origin_locks: sql<Record<string, boolean> | null>`${databaseElements.locks}`.as(
        'origin_locks',
      ),
    })
    .from(storeElements)
    .leftJoin(
      databaseElements,
      and(
        eq(databaseElements.id, storeElements.origin_id),
        databaseId ? eq(databaseElements.database_id, databaseId) : sql`false`,
      ),
    )
    .where(
      and(
        eq(storeElements.store_id, store.id),
        or(inArray(storeElements.id, wanted), inArray(storeElements.origin_id, wanted)),
      ),
    );
  const rows = databaseId
    ? await storeSide.unionAll(
        db
          .select({
            is_store: sql<boolean>`false`.as('is_store'),
            element_id: sql<string>`${databaseElements.id}`.as('element_id'),
            origin_id: sql<string | null>`${databaseElements.id}`.as('origin_id'),
            own_name: sql<string | null>`null`.as('own_name'),
            origin_name: sql<string | null>`${databaseElements.name}`.as('origin_name'),
            origin_locks: sql<Record<string, boolean> | null>`${databaseElements.locks}`.as(
              'origin_locks',
            ),
          })
          .from(databaseElements)
          .where(
            and(eq(databaseElements.database_id, databaseId), inArray(databaseElements.id, wanted)),
          ),
      )
    : await storeSide;
  const wantedSet = new Set(wanted);
  const overrideOf = new Map<string, (typeof rows)[number]>();
  for (const row of rows) {
    if (row.is_store && row.origin_id) overrideOf.set(row.origin_id, row);
  }
  const nameOf = (own: string | null, origin: (typeof rows)[number] | null) =>
    resolveInheritance(
      ['name'] as const,
      { name: own },
      origin
        ? {
            values: { name: origin.origin_name },
            locks: { name: origin.origin_locks?.name !== false },
          }
        : null,
    ).values.name ?? '';
  for (const row of rows) {
    if (!wantedSet.has(row.element_id)) continue;
    if (row.is_store) {
      names.set(row.element_id, nameOf(row.own_name, row.origin_id ? row : null));
    } else {
      const override = overrideOf.get(row.element_id);
      names.set(row.element_id, nameOf(override?.own_name ?? null, row));
    }
  }
  return names;
}

/** No store has this id: a database-level read of loadElementSnapshots (database elements only). */
const noStoreId = '00000000-0000-0000-0000-000000000000';

/** An element a configuration of a module may reference, under its canonical id. */
export type ElementChoice = { id: string; name: string; is_delivery_item: boolean };

/** The elements of a level (among `ids` when given) as snapshots, by the ids they are referenced by. */
export function elementSnapshotsOf(
  db: Pick<Database, 'select'>,
  owner: ElementOwner,
  ids?: readonly string[],
): Promise<Map<string, ElementSnapshot>> {
  const store =
    owner.level === 'database'
      ? { id: noStoreId, database_id: owner.databaseId }
      : { id: owner.store.id, database_id: owner.store.database_id };
  return loadElementSnapshots(db, [store], ids).then((result) => result.get(store.id) ?? new Map());
}

const moduleActive = (snapshot: ElementSnapshot, module: 'temperatures' | 'oils') =>
  module === 'temperatures' ? snapshot.temperatures_module_active : snapshot.oils_module_active;

/**
 * The canonical id of an element reference: a store override is referenced by its origin's
 * (database) id, so that one element has one id at store level whichever id the client sent.
 */
export const canonicalElementId = (snapshot: ElementSnapshot) => snapshot.origin_id ?? snapshot.id;

/**
 * The elements a configuration of `module` may reference at a level: active, with the module
 * active (temperatures_module_active / oils_module_active), one per element under its
 * canonical id, by name.
 */
export async function configurationElementChoices(
  db: Pick<Database, 'select'>,
  owner: ElementOwner,
  module: 'temperatures' | 'oils',
): Promise<ElementChoice[]> {
  const choices = new Map<string, ElementChoice>();
  for (const snapshot of (await elementSnapshotsOf(db, owner)).values()) {
    if (!snapshot.active || !moduleActive(snapshot, module)) continue;
    const id = canonicalElementId(snapshot);
    if (!choices.has(id)) {
      choices.set(id, {
        id,
        name: snapshot.name,
        is_delivery_item: snapshot.temperature_delivery_item,
      });
    }
  }
  return [...choices.values()].sort((left, right) => left.name.localeCompare(right.name));
}

/**
 * Element references checked and made canonical: each id is mapped to its canonical id
 * (an override's id to its origin's) and duplicates dropped; `refused` lists the ids that are
 * not elements of the level or whose module is not active (module given).
 */
export async function canonicalElementReferences(
  db: Pick<Database, 'select'>,
  owner: ElementOwner,
  ids: readonly string[],
  module: 'temperatures' | 'oils' | null,
): Promise<{ ids: string[]; refused: string[] }> {
  if (ids.length === 0) return { ids: [], refused: [] };
  return canonicalReferencesIn(await elementSnapshotsOf(db, owner, ids), ids, module);
}

/** canonicalElementReferences over snapshots already read (elementSnapshotsOf of these ids). */
export function canonicalReferencesIn(
  snapshots: ReadonlyMap<string, ElementSnapshot>,
  ids: readonly string[],
  module: 'temperatures' | 'oils' | null,
): { ids: string[]; refused: string[] } {
  const result: string[] = [];
  const refused: string[] = [];
  for (const id of ids) {
    const snapshot = snapshots.get(id);
    if (!snapshot || (module && !moduleActive(snapshot, module))) {
      refused.push(id);
      continue;
    }
    const canonical = canonicalElementId(snapshot);
    if (!result.includes(canonical)) result.push(canonical);
  }
  return { ids: result, refused };
}
