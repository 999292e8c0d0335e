import { describe, expect, it } from 'vitest';
import { buildTwoTenants, buildUser, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';

const context = useTestApp();

/**
 * A customer who owns a store of tenant A and one of tenant B is visible to A's distributor,
 * who must neither learn B's ids through it nor take it over (token, edit, disable, picture).
 */
describe('an account shared by two tenants', () => {
  let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
  let distributorA: Agent;
  let admin: Agent;
  let shared: Awaited<ReturnType<typeof buildUser>>;

  it('is visible to A with A ids only, and A cannot act on it', async () => {
    tenants = await buildTwoTenants(context.db);
    shared = await buildUser(context.db, {
      role: 'customer',
      name: 'Shared',
      ownedStoreIds: [tenants.a.stores[1]!.id, tenants.b.stores[1]!.id],
    });
    distributorA = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
    admin = await signIn(context.app, tenants.admin.email, testPassword);

    const seen = (
      await distributorA.inject({ method: 'GET', url: `/api/users/${shared.id}` })
    ).json().user;
    expect(seen.stores).toEqual([tenants.a.stores[1]!.id]);
    expect(seen.store_distributors).toEqual([tenants.a.distributor.id]);
    expect(seen.store_databases).toEqual([tenants.a.database.id]);
    const listed = (
      await distributorA.inject({ method: 'GET', url: '/api/users?search=Shared' })
    ).json().items;
    expect(listed).toMatchObject([{ id: shared.id, store_count: 1 }]);
    const body = JSON.stringify({ seen, listed });
    for (const id of [tenants.b.stores[1]!.id, tenants.b.distributor.id, tenants.b.database.id]) {
      expect(body).not.toContain(id);
    }

    const token = await distributorA.inject({
      method: 'POST',
      url: '/api/auth/createToken',
      payload: { UId: shared.id },
    });
    expect(token.statusCode).toBe(403);
    const disable = await distributorA.inject({
      method: 'PATCH',
      url: `/api/users/${shared.id}`,
      payload: { version: shared.version, active: false },
    });
    expect(disable.statusCode).toBe(403);
    const rename = await distributorA.inject({
      method: 'PATCH',
      url: `/api/users/${shared.id}`,
      payload: { version: shared.version, name: 'Taken' },
    });
    expect(rename.statusCode).toBe(403);

    // The admin sees everything and may act.
    const full = (await admin.inject({ method: 'GET', url: `/api/users/${shared.id}` })).json()
      .user;
    expect(full.stores.sort()).toEqual([tenants.a.stores[1]!.id, tenants.b.stores[1]!.id].sort());
    const adminToken = await admin.inject({
      method: 'POST',
      url: '/api/auth/createToken',
      payload: { UId: shared.id },
    });
    expect(adminToken.statusCode).toBe(200);
  });

  it('still lets A act on its own customers', async () => {
    const own = await buildUser(context.db, {
      role: 'customer',
      ownedStoreIds: [tenants.a.stores[0]!.id],
    });
    const token = await distributorA.inject({
      method: 'POST',
      url: '/api/auth/createToken',
      payload: { UId: own.id },
    });
    expect(token.statusCode).toBe(200);
    const rename = await distributorA.inject({
      method: 'PATCH',
      url: `/api/users/${own.id}`,
      payload: { version: own.version, name: 'Renamed' },
    });
    expect(rename.statusCode).toBe(200);
    expect(rename.json().user.name).toBe('Renamed');
  });
});
