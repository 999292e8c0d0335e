import type {
  CreateDistributorBody,
  Distributor,
  DistributorSummary,
  UpdateDistributorBody,
} from '@mise/shared/organisation/schemas';
import { and, asc, eq, ilike, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { databases, distributors, sensorCredentials, stores } from '../../db/schema';
import { AppError, forbidden, notFound } from '../../platform/errors';
import { likePattern } from '../../platform/like-pattern';
import { databaseFilter, distributorFilter, type Scope, storeFilter } from '../../platform/scope';

type DistributorRow = typeof distributors.$inferSelect;

/**
 * Store counts per distributor, restricted to the stores the caller may see (for admins and
 * distributors that is every store of the distributor): one grouped subquery, no query per row.
 */
function storeCountsOf(db: Database, scope: Scope) {
  return db
    .select({
      distributor_id: stores.distributor_id,
      store_count: sql<number>`count(*)::int`.as('store_count'),
      licensed_store_count: sql<number>`count(*) filter (where ${stores.mise_licence})::int`.as(
        'licensed_store_count',
      ),
    })
    .from(stores)
    .where(storeFilter(scope))
    .groupBy(stores.distributor_id)
    .as('store_counts');
}

export async function listDistributors(
  db: Database,
  scope: Scope,
  query: { search?: string; includeInactive: boolean },
): Promise<DistributorSummary[]> {
  const counts = storeCountsOf(db, scope);
  const conditions = [distributorFilter(scope)];
  if (!query.includeInactive) conditions.push(eq(distributors.active, true));
  if (query.search) {
    const pattern = likePattern(query.search);
    conditions.push(or(ilike(distributors.name, pattern), ilike(distributors.city, pattern)));
  }
  return db
    .select({
      id: distributors.id,
      name: distributors.name,
      active: distributors.active,
      city: distributors.city,
      countries: distributors.countries,
      logo: distributors.logo,
      store_count: sql<number>`coalesce(${counts.store_count}, 0)::int`,
      licensed_store_count: sql<number>`coalesce(${counts.licensed_store_count}, 0)::int`,
    })
    .from(distributors)
    .leftJoin(counts, eq(counts.distributor_id, distributors.id))
    .where(and(...conditions))
    .orderBy(asc(distributors.name), asc(distributors.id));
}

export async function findDistributorInScope(
  db: Database,
  scope: Scope,
  id: string,
): Promise<DistributorRow> {
  const [row] = await db
    .select()
    .from(distributors)
    .where(and(eq(distributors.id, id), distributorFilter(scope)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/** The distributor as the API sends it; the licence price only to admins. */
export async function presentDistributor(
  db: Database,
  scope: Scope,
  row: DistributorRow,
): Promise<Distributor> {
  const [counts, databaseRows, credentials] = await Promise.all([
    db
      .select({
        store_count: sql<number>`count(*)::int`,
        licensed_store_count: sql<number>`count(*) filter (where ${stores.mise_licence})::int`,
      })
      .from(stores)
      .where(and(eq(stores.distributor_id, row.id), storeFilter(scope))),
    db
      .select({ id: databases.id })
      .from(databases)
      .where(and(eq(databases.distributor_id, row.id), databaseFilter(scope)))
      .orderBy(asc(databases.name), asc(databases.id)),
    db
      .select({ id: sensorCredentials.id })
      .from(sensorCredentials)
      .where(eq(sensorCredentials.distributor_id, row.id))
      .limit(1),
  ]);
  return {
    id: row.id,
    name: row.name,
    active: row.active,
    city: row.city,
    countries: row.countries,
    logo: row.logo,
    store_count: counts[0]?.store_count ?? 0,
    licensed_store_count: counts[0]?.licensed_store_count ?? 0,
    address: row.address,
    postal_code: row.postal_code,
    phone: row.phone,
    email: row.email,
    shop_email: row.shop_email,
    billing_cycle: row.billing_cycle,
    licence_price: scope.role === 'admin' ? Number(row.licence_price) : null,
    contacts: row.contacts,
    databases: databaseRows.map((database) => database.id),
    sensor_connected: credentials.length > 0,
    version: row.version,
  };
}

function requireAdmin(scope: Scope): void {
  if (scope.role !== 'admin') throw forbidden();
}

export async function createDistributor(
  db: Database,
  scope: Scope,
  body: CreateDistributorBody,
): Promise<DistributorRow> {
  requireAdmin(scope);
  const { country, ...fields } = body;
  const [row] = await db
    .insert(distributors)
    .values({ ...fields, countries: [country] })
    .returning();
  return row!;
}

/** Distributor fields are locked unless admin (spec 000 §6): others answer 403. */
export async function updateDistributor(
  db: Database,
  scope: Scope,
  id: string,
  body: UpdateDistributorBody,
): Promise<DistributorRow> {
  await findDistributorInScope(db, scope, id);
  requireAdmin(scope);
  const { version, licence_price, ...changes } = body;
  const [updated] = await db
    .update(distributors)
    .set({
      ...changes,
      ...(licence_price !== undefined ? { licence_price: licence_price.toFixed(2) } : {}),
      version: sql`${distributors.version} + 1`,
      updated_at: new Date(),
    })
    .where(and(eq(distributors.id, id), eq(distributors.version, version)))
    .returning();
  if (!updated) throw new AppError('conflict/stale-version');
  return updated;
}

/** Checks the caller may change the logo before anything is stored. */
export async function assertCanSetLogo(db: Database, scope: Scope, id: string): Promise<void> {
  await findDistributorInScope(db, scope, id);
  requireAdmin(scope);
}

export async function setLogo(
  db: Database,
  scope: Scope,
  id: string,
  url: string,
): Promise<{ distributor: DistributorRow; previousUrl: string | null }> {
  const current = await findDistributorInScope(db, scope, id);
  requireAdmin(scope);
  const [updated] = await db
    .update(distributors)
    .set({ logo: url, version: sql`${distributors.version} + 1`, updated_at: new Date() })
    .where(eq(distributors.id, id))
    .returning();
  return { distributor: updated!, previousUrl: current.logo };
}
