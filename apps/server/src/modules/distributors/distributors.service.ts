import type { DistributorOption } from '@mise/shared/organisation/schemas';
import { asc } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { distributors } from '../../db/schema';
import { distributorFilter, type Scope } from '../../platform/scope';

export function listDistributorOptions(db: Database, scope: Scope): Promise<DistributorOption[]> {
  return db
    .select({ id: distributors.id, name: distributors.name, active: distributors.active })
    .from(distributors)
    .where(distributorFilter(scope))
    .orderBy(asc(distributors.name));
}
