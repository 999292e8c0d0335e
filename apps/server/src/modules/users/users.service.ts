import type { UpdateUserBody, User, UserSummary } from '@mise/shared/users/schemas';
import { and, asc, count, eq, ilike, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  authTokens,
  databaseManagers,
  databases,
  storeOwners,
  stores,
  users,
} from '../../db/schema';
import { deleteUserSessions, type UserRow } from '../../platform/auth/sessions';
import { AppError, forbidden, notFound } from '../../platform/errors';
import { likePattern } from '../../platform/like-pattern';
import { countPastPage } from '../../platform/paging';
import { databaseFilter, type Scope, storeFilter, userFilter } from '../../platform/scope';

type UserRelations = {
  stores: string[];
  store_distributors: string[];
  store_databases: string[];
  manager_databases: string[];
  manager_distributors: string[];
};

/**
 * The spec's relation fields of an account, all in one query (array subselects). Another
 * viewer than the account itself gets only the stores and databases of its own scope: a
 * distributor never learns the ids of another tenant's records through a shared customer.
 */
async function loadRelations(db: Database, userId: string, viewer?: Scope): Promise<UserRelations> {
  const isRestricted = viewer !== undefined && !viewer.isAll && viewer.userId !== userId;
  const storeCondition = (isRestricted && storeFilter(viewer)) || sql`true`;
  const databaseCondition = (isRestricted && databaseFilter(viewer)) || sql`true`;
  const owned = sql`from ${storeOwners} join ${stores} on ${stores.id} = ${storeOwners.store_id} where ${storeOwners.user_id} = ${userId} and ${storeCondition}`;
  const managed = sql`from ${databaseManagers} join ${databases} on ${databases.id} = ${databaseManagers.database_id} where ${databaseManagers.user_id} = ${userId} and ${databaseCondition}`;
  const result = (await db.execute(sql`select
    array(select ${stores.id}::text ${owned} order by ${stores.name}) as stores,
    array(select distinct ${stores.distributor_id}::text ${owned} and ${stores.distributor_id} is not null) as store_distributors,
    array(select distinct ${stores.database_id}::text ${owned} and ${stores.database_id} is not null) as store_databases,
    array(select ${databases.id}::text ${managed} order by ${databases.name}) as manager_databases,
    array(select distinct ${databases.distributor_id}::text ${managed} and ${databases.distributor_id} is not null) as manager_distributors`)) as unknown as {
    rows: UserRelations[];
  };
  return result.rows[0]!;
}

/**
 * The account as the API sends it: relations resolved in one query, no secret. `viewer`
 * limits the relations to the viewer's scope (omit it only for the account's own eyes).
 */
export async function presentUser(db: Database, row: UserRow, viewer?: Scope): Promise<User> {
  const relations = await loadRelations(db, row.id, viewer);
  return {
    id: row.id,
    active: row.active,
    email: row.email,
    name: row.name,
    surname: row.surname,
    phone_number: row.phone_number,
    role: row.role,
    illustration_url: row.illustration_url,
    new_password_required: row.new_password_required,
    distributor: row.distributor_id,
    database: row.database_id,
    ...relations,
    manager_store_tags: row.manager_store_tags,
    creation_date: row.created_at.toISOString(),
    version: row.version,
  };
}

/** Ends every session of an account and voids its unused login and reset links. */
export async function endUserAccess(db: Database, userId: string): Promise<void> {
  await deleteUserSessions(db, userId);
  await db
    .update(authTokens)
    .set({ used_at: new Date() })
    .where(and(eq(authTokens.user_id, userId), isNull(authTokens.used_at)));
}

export async function findUserInScope(db: Database, scope: Scope, id: string): Promise<UserRow> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), userFilter(scope, db)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/**
 * A distributor acts on an account (edit, disable, picture, login token) only when
 * everything the account is tied to is its own: a customer who also owns another
 * distributor's stores stays visible but cannot be taken over.
 */
export async function assertActsWithinTenant(
  db: Database,
  scope: Scope,
  target: UserRow,
): Promise<void> {
  if (scope.isAll || scope.userId === target.id) return;
  if (scope.role !== 'distributor') throw forbidden();
  if (target.role === 'admin') throw forbidden();
  const own = scope.distributorIds;
  if (target.distributor_id && !own.includes(target.distributor_id)) throw forbidden();
  const notOwn = (column: typeof stores.distributor_id | typeof databases.distributor_id) =>
    own.length
      ? sql`(${column} is null or ${column} not in (${sql.join(
          own.map((id) => sql`${id}`),
          sql`, `,
        )}))`
      : sql`true`;
  const [foreignStore] = await db
    .select({ id: stores.id })
    .from(storeOwners)
    .innerJoin(stores, eq(stores.id, storeOwners.store_id))
    .where(and(eq(storeOwners.user_id, target.id), notOwn(stores.distributor_id)))
    .limit(1);
  const [foreignDatabase] = await db
    .select({ id: databases.id })
    .from(databaseManagers)
    .innerJoin(databases, eq(databases.id, databaseManagers.database_id))
    .where(and(eq(databaseManagers.user_id, target.id), notOwn(databases.distributor_id)))
    .limit(1);
  if (foreignStore || foreignDatabase) throw forbidden();
}

/**
 * Whether an existing account already belongs to the adder's tenant, so that linking it by
 * e-mail discloses nothing and needs no consent: for an admin always; for a distributor an
 * account tied to its distributor (own distributor, a store it owns, a database it manages)
 * and to nothing else; for a store owner an account owning only stores the adder owns too.
 * Anyone else (an account of another tenant, or of none) is invited and must accept.
 */
export async function isWithinAddersTenant(
  db: Database,
  scope: Scope,
  target: UserRow,
  distributorId: string | null,
): Promise<boolean> {
  if (scope.isAll) return true;
  const [ties] = (
    (await db.execute(sql`select
      array(select ${stores.distributor_id}::text from ${storeOwners} join ${stores} on ${stores.id} = ${storeOwners.store_id} where ${storeOwners.user_id} = ${target.id}) as store_distributors,
      array(select ${storeOwners.store_id}::text from ${storeOwners} where ${storeOwners.user_id} = ${target.id}) as store_ids,
      array(select ${databases.distributor_id}::text from ${databaseManagers} join ${databases} on ${databases.id} = ${databaseManagers.database_id} where ${databaseManagers.user_id} = ${target.id}) as database_distributors`)) as unknown as {
      rows: {
        store_distributors: (string | null)[];
        store_ids: string[];
        database_distributors: (string | null)[];
      }[];
    }
  ).rows;
  if (!ties) return false;
  if (scope.role === 'customer') {
    return (
      ties.store_ids.length > 0 &&
      ties.database_distributors.length === 0 &&
      ties.store_ids.every((id) => scope.ownedStoreIds.includes(id))
    );
  }
  if (
    scope.role !== 'distributor' ||
    !distributorId ||
    !scope.distributorIds.includes(distributorId)
  )
    return false;
  const links = [...ties.store_distributors, ...ties.database_distributors];
  if (target.distributor_id !== null) links.push(target.distributor_id);
  return links.length > 0 && links.every((id) => id === distributorId);
}

export async function findUserByEmail(db: Database, email: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row ?? null;
}

export async function listUsers(
  db: Database,
  scope: Scope,
  query: { search?: string; includeInactive: boolean; limit: number; offset: number },
): Promise<{ items: UserSummary[]; total: number }> {
  const conditions = [userFilter(scope, db)];
  if (!query.includeInactive) conditions.push(eq(users.active, true));
  if (query.search) {
    const pattern = likePattern(query.search);
    // The expression of the users_search_trgm_idx index (migration 0003): name, surname,
    // "name surname" and e-mail in one.
    conditions.push(
      ilike(sql`${users.name} || ' ' || ${users.surname} || ' ' || ${users.email}`, pattern),
    );
  }
  const where = and(...conditions);
  // A builder subquery: its join makes Drizzle qualify every column (in a raw template of a
  // single-table select list it would not, and "id" would resolve to the wrong table).
  const ownedStoreCount = db
    .select({ n: count() })
    .from(storeOwners)
    .innerJoin(stores, eq(stores.id, storeOwners.store_id))
    .where(and(eq(storeOwners.user_id, users.id), storeFilter(scope)));
  const rows = await db
    .select({
      id: users.id,
      active: users.active,
      email: users.email,
      name: users.name,
      surname: users.surname,
      role: users.role,
      illustration_url: users.illustration_url,
      // Counted for the returned page only (a correlated count PostgreSQL runs after LIMIT),
      // and only the stores the viewer can see.
      store_count: sql<number>`(${ownedStoreCount})::int`,
    })
    .from(users)
    .where(where)
    .orderBy(asc(users.name), asc(users.surname), asc(users.id))
    .limit(query.limit)
    .offset(query.offset);
  const total = await countPastPage(rows.length, query, () =>
    db.select({ total: count() }).from(users).where(where),
  );
  return { items: rows, total };
}

/**
 * Who may change an account: admins and distributors the accounts in their scope,
 * anyone their own name, surname and phone. Nobody toggles their own active flag.
 */
export async function updateUser(
  db: Database,
  scope: Scope,
  id: string,
  body: UpdateUserBody,
): Promise<UserRow> {
  const target = await findUserInScope(db, scope, id);
  const isSelf = target.id === scope.userId;
  const isStaff = scope.role === 'admin' || scope.role === 'distributor';
  if (!isSelf && !isStaff) throw forbidden();
  if (body.active !== undefined && (isSelf || !isStaff)) throw forbidden();
  await assertActsWithinTenant(db, scope, target);
  const { version, ...changes } = body;
  const [updated] = await db
    .update(users)
    .set({ ...changes, version: sql`${users.version} + 1`, updated_at: new Date() })
    .where(and(eq(users.id, id), eq(users.version, version)))
    .returning();
  if (!updated) throw new AppError('conflict/stale-version');
  // A disabled account's sessions and pending links end now: re-enabling it later must not
  // revive a session or a login link opened before.
  if (body.active === false) await endUserAccess(db, id);
  return updated;
}

export async function setIllustration(
  db: Database,
  scope: Scope,
  id: string,
  url: string,
): Promise<{ user: UserRow; previousUrl: string | null }> {
  const target = await findUserInScope(db, scope, id);
  const isStaff = scope.role === 'admin' || scope.role === 'distributor';
  if (target.id !== scope.userId && !isStaff) throw forbidden();
  await assertActsWithinTenant(db, scope, target);
  const [updated] = await db
    .update(users)
    .set({ illustration_url: url, version: sql`${users.version} + 1`, updated_at: new Date() })
    .where(eq(users.id, id))
    .returning();
  return { user: updated!, previousUrl: target.illustration_url };
}

/** The stores an account owns, for admin viewers of the account page. */
export async function listUserStores(db: Database, scope: Scope, id: string) {
  if (scope.role !== 'admin') throw forbidden();
  await findUserInScope(db, scope, id);
  return db
    .select({ id: stores.id, name: stores.name, city: stores.city })
    .from(storeOwners)
    .innerJoin(stores, eq(stores.id, storeOwners.store_id))
    .where(eq(storeOwners.user_id, id))
    .orderBy(asc(stores.name));
}
