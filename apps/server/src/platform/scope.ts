import { and, eq, exists, inArray, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/client';
import {
  databaseManagers,
  databases,
  distributors,
  storeOwners,
  stores,
  users,
} from '../db/schema';
import type { UserRow } from './auth/sessions';

/**
 * What a user may see (spec 000 §6), resolved once per request:
 * - admin: everything;
 * - distributor: its distributor, the databases and stores tied to it, and the users tied to those;
 * - manager: the databases listing it as manager, their stores and their distributors;
 * - customer: the stores it owns, their databases and distributors.
 * Lists stay small (one distributor, a manager's databases, at most 30 owned stores), so
 * every tenant query turns them into a WHERE clause without joins.
 */
export type Scope = {
  userId: string;
  role: UserRow['role'];
  isAll: boolean;
  distributorIds: string[];
  databaseIds: string[];
  /** Owned stores (customers); for other roles stores follow from databases or distributor. */
  ownedStoreIds: string[];
};

const never = sql`false`;

export async function resolveScope(db: Database, user: UserRow): Promise<Scope> {
  const base = {
    userId: user.id,
    role: user.role,
    distributorIds: [],
    databaseIds: [],
    ownedStoreIds: [],
  };
  switch (user.role) {
    case 'admin':
      return { ...base, isAll: true };
    case 'distributor': {
      const distributorIds = user.distributor_id ? [user.distributor_id] : [];
      const rows = distributorIds.length
        ? await db
            .select({ id: databases.id })
            .from(databases)
            .where(inArray(databases.distributor_id, distributorIds))
        : [];
      return { ...base, isAll: false, distributorIds, databaseIds: rows.map((row) => row.id) };
    }
    case 'manager': {
      const rows = await db
        .select({ id: databases.id, distributorId: databases.distributor_id })
        .from(databaseManagers)
        .innerJoin(databases, eq(databases.id, databaseManagers.database_id))
        .where(eq(databaseManagers.user_id, user.id));
      return {
        ...base,
        isAll: false,
        databaseIds: rows.map((row) => row.id),
        distributorIds: unique(rows.map((row) => row.distributorId)),
      };
    }
    case 'customer': {
      const rows = await db
        .select({
          id: stores.id,
          databaseId: stores.database_id,
          distributorId: stores.distributor_id,
        })
        .from(storeOwners)
        .innerJoin(stores, eq(stores.id, storeOwners.store_id))
        .where(eq(storeOwners.user_id, user.id));
      return {
        ...base,
        isAll: false,
        ownedStoreIds: rows.map((row) => row.id),
        databaseIds: unique(rows.map((row) => row.databaseId)),
        distributorIds: unique(rows.map((row) => row.distributorId)),
      };
    }
  }
}

function unique(values: (string | null)[]): string[] {
  return [...new Set(values.filter((value): value is string => value !== null))];
}

function inList(column: Parameters<typeof inArray>[0], values: string[]): SQL {
  return values.length ? inArray(column, values) : never;
}

/** WHERE clause: stores the scope may see. */
export function storeFilter(scope: Scope): SQL | undefined {
  if (scope.isAll) return undefined;
  switch (scope.role) {
    case 'distributor':
      return inList(stores.distributor_id, scope.distributorIds);
    case 'manager':
      return inList(stores.database_id, scope.databaseIds);
    default:
      return inList(stores.id, scope.ownedStoreIds);
  }
}

/**
 * `storeFilter` for a prepared statement: one text whatever the role, the scope in its values
 * (`storeScopeValues`). Only the role's own list is given, the others stay empty, so it keeps
 * exactly storeFilter's rule; the store is found by its key first, so the plan does not depend
 * on which list holds values.
 */
export function storeScopeCondition(): SQL {
  const ids = (name: string) => sql`any(${sql.placeholder(name)}::uuid[])`;
  return sql`(${sql.placeholder('scopeAll')}::boolean
    or ${stores.distributor_id} = ${ids('scopeDistributorIds')}
    or ${stores.database_id} = ${ids('scopeDatabaseIds')}
    or ${stores.id} = ${ids('scopeStoreIds')})`;
}

/** The values of `storeScopeCondition`'s placeholders. */
export function storeScopeValues(scope: Scope): {
  scopeAll: boolean;
  scopeDistributorIds: string[];
  scopeDatabaseIds: string[];
  scopeStoreIds: string[];
} {
  const role = scope.isAll ? null : scope.role;
  return {
    scopeAll: scope.isAll,
    scopeDistributorIds: role === 'distributor' ? scope.distributorIds : [],
    scopeDatabaseIds: role === 'manager' ? scope.databaseIds : [],
    scopeStoreIds:
      role !== null && role !== 'distributor' && role !== 'manager' ? scope.ownedStoreIds : [],
  };
}

/** WHERE clause: databases the scope may see. */
export function databaseFilter(scope: Scope): SQL | undefined {
  if (scope.isAll) return undefined;
  return inList(databases.id, scope.databaseIds);
}

/** WHERE clause: distributors the scope may see. */
export function distributorFilter(scope: Scope): SQL | undefined {
  if (scope.isAll) return undefined;
  return inList(distributors.id, scope.distributorIds);
}

/**
 * WHERE clause: accounts the scope may see. A distributor sees the accounts tied to its
 * distributor (its own staff, owners of its stores, managers of its databases); managers
 * and customers see their own account only (docs/decisions.md).
 */
export function userFilter(scope: Scope, db: Database): SQL | undefined {
  if (scope.isAll) return undefined;
  if (scope.role !== 'distributor' || scope.distributorIds.length === 0) {
    return eq(users.id, scope.userId);
  }
  const ownsStoreOfDistributor = exists(
    db
      .select({ one: sql`1` })
      .from(storeOwners)
      .innerJoin(stores, eq(stores.id, storeOwners.store_id))
      .where(
        and(
          eq(storeOwners.user_id, users.id),
          inArray(stores.distributor_id, scope.distributorIds),
        ),
      ),
  );
  const managesDatabaseOfDistributor = exists(
    db
      .select({ one: sql`1` })
      .from(databaseManagers)
      .innerJoin(databases, eq(databases.id, databaseManagers.database_id))
      .where(
        and(
          eq(databaseManagers.user_id, users.id),
          inArray(databases.distributor_id, scope.distributorIds),
        ),
      ),
  );
  return or(
    and(isNotNull(users.distributor_id), inArray(users.distributor_id, scope.distributorIds)),
    ownsStoreOfDistributor,
    managesDatabaseOfDistributor,
  );
}

const scopeCache = new WeakMap<FastifyRequest, Promise<Scope>>();

/** The request's scope, resolved at most once per request. */
export function scopeOf(request: FastifyRequest, db: Database, user: UserRow): Promise<Scope> {
  let scope = scopeCache.get(request);
  if (!scope) {
    scope = resolveScope(db, user);
    scopeCache.set(request, scope);
  }
  return scope;
}
