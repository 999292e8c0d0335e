import type { StoreOption } from '@mise/shared/organisation/schemas';
import { and, asc } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { stores } from '../../db/schema';
import { type Scope, storeFilter } from '../../platform/scope';

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
