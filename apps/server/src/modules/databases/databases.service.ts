import type { DatabaseOption } from '@mise/shared/organisation/schemas';
import { asc, count, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { databases, stores } from '../../db/schema';
import { databaseFilter, type Scope } from '../../platform/scope';

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
