import { compareNames } from '@mise/shared/catalogue/rules';
import type { ElementType } from '@mise/shared/catalogue/schemas';
import { and, eq, inArray, or, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { elementTypes } from '../../db/schema';
import { AppError, notFound } from '../../platform/errors';
import type { Scope } from '../../platform/scope';
import { findDatabaseInScope } from '../databases/databases.service';
import { findEditableStore, findStoreInScope, type StoreRow } from '../stores/stores.service';
import { assertDatabaseWriter } from './elements.policy';

type TypeRow = typeof elementTypes.$inferSelect;

export function presentType(row: TypeRow): ElementType {
  return {
    id: row.id,
    name: row.name,
    store_side: row.store_id !== null,
    database_id: row.database_id,
    store_id: row.store_id,
  };
}

const byName = (left: ElementType, right: ElementType) =>
  compareNames(left.name, right.name) || (left.id < right.id ? -1 : 1);

/** Types a store sees: its database's (not store side) and its own (store side). */
export function storeTypesFilter(store: Pick<StoreRow, 'id' | 'database_id'>): SQL {
  return store.database_id
    ? or(eq(elementTypes.store_id, store.id), eq(elementTypes.database_id, store.database_id))!
    : eq(elementTypes.store_id, store.id);
}

export async function listDatabaseTypes(
  db: Database,
  scope: Scope,
  databaseId: string,
): Promise<ElementType[]> {
  await findDatabaseInScope(db, scope, databaseId);
  const rows = await db.select().from(elementTypes).where(eq(elementTypes.database_id, databaseId));
  return rows.map(presentType).sort(byName);
}

export async function listStoreTypes(
  db: Database,
  scope: Scope,
  storeId: string,
): Promise<ElementType[]> {
  const store = await findStoreInScope(db, scope, storeId);
  const rows = await db.select().from(elementTypes).where(storeTypesFilter(store));
  return rows.map(presentType).sort(byName);
}

function validName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new AppError('element-type/invalid-name');
  return trimmed;
}

export async function createDatabaseType(
  db: Database,
  scope: Scope,
  databaseId: string,
  name: string,
): Promise<ElementType> {
  const database = await findDatabaseInScope(db, scope, databaseId);
  assertDatabaseWriter(scope);
  const [row] = await db
    .insert(elementTypes)
    .values({ database_id: database.id, name: validName(name) })
    .returning();
  return presentType(row!);
}

/** A store's own type (store side): the only types editable at store level (spec 001 §3.3). */
export async function createStoreType(
  db: Database,
  scope: Scope,
  storeId: string,
  name: string,
): Promise<ElementType> {
  const store = await findEditableStore(db, scope, storeId);
  const [row] = await db
    .insert(elementTypes)
    .values({ store_id: store.id, name: validName(name) })
    .returning();
  return presentType(row!);
}

/** PATCH /api/elementTypes/:id: database types by database writers, store types by store editors. */
export async function renameType(
  db: Database,
  scope: Scope,
  id: string,
  name: string,
): Promise<ElementType> {
  const [row] = await db.select().from(elementTypes).where(eq(elementTypes.id, id)).limit(1);
  if (!row) throw notFound();
  if (row.database_id) {
    await findDatabaseInScope(db, scope, row.database_id);
    assertDatabaseWriter(scope);
  } else if (row.store_id) {
    await findEditableStore(db, scope, row.store_id);
  } else {
    throw notFound();
  }
  const [updated] = await db
    .update(elementTypes)
    .set({ name: validName(name), updated_at: new Date() })
    .where(eq(elementTypes.id, id))
    .returning();
  return presentType(updated!);
}

type TypeOwner = { databaseId: string } | { store: Pick<StoreRow, 'id' | 'database_id'> };

/** The types an element may take: of the database (database level) or of the store or its database. */
function ownerTypesFilter(owner: TypeOwner): SQL {
  return 'databaseId' in owner
    ? eq(elementTypes.database_id, owner.databaseId)
    : storeTypesFilter(owner.store);
}

/** Whether a type may be set on an element: of the database (database level) or of the store or its database. */
export async function isTypeAllowed(
  db: Pick<Database, 'select'>,
  typeId: string,
  owner: TypeOwner,
): Promise<boolean> {
  const [row] = await db
    .select({ id: elementTypes.id })
    .from(elementTypes)
    .where(and(eq(elementTypes.id, typeId), ownerTypesFilter(owner)))
    .limit(1);
  return Boolean(row);
}

/** Which of `typeIds` may be set on an element of `owner` (isTypeAllowed for many, one query). */
export async function allowedTypeIds(
  db: Pick<Database, 'select'>,
  typeIds: readonly string[],
  owner: TypeOwner,
): Promise<Set<string>> {
  const wanted = [...new Set(typeIds)];
  if (wanted.length === 0) return new Set();
  const rows = await db
    .select({ id: elementTypes.id })
    .from(elementTypes)
    .where(and(inArray(elementTypes.id, wanted), ownerTypesFilter(owner)));
  return new Set(rows.map((row) => row.id));
}
