import { and, asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { stores, users } from '../db/schema';
import { buildStore, buildTwoTenants, buildUser } from '../test/factories';
import { useTestApp } from '../test/harness';
import { resolveScope, storeFilter, storeScopeCondition, storeScopeValues } from './scope';

describe('store scope of prepared statements', () => {
  const context = useTestApp();

  it('finds exactly the stores storeFilter finds, for every role', async () => {
    const { db } = context;
    const tenants = await buildTwoTenants(db);
    // A store of tenant A's distributor outside its database, one with neither, a customer
    // owning stores in both tenants, one owning nothing, a manager of both databases.
    await buildStore(db, { name: 'Loose A', distributor_id: tenants.a.distributor.id });
    await buildStore(db, { name: 'Orphan' });
    const twoOwner = await buildUser(db, {
      role: 'customer',
      ownedStoreIds: [tenants.a.stores[1]!.id, tenants.b.stores[0]!.id],
    });
    const noOwner = await buildUser(db, { role: 'customer', ownedStoreIds: [] });
    const twoManager = await buildUser(db, {
      role: 'manager',
      database_id: tenants.a.database.id,
      managedDatabaseIds: [tenants.a.database.id, tenants.b.database.id],
    });
    const viewers = [
      tenants.admin,
      tenants.a.users.distributor,
      tenants.a.users.manager,
      tenants.a.users.customer,
      tenants.b.users.distributor,
      twoOwner,
      noOwner,
      twoManager,
    ];
    const prepared = db
      .select({ id: stores.id })
      .from(stores)
      .where(and(eq(stores.id, sql.placeholder('storeId')), storeScopeCondition()))
      .prepare('test_store_in_scope');
    const allStores = await db.select({ id: stores.id, name: stores.name }).from(stores);
    const seen: Record<string, number> = {};
    for (const viewer of viewers) {
      const [user] = await db.select().from(users).where(eq(users.id, viewer.id));
      const scope = await resolveScope(db, user!);
      const expected = await db
        .select({ name: stores.name })
        .from(stores)
        .where(storeFilter(scope))
        .orderBy(asc(stores.name));
      const found: string[] = [];
      for (const store of allStores) {
        const rows = await prepared.execute({ storeId: store.id, ...storeScopeValues(scope) });
        if (rows.length > 0) found.push(store.name);
      }
      expect(found.sort()).toEqual(expected.map((row) => row.name).sort());
      seen[`${viewer.role} ${viewer.id}`] = found.length;
    }
    // The fixture is not trivial: every count from nothing to everything occurs.
    expect(Object.values(seen).sort()).toEqual([0, 1, 2, 2, 2, 3, 4, 6]);
  });
});
