import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { stores } from '../../db/schema';
import { buildStore, buildTwoTenants, buildUser, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { asDevice, buildDevice } from '../device/test-support';

const context = useTestApp();

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let distributorA: Agent;
let managerA: Agent;

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  distributorA = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
  managerA = await signIn(context.app, tenants.a.users.manager.email, testPassword);
});

async function ownedStore() {
  const store = await buildStore(context.db, {
    distributor_id: tenants.a.distributor.id,
    database_id: tenants.a.database.id,
    mise_licence: true,
  });
  const owner = await buildUser(context.db, { role: 'customer', ownedStoreIds: [store.id] });
  return { store, owner: await signIn(context.app, owner.email, testPassword) };
}

const versionOf = async (storeId: string) =>
  (
    await context.db.select({ version: stores.version }).from(stores).where(eq(stores.id, storeId))
  )[0]!.version;

const patch = async (agent: Agent, storeId: string, changes: object) =>
  agent.inject({
    method: 'PATCH',
    url: `/api/stores/${storeId}`,
    payload: { version: await versionOf(storeId), ...changes },
  });

describe('re-activating a store (issue 13, point 13)', () => {
  it("is the distributor's: an owner cannot switch on a store its distributor switched off", async () => {
    const { store, owner } = await ownedStore();
    const { token } = await buildDevice(context.db, store.id);
    const tablet = asDevice(context.app, token);
    expect((await tablet({ method: 'GET', url: '/api/device/employees' })).statusCode).toBe(200);

    expect((await patch(distributorA, store.id, { active: false })).statusCode).toBe(200);
    expect((await tablet({ method: 'GET', url: '/api/device/employees' })).statusCode).toBe(403);

    const refused = await patch(owner, store.id, { active: true });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('permission/denied');
    const [row] = await context.db.select().from(stores).where(eq(stores.id, store.id));
    expect(row!.active).toBe(false);
    expect((await tablet({ method: 'GET', url: '/api/device/employees' })).statusCode).toBe(403);

    // The owner may still edit the rest of a deactivated store, and switch its own store off.
    expect((await patch(owner, store.id, { name: `${store.name} (closed)` })).statusCode).toBe(200);
    expect((await patch(distributorA, store.id, { active: true })).statusCode).toBe(200);
    expect((await tablet({ method: 'GET', url: '/api/device/employees' })).statusCode).toBe(200);
    expect((await patch(owner, store.id, { active: false })).statusCode).toBe(200);
  });

  it('a manager of a manager-owned store cannot re-activate it either', async () => {
    const store = await buildStore(context.db, {
      distributor_id: tenants.a.distributor.id,
      database_id: tenants.a.database.id,
      manager_owned: true,
      active: false,
    });
    expect((await patch(managerA, store.id, { active: true })).statusCode).toBe(403);
    expect((await patch(managerA, store.id, { week_start: 2 })).statusCode).toBe(200);
  });
});

describe('time zone and country of a store (issue 13, point 21)', () => {
  it('are changed by those who edit the store, validated like at creation', async () => {
    const { store, owner } = await ownedStore();
    const changed = await patch(owner, store.id, { timezone_name: 'Europe/Warsaw', country: 'PL' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().store).toMatchObject({
      timezone_name: 'Europe/Warsaw',
      country: 'PL',
    });
    expect([1, 2]).toContain(changed.json().store.timezone);
    const london = await patch(distributorA, store.id, { timezone_name: 'Europe/London' });
    expect(london.json().store.timezone_name).toBe('Europe/London');
    expect([0, 1]).toContain(london.json().store.timezone);

    for (const invalid of [
      { timezone_name: 'Mars/Olympus' },
      { timezone_name: '' },
      { country: 'XX' },
      { country: 'pl' },
    ]) {
      const response = await patch(owner, store.id, invalid);
      expect(response.statusCode, JSON.stringify(invalid)).toBe(400);
      expect(response.json().error.code).toBe('validation/invalid-input');
    }
    const [row] = await context.db.select().from(stores).where(eq(stores.id, store.id));
    expect(row).toMatchObject({ timezone_name: 'Europe/London', country: 'PL' });
    // A manager cannot change a store that is not manager-owned.
    expect((await patch(managerA, store.id, { timezone_name: 'Europe/Paris' })).statusCode).toBe(
      403,
    );
  });
});
