import type {
  DatabaseOption,
  DistributorOption,
  StoreOption,
} from '@mise/shared/organisation/schemas';
import { and, asc, count, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { databases, distributors, stores } from '../../db/schema';
import { databaseFilter, distributorFilter, type Scope, storeFilter } from '../../platform/scope';

/** Picker lists through the scope; the organisation issue widens them into full screens. */
export function listDistributorOptions(db: Database, scope: Scope): Promise<DistributorOption[]> {
  return db
    .select({ id: distributors.id, name: distributors.name, active: distributors.active })
    .from(distributors)
    .where(distributorFilter(scope))
    .orderBy(asc(distributors.name));
}

export async function listDatabaseOptions(db: Database, scope: Scope): Promise<DatabaseOption[]> {
  const storeCounts = db
    .select({ database_id: stores.database_id, n: count().as('n') })
    .from(stores)
    .groupBy(stores.database_id)
    .as('store_counts');
  const rows = await db
    .select({
      id: databases.id,
      name: databases.name,
      distributor: databases.distributor_id,
      store_count: storeCounts.n,
    })
    .from(databases)
    .leftJoin(storeCounts, eq(storeCounts.database_id, databases.id))
    .where(databaseFilter(scope))
    .orderBy(asc(databases.name));
  return rows.map((row) => ({ ...row, store_count: Number(row.store_count ?? 0) }));
}

export function listStoreOptions(db: Database, scope: Scope): Promise<StoreOption[]> {
  return db
    .select({
      id: stores.id,
      name: stores.name,
      address: stores.address,
      postal_code: stores.postal_code,
      city: stores.city,
      country: stores.country,
      active: stores.active,
      distributor: stores.distributor_id,
      database: stores.database_id,
    })
    .from(stores)
    .where(and(storeFilter(scope)))
    .orderBy(asc(stores.name));
}
