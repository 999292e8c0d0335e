import { compareNames } from '@mise/shared/catalogue/rules';
import { defaultTaskTypeColor } from '@mise/shared/tasks/constants';
import type { TaskType } from '@mise/shared/tasks/schemas';
import { and, eq, inArray, or, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { taskTypes } from '../../db/schema';
import { AppError, notFound } from '../../platform/errors';
import type { Scope } from '../../platform/scope';
import { findDatabaseInScope } from '../databases/databases.service';
import { assertDatabaseWriter } from '../elements/elements.policy';
import { findEditableStore, findStoreInScope, type StoreRow } from '../stores/stores.service';

export type TaskTypeRow = typeof taskTypes.$inferSelect;

export function presentTaskType(row: TaskTypeRow): TaskType {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    store_side: row.store_id !== null,
    database_id: row.database_id,
    store_id: row.store_id,
  };
}

const byName = (left: TaskType, right: TaskType) =>
  compareNames(left.name, right.name) || (left.id < right.id ? -1 : 1);

/** Types a store sees: its database's (not store side) and its own (store side). */
export function storeTaskTypesFilter(store: Pick<StoreRow, 'id' | 'database_id'>): SQL {
  return store.database_id
    ? or(eq(taskTypes.store_id, store.id), eq(taskTypes.database_id, store.database_id))!
    : eq(taskTypes.store_id, store.id);
}

export async function listDatabaseTaskTypes(
  db: Database,
  scope: Scope,
  databaseId: string,
): Promise<TaskType[]> {
  const database = await findDatabaseInScope(db, scope, databaseId);
  const rows = await db.select().from(taskTypes).where(eq(taskTypes.database_id, database.id));
  return rows.map(presentTaskType).sort(byName);
}

export async function listStoreTaskTypes(
  db: Database,
  scope: Scope,
  storeId: string,
): Promise<TaskType[]> {
  const store = await findStoreInScope(db, scope, storeId);
  const rows = await db.select().from(taskTypes).where(storeTaskTypesFilter(store));
  return rows.map(presentTaskType).sort(byName);
}

/** A task type name must not be blank (spec 001 §5). */
function validName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new AppError('task-type/invalid-name');
  return trimmed;
}

type TaskTypeInput = { name: string; color?: string };

export async function createDatabaseTaskType(
  db: Database,
  scope: Scope,
  databaseId: string,
  body: TaskTypeInput,
): Promise<TaskType> {
  const database = await findDatabaseInScope(db, scope, databaseId);
  assertDatabaseWriter(scope);
  const [row] = await db
    .insert(taskTypes)
    .values({
      database_id: database.id,
      name: validName(body.name),
      color: body.color ?? defaultTaskTypeColor,
    })
    .returning();
  return presentTaskType(row!);
}

/** A store's own type (store side): the only task types editable at store level (spec 001 §2.9). */
export async function createStoreTaskType(
  db: Database,
  scope: Scope,
  storeId: string,
  body: TaskTypeInput,
): Promise<TaskType> {
  const store = await findEditableStore(db, scope, storeId);
  const [row] = await db
    .insert(taskTypes)
    .values({
      store_id: store.id,
      name: validName(body.name),
      color: body.color ?? defaultTaskTypeColor,
    })
    .returning();
  return presentTaskType(row!);
}

/** PATCH /api/taskTypes/:id: database types by database writers, store types by store editors. */
export async function updateTaskType(
  db: Database,
  scope: Scope,
  id: string,
  body: { name?: string; color?: string },
): Promise<TaskType> {
  const [row] = await db.select().from(taskTypes).where(eq(taskTypes.id, id)).limit(1);
  if (!row) throw notFound();
  if (row.database_id) {
    await findDatabaseInScope(db, scope, row.database_id);
    assertDatabaseWriter(scope);
  } else if (row.store_id) {
    await findEditableStore(db, scope, row.store_id);
  } else {
    throw notFound();
  }
  const changes: Partial<TaskTypeRow> = {};
  if (body.name !== undefined) changes.name = validName(body.name);
  if (body.color !== undefined) changes.color = body.color;
  const [updated] = await db
    .update(taskTypes)
    .set({ ...changes, updated_at: new Date() })
    .where(eq(taskTypes.id, id))
    .returning();
  return presentTaskType(updated!);
}

/** Whether a type may be set on a configuration: of the database, or of the store or its database. */
export async function isTaskTypeAllowed(
  db: Pick<Database, 'select'>,
  typeId: string,
  owner: { databaseId: string } | { store: Pick<StoreRow, 'id' | 'database_id'> },
): Promise<boolean> {
  return (await allowedTaskTypeIds(db, [typeId], owner)).has(typeId);
}

/** Which of `typeIds` may be set on a configuration of `owner` (isTaskTypeAllowed for many, one query). */
export async function allowedTaskTypeIds(
  db: Pick<Database, 'select'>,
  typeIds: readonly string[],
  owner: { databaseId: string } | { store: Pick<StoreRow, 'id' | 'database_id'> },
): Promise<Set<string>> {
  const wanted = [...new Set(typeIds)];
  if (wanted.length === 0) return new Set();
  const rows = await db
    .select({ id: taskTypes.id })
    .from(taskTypes)
    .where(
      and(
        inArray(taskTypes.id, wanted),
        'databaseId' in owner
          ? eq(taskTypes.database_id, owner.databaseId)
          : storeTaskTypesFilter(owner.store),
      ),
    );
  return new Set(rows.map((row) => row.id));
}
