import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { defaultElementLocks } from '@mise/shared/catalogue/constants';
import { timezoneOffsetHours } from '@mise/shared/organisation/rules';
import { count, eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  elementLabels,
  storeElements,
  storeInvitations,
  storeOwners,
  stores,
} from '../../db/schema';
import {
  buildDatabase,
  buildDatabaseElement,
  buildDistributor,
  buildElementType,
  buildLabel,
  buildStore,
  buildStoreElement,
  buildTwoTenants,
  buildUser,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { useTestSmtpServer } from '../../test/smtp';

const mail = useTestSmtpServer();
const monitoring = { answer: true, calls: [] as { storeId: string; activated: boolean }[] };
const context = useTestApp({
  env: mail.env,
  integrations: {
    licenceMonitoring: {
      updateLicence: async (input) => {
        monitoring.calls.push(input);
        return monitoring.answer;
      },
    },
  },
});

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let admin: Agent;
let distributorA: Agent;
let managerA: Agent;
let customerA: Agent;

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  admin = await signIn(context.app, tenants.admin.email, testPassword);
  distributorA = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
  managerA = await signIn(context.app, tenants.a.users.manager.email, testPassword);
  customerA = await signIn(context.app, tenants.a.users.customer.email, testPassword);
});

beforeEach(() => {
  monitoring.answer = true;
  monitoring.calls.length = 0;
});

const unique = () => randomBytes(4).toString('hex');

async function rowOf(id: string) {
  const [row] = await context.db.select().from(stores).where(eq(stores.id, id));
  return row!;
}

async function storeCount() {
  const [row] = await context.db.select({ total: count() }).from(stores);
  return row!.total;
}

async function ownersOf(storeId: string) {
  const rows = await context.db
    .select({ id: storeOwners.user_id })
    .from(storeOwners)
    .where(eq(storeOwners.store_id, storeId));
  return rows.map((row) => row.id).sort();
}

/** A store of tenant A's distributor and database, for tests that change it. */
function storeOfA(values: Parameters<typeof buildStore>[1] = {}) {
  return buildStore(context.db, {
    name: `Store A-${unique()}`,
    address: `${unique()} avenue des Tests`,
    distributor_id: tenants.a.distributor.id,
    database_id: tenants.a.database.id,
    ...values,
  });
}

const newStoreBody = (values: object = {}) => ({
  name: `New store ${unique()}`,
  address: `${unique()} rue Neuve`,
  postal_code: '75011',
  city: 'Paris',
  country: 'FR',
  ...values,
});

describe('GET /api/stores', () => {
  it('answers 401 to an anonymous caller', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/api/stores' });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('auth/unauthenticated');
  });

  it("lists the scope's stores by name with distributor and database names", async () => {
    const items = (await distributorA.inject({ method: 'GET', url: '/api/stores' })).json().items;
    const names = items.map((item: { name: string }) => item.name);
    expect(names).toEqual([...names].sort((left, right) => (left < right ? -1 : 1)));
    expect(
      items.every((item: { distributor: string }) => item.distributor === tenants.a.distributor.id),
    ).toBe(true);
    const first = items.find((item: { id: string }) => item.id === tenants.a.stores[0]!.id);
    expect(first).toMatchObject({
      distributor_name: 'Distributor A',
      database: tenants.a.database.id,
      database_name: 'Database A',
      mise_licence: false,
    });
    const forCustomer = (await customerA.inject({ method: 'GET', url: '/api/stores' })).json();
    expect(forCustomer.items.map((item: { id: string }) => item.id)).toEqual([
      tenants.a.stores[0]!.id,
    ]);
  });

  it('pages by name: limit and offset give the next page, total counts every match', async () => {
    const tag = unique();
    for (const letter of ['a', 'b', 'c', 'd', 'e'])
      await storeOfA({ name: `Paged ${tag} ${letter}` });
    const page = async (query: string) =>
      (
        await distributorA.inject({
          method: 'GET',
          url: `/api/stores?search=Paged%20${tag}&${query}`,
        })
      ).json();
    const first = await page('limit=2');
    expect(first.total).toBe(5);
    expect(first.items.map((item: { name: string }) => item.name.slice(-1))).toEqual(['a', 'b']);
    const third = await page('limit=2&offset=4');
    expect(third.items.map((item: { name: string }) => item.name.slice(-1))).toEqual(['e']);
    for (const query of ['limit=0', 'limit=501', 'offset=-1', 'limit=two']) {
      const response = await distributorA.inject({ method: 'GET', url: `/api/stores?${query}` });
      expect(response.statusCode, query).toBe(400);
    }
  });

  it('hides inactive stores unless includeInactive, searches and filters', async () => {
    const tag = unique();
    const active = await storeOfA({ name: `Filter ${tag} one`, city: 'Rennes' });
    const inactive = await storeOfA({ name: `Filter ${tag} two`, active: false });
    const noDatabase = await storeOfA({ name: `Filter ${tag} three`, database_id: null });
    const ids = async (query: string) =>
      (await admin.inject({ method: 'GET', url: `/api/stores?search=${tag}${query}` }))
        .json()
        .items.map((item: { id: string }) => item.id);
    expect(await ids('')).toEqual([active.id, noDatabase.id]);
    expect(await ids('&includeInactive=true')).toEqual([active.id, noDatabase.id, inactive.id]);
    expect(await ids(`&databaseId=${tenants.a.database.id}`)).toEqual([active.id]);
    expect(await ids(`&distributorId=${tenants.b.distributor.id}`)).toEqual([]);
    const byCity = (await admin.inject({ method: 'GET', url: '/api/stores?search=rennes' })).json()
      .items;
    expect(byCity.map((item: { id: string }) => item.id)).toContain(active.id);
    expect(
      (await admin.inject({ method: 'GET', url: '/api/stores?search=%25' })).json().items,
    ).toEqual([]);
  });

  it('never lists another tenant, even when asked by filter', async () => {
    const response = await distributorA.inject({
      method: 'GET',
      url: `/api/stores?distributorId=${tenants.b.distributor.id}&includeInactive=true`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().items).toEqual([]);
  });

  it('refuses bad query parameters with 400', async () => {
    for (const query of [
      'includeInactive=yes',
      'databaseId=nope',
      'distributorId=1',
      'role=admin',
      `search=${'x'.repeat(101)}`,
    ]) {
      const response = await admin.inject({ method: 'GET', url: `/api/stores?${query}` });
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error.code).toBe('validation/invalid-input');
    }
  });
});

describe('POST /api/stores', () => {
  const create = (agent: Agent | null, payload: object) =>
    agent
      ? agent.inject({ method: 'POST', url: '/api/stores', payload })
      : context.app.inject({ method: 'POST', url: '/api/stores', payload });

  it('answers 401 anonymous and 403 to managers and customers, writing nothing', async () => {
    const before = await storeCount();
    expect((await create(null, newStoreBody())).statusCode).toBe(401);
    for (const agent of [managerA, customerA]) {
      const response = await create(agent, newStoreBody());
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toEqual({
        code: 'permission/denied',
        message: 'You do not have permission to execute this action.',
      });
    }
    expect(await storeCount()).toBe(before);
  });

  it('creates a distributor store with its own distributor, time zone and a pairing key', async () => {
    const body = newStoreBody({ timezone_name: 'Europe/London', country: 'GB' });
    const response = await create(distributorA, body);
    expect(response.statusCode).toBe(200);
    const store = response.json().store;
    expect(store).toMatchObject({
      name: body.name,
      country: 'GB',
      distributor: tenants.a.distributor.id,
      distributor_name: 'Distributor A',
      database: null,
      active: true,
      maximum_devices: 1,
      week_start: 0,
      timezone_name: 'Europe/London',
      timezone: timezoneOffsetHours('Europe/London'),
      licence_price: null,
      owners: [],
      device_count: 0,
      version: 0,
    });
    expect(store.pairing_key).toMatch(/^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{10}$/);
    expect((await rowOf(store.id)).pairing_key).toBe(store.pairing_key);
  });

  it('defaults to France and Europe/Paris and links a database of the distributor', async () => {
    const response = await create(admin, {
      ...newStoreBody({ country: undefined }),
      distributorId: tenants.b.distributor.id,
      databaseId: tenants.b.database.id,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().store).toMatchObject({
      country: 'FR',
      timezone_name: 'Europe/Paris',
      distributor: tenants.b.distributor.id,
      database: tenants.b.database.id,
      database_name: 'Database B',
    });
  });

  it('requires a distributor from an admin (store/distributor-required)', async () => {
    const before = await storeCount();
    const response = await create(admin, newStoreBody());
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('store/distributor-required');
    expect(await storeCount()).toBe(before);
  });

  it("answers 404 when a distributor names another distributor, invalid-database for another's database", async () => {
    const before = await storeCount();
    const other = await create(
      distributorA,
      newStoreBody({ distributorId: tenants.b.distributor.id }),
    );
    expect(other.statusCode).toBe(404);
    const foreignDatabase = await create(
      distributorA,
      newStoreBody({ databaseId: tenants.b.database.id }),
    );
    expect(foreignDatabase.statusCode).toBe(400);
    expect(foreignDatabase.json().error.code).toBe('invalid-database');
    const mismatched = await create(
      admin,
      newStoreBody({ distributorId: tenants.a.distributor.id, databaseId: tenants.b.database.id }),
    );
    expect(mismatched.json().error.code).toBe('invalid-database');
    expect(await storeCount()).toBe(before);
  });

  it('refuses invalid input with 400 and writes nothing', async () => {
    const before = await storeCount();
    const { name: _name, ...withoutName } = newStoreBody();
    for (const payload of [
      withoutName,
      newStoreBody({ name: '   ' }),
      newStoreBody({ city: 42 }),
      newStoreBody({ name: 'x'.repeat(121) }),
      newStoreBody({ address: 'x'.repeat(201) }),
      newStoreBody({ country: 'US' }),
      newStoreBody({ timezone_name: 'Mars/Olympus' }),
      newStoreBody({ distributorId: 'not-a-uuid' }),
      newStoreBody({ mise_licence: true }),
    ]) {
      const response = await create(distributorA, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code).toBe('validation/invalid-input');
    }
    expect(await storeCount()).toBe(before);
  });

  it('refuses a duplicate by name or by full address in the same distributor (409)', async () => {
    const existing = await storeOfA({ name: 'Le Duplicata', address: '1 rue Unique' });
    const before = await storeCount();
    const byName = await create(distributorA, newStoreBody({ name: '  le   DUPLICATA ' }));
    expect(byName.statusCode).toBe(409);
    expect(byName.json().error.code).toBe('form.store.invalid.exists');
    const byAddress = await create(
      distributorA,
      newStoreBody({
        address: '1 RUE unique',
        postal_code: existing.postal_code,
        city: existing.city,
        country: existing.country,
      }),
    );
    expect(byAddress.statusCode).toBe(409);
    expect(await storeCount()).toBe(before);
    // Same address in another city is another store; same name at another distributor too.
    const otherCity = await create(
      distributorA,
      newStoreBody({ address: '1 rue Unique', city: 'Lyon' }),
    );
    expect(otherCity.statusCode).toBe(200);
    const otherDistributor = await create(
      admin,
      newStoreBody({ name: 'Le Duplicata', distributorId: tenants.b.distributor.id }),
    );
    expect(otherDistributor.statusCode).toBe(200);
  });
});

describe('GET /api/stores/:id', () => {
  it('answers 401 anonymous, 404 outside the scope, 400 for a bad id', async () => {
    const storeB = tenants.b.stores[0]!.id;
    expect(
      (await context.app.inject({ method: 'GET', url: `/api/stores/${storeB}` })).statusCode,
    ).toBe(401);
    expect(
      (await distributorA.inject({ method: 'GET', url: `/api/stores/${storeB}` })).statusCode,
    ).toBe(404);
    expect(
      (await customerA.inject({ method: 'GET', url: `/api/stores/${tenants.a.stores[1]!.id}` }))
        .statusCode,
    ).toBe(404);
    expect((await admin.inject({ method: 'GET', url: '/api/stores/abc' })).statusCode).toBe(400);
  });

  it('shows prices to admins only, the pairing key to all but managers, owners with counts', async () => {
    const store = await storeOfA({
      licence_price: '25.50',
      pairing_key: `K${unique()}`.toUpperCase(),
    });
    const owner = await buildUser(context.db, {
      role: 'customer',
      name: 'Owner',
      ownedStoreIds: [store.id, tenants.a.stores[1]!.id],
    });
    const get = async (agent: Agent) =>
      (await agent.inject({ method: 'GET', url: `/api/stores/${store.id}` })).json().store;
    const forAdmin = await get(admin);
    expect(forAdmin).toMatchObject({ licence_price: 25.5, effective_licence_price: 25.5 });
    expect(forAdmin.pairing_key).toBe(store.pairing_key);
    expect(forAdmin.owners).toEqual([
      {
        id: owner.id,
        name: 'Owner',
        surname: 'customer',
        email: owner.email,
        role: 'customer',
        store_count: 2,
      },
    ]);
    const forDistributor = await get(distributorA);
    expect(forDistributor).toMatchObject({ licence_price: null, effective_licence_price: null });
    expect(forDistributor.pairing_key).toBe(store.pairing_key);
    const forManager = await get(managerA);
    expect(forManager).toMatchObject({ pairing_key: null, is_read_only: true });
    const ownerAgent = await signIn(context.app, owner.email, testPassword);
    expect((await get(ownerAgent)).pairing_key).toBe(store.pairing_key);
    expect(forAdmin.is_read_only).toBe(false);
  });

  it('falls back to the database, then distributor, then default price', async () => {
    const distributor = await buildDistributor(context.db, { licence_price: '30' });
    const database = await buildDatabase(context.db, {
      distributor_id: distributor.id,
      licence_price: '22',
    });
    const withDatabase = await buildStore(context.db, {
      distributor_id: distributor.id,
      database_id: database.id,
    });
    const withDistributor = await buildStore(context.db, { distributor_id: distributor.id });
    const bare = await buildStore(context.db);
    const price = async (id: string) =>
      (await admin.inject({ method: 'GET', url: `/api/stores/${id}` })).json().store
        .effective_licence_price;
    expect(await price(withDatabase.id)).toBe(22);
    expect(await price(withDistributor.id)).toBe(30);
    expect(await price(bare.id)).toBe(19);
  });
});

describe('PATCH /api/stores/:id', () => {
  const patch = (agent: Agent | null, id: string, payload: object) =>
    agent
      ? agent.inject({ method: 'PATCH', url: `/api/stores/${id}`, payload })
      : context.app.inject({ method: 'PATCH', url: `/api/stores/${id}`, payload });

  it('answers 401 anonymous and 404 for another tenant, changing nothing', async () => {
    const storeB = tenants.b.stores[1]!;
    expect((await patch(null, storeB.id, { version: 0, name: 'Hacked' })).statusCode).toBe(401);
    expect((await patch(distributorA, storeB.id, { version: 0, name: 'Hacked' })).statusCode).toBe(
      404,
    );
    expect(
      (await patch(customerA, tenants.a.stores[1]!.id, { version: 0, name: 'Hacked' })).statusCode,
    ).toBe(404);
    expect((await rowOf(storeB.id)).name).toBe(storeB.name);
    expect((await rowOf(tenants.a.stores[1]!.id)).name).toBe(tenants.a.stores[1]!.name);
  });

  it('lets managers edit manager-owned stores only', async () => {
    const readOnly = await storeOfA();
    const denied = await patch(managerA, readOnly.id, { version: 0, week_start: 3 });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.message).toBe('You do not have permission to execute this action.');
    expect((await rowOf(readOnly.id)).week_start).toBe(0);
    const owned = await storeOfA({ manager_owned: true });
    const allowed = await patch(managerA, owned.id, { version: 0, week_start: 3 });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json().store).toMatchObject({ week_start: 3, version: 1, is_read_only: false });
  });

  it('keeps staff-only and admin-only fields to their roles', async () => {
    const store = await storeOfA({ manager_owned: true });
    await context.db
      .insert(storeOwners)
      .values({ store_id: store.id, user_id: tenants.a.users.customer.id });
    for (const payload of [
      { maximum_devices: 5 },
      { manager_owned: false },
      { sensor_sticker_id: 'hub-1' },
    ]) {
      for (const agent of [managerA, customerA]) {
        const response = await patch(agent, store.id, { version: 0, ...payload });
        expect(response.statusCode, JSON.stringify(payload)).toBe(403);
      }
    }
    for (const payload of [{ demonstration_store: true }, { licence_price: 10 }]) {
      expect((await patch(distributorA, store.id, { version: 0, ...payload })).statusCode).toBe(
        403,
      );
    }
    const unchanged = await rowOf(store.id);
    expect(unchanged).toMatchObject({
      version: 0,
      maximum_devices: 1,
      demonstration_store: false,
      licence_price: null,
    });
    const byDistributor = await patch(distributorA, store.id, { version: 0, maximum_devices: 5 });
    expect(byDistributor.json().store.maximum_devices).toBe(5);
    const byAdmin = await patch(admin, store.id, {
      version: 1,
      demonstration_store: true,
      licence_price: 12.5,
    });
    expect(byAdmin.json().store).toMatchObject({
      demonstration_store: true,
      licence_price: 12.5,
      effective_licence_price: 12.5,
    });
    const reset = await patch(admin, store.id, { version: 2, licence_price: null });
    expect(reset.json().store.licence_price).toBeNull();
    const byOwner = await patch(customerA, store.id, {
      version: 3,
      name: `Renamed ${unique()}`,
      active: false,
    });
    expect(byOwner.statusCode).toBe(200);
    expect(byOwner.json().store.active).toBe(false);
  });

  it('refuses invalid input with 400 and writes nothing', async () => {
    const store = await storeOfA();
    for (const payload of [
      { name: 'No version' },
      { version: 0, maximum_devices: 0 },
      { version: 0, maximum_devices: 31 },
      { version: 0, week_start: 7 },
      { version: 0, week_start: -1 },
      { version: 0, licence_price: -1 },
      { version: 0, task_generation_hour: 24 },
      { version: 0, name: '' },
      { version: 0, name: 'x'.repeat(121) },
      { version: 0, hidden_modules: ['laundry'] },
      { version: 0, active: 'yes' },
      { version: 0, mise_licence: true },
      { version: 0, distributor_id: tenants.b.distributor.id },
      { version: 0, timezone_name: 'Nowhere/City' },
    ]) {
      const response = await patch(admin, store.id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code).toBe('validation/invalid-input');
    }
    expect((await rowOf(store.id)).version).toBe(0);
  });

  it('answers 409 to a stale version and keeps the newer write', async () => {
    const store = await storeOfA();
    expect((await patch(distributorA, store.id, { version: 0, city: 'Nantes' })).statusCode).toBe(
      200,
    );
    const stale = await patch(admin, store.id, { version: 0, city: 'Brest' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('conflict/stale-version');
    expect(await rowOf(store.id)).toMatchObject({ city: 'Nantes', version: 1 });
  });

  it('locks the hub sticker once stored', async () => {
    const store = await storeOfA();
    expect(
      (await patch(distributorA, store.id, { version: 0, sensor_sticker_id: 'hub-1' })).statusCode,
    ).toBe(200);
    const same = await patch(distributorA, store.id, { version: 1, sensor_sticker_id: 'hub-1' });
    expect(same.statusCode).toBe(200);
    const changed = await patch(admin, store.id, { version: 2, sensor_sticker_id: 'hub-2' });
    expect(changed.statusCode).toBe(409);
    expect(changed.json().error.code).toBe('sensor/sticker-locked');
    const cleared = await patch(admin, store.id, { version: 2, sensor_sticker_id: null });
    expect(cleared.statusCode).toBe(409);
    expect((await rowOf(store.id)).sensor_sticker_id).toBe('hub-1');
  });

  it('follows the time zone name with the numeric offset', async () => {
    const store = await storeOfA();
    const response = await patch(admin, store.id, { version: 0, timezone_name: 'Europe/Helsinki' });
    expect(response.json().store).toMatchObject({
      timezone_name: 'Europe/Helsinki',
      timezone: timezoneOffsetHours('Europe/Helsinki'),
    });
  });

  it('refuses a rename onto another store of the distributor', async () => {
    const first = await storeOfA({ name: 'Twin Peaks' });
    const second = await storeOfA();
    const clash = await patch(admin, second.id, { version: 0, name: 'twin peaks' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().error.code).toBe('form.store.invalid.exists');
    const moved = await patch(admin, second.id, {
      version: 0,
      address: first.address,
      postal_code: first.postal_code,
      city: first.city,
    });
    expect(moved.statusCode).toBe(409);
    expect((await rowOf(second.id)).version).toBe(0);
    // Saving a store with its own name is no clash.
    expect((await patch(admin, first.id, { version: 0, name: 'Twin Peaks' })).statusCode).toBe(200);
  });
});

describe('POST /api/stores/:id/database', () => {
  const assign = (agent: Agent | null, id: string, databaseId: string | null) => {
    const options = {
      method: 'POST' as const,
      url: `/api/stores/${id}/database`,
      payload: { databaseId },
    };
    return agent ? agent.inject(options) : context.app.inject(options);
  };

  it('answers 401, 403 to managers and customers, 404 outside the scope', async () => {
    const store = await storeOfA({ database_id: null });
    expect((await assign(null, store.id, tenants.a.database.id)).statusCode).toBe(401);
    expect((await assign(managerA, store.id, tenants.a.database.id)).statusCode).toBe(403);
    expect((await assign(customerA, store.id, tenants.a.database.id)).statusCode).toBe(403);
    expect(
      (await assign(distributorA, tenants.b.stores[0]!.id, tenants.a.database.id)).statusCode,
    ).toBe(404);
    expect((await assign(distributorA, store.id, tenants.b.database.id)).statusCode).toBe(404);
    expect((await rowOf(store.id)).database_id).toBeNull();
  });

  it('refuses no database or a database without distributor (invalid-database)', async () => {
    const store = await storeOfA({ database_id: null });
    const none = await assign(admin, store.id, null);
    expect(none.statusCode).toBe(400);
    expect(none.json().error.code).toBe('invalid-database');
    const orphan = await buildDatabase(context.db);
    const withoutDistributor = await assign(admin, store.id, orphan.id);
    expect(withoutDistributor.statusCode).toBe(400);
    expect(withoutDistributor.json().error.code).toBe('invalid-database');
    expect((await assign(admin, store.id, 'nope' as string)).statusCode).toBe(400);
    expect((await rowOf(store.id)).database_id).toBeNull();
  });

  it("sets the store's database and distributor to the database's", async () => {
    const store = await storeOfA({ database_id: null });
    const response = await assign(admin, store.id, tenants.b.database.id);
    expect(response.statusCode).toBe(200);
    expect(response.json().store).toMatchObject({
      database: tenants.b.database.id,
      distributor: tenants.b.distributor.id,
      distributor_name: 'Distributor B',
    });
    expect(await rowOf(store.id)).toMatchObject({
      database_id: tenants.b.database.id,
      distributor_id: tenants.b.distributor.id,
    });
    const own = await storeOfA({ database_id: null });
    expect((await assign(distributorA, own.id, tenants.a.database.id)).statusCode).toBe(200);
  });

  it('turns the overrides of the old database into elements of the store own, effective values kept', async () => {
    const oldDatabase = tenants.a.database.id;
    const store = await storeOfA({ database_id: oldDatabase });
    const type = await buildElementType(context.db, { database_id: oldDatabase });
    const origin = await buildDatabaseElement(context.db, {
      database_id: oldDatabase,
      name: 'Crème fraîche',
      type_id: type.id,
      minimum_temperature: 2,
      maximum_temperature: 8,
      locks: { ...defaultElementLocks, maximum_temperature: false, labels: false },
      allergens: ['milkOrLactose'],
      illustration_url: `/api/files/databases/${oldDatabase}/element_pictures/x/a.png`,
      illustration_path: `databases/${oldDatabase}/element_pictures/x/a.png`,
    });
    const originLabel = await buildLabel(context.db, {
      database_id: oldDatabase,
      database_element_id: origin.id,
      name: 'DLC',
      type: 'expiration',
      expiration_duration: 48,
      index: 0,
    });
    await buildLabel(context.db, {
      database_id: oldDatabase,
      database_element_id: origin.id,
      name: 'Ouverture',
      index: 1,
    });
    const override = await buildStoreElement(context.db, {
      store_id: store.id,
      origin_id: origin.id,
      maximum_temperature: 6,
    });
    await context.db.insert(elementLabels).values({
      store_id: store.id,
      store_element_id: override.id,
      origin_id: originLabel.id,
      index: 0,
      expiration_duration: 72,
    });
    const newDatabase = await buildDatabase(context.db, {
      distributor_id: tenants.a.distributor.id,
    });
    const response = await assign(admin, store.id, newDatabase.id);
    expect(response.statusCode, response.body).toBe(200);

    const [row] = await context.db
      .select()
      .from(storeElements)
      .where(eq(storeElements.id, override.id));
    expect(row).toMatchObject({
      origin_id: null,
      name: 'Crème fraîche',
      type_id: type.id,
      minimum_temperature: 2,
      maximum_temperature: 6,
      allergens: ['milkOrLactose'],
      illustration_url: null,
      version: override.version + 1,
    });
    const element = await admin.inject({ method: 'GET', url: `/api/storeElements/${override.id}` });
    expect(element.statusCode).toBe(200);
    expect(element.json().element).toMatchObject({
      name: 'Crème fraîche',
      origin_id: null,
      maximum_temperature: 6,
    });
    expect(
      element
        .json()
        .element.labels.map(
          (label: { name: string; state: string; expiration_duration: number }) => [
            label.name,
            label.state,
            label.expiration_duration,
          ],
        ),
    ).toEqual([
      ['DLC', 'own', 72],
      ['Ouverture', 'own', 0],
    ]);
    const list = await admin.inject({ method: 'GET', url: `/api/stores/${store.id}/elements` });
    expect(list.json().items.map((item: { name: string }) => item.name)).toContain('Crème fraîche');
  });
});

describe('POST /api/stores/updateLicence', () => {
  const update = (agent: Agent | null, payload: object) => {
    const options = { method: 'POST' as const, url: '/api/stores/updateLicence', payload };
    return agent ? agent.inject(options) : context.app.inject(options);
  };

  it('answers 401, 403 to managers and customers, 404 outside the scope, 400 on bad input', async () => {
    const store = await storeOfA();
    expect((await update(null, { storeId: store.id, activated: true })).statusCode).toBe(401);
    expect((await update(managerA, { storeId: store.id, activated: true })).statusCode).toBe(403);
    expect(
      (await update(customerA, { storeId: tenants.a.stores[0]!.id, activated: true })).statusCode,
    ).toBe(403);
    expect(
      (await update(distributorA, { storeId: tenants.b.stores[0]!.id, activated: true }))
        .statusCode,
    ).toBe(404);
    for (const payload of [
      { storeId: store.id },
      { storeId: store.id, activated: 'yes' },
      { storeId: store.id, activated: true, extra: 1 },
    ]) {
      expect((await update(admin, payload)).statusCode).toBe(400);
    }
    expect(monitoring.calls).toEqual([]);
    expect(await rowOf(store.id)).toMatchObject({
      mise_licence: false,
      licence_activation_history: [],
    });
  });

  it('saves nothing when the monitoring server refuses (502)', async () => {
    const store = await storeOfA();
    monitoring.answer = false;
    const response = await update(distributorA, { storeId: store.id, activated: true });
    expect(response.statusCode).toBe(502);
    expect(response.json().error).toEqual({
      code: 'licence/monitoring-failed',
      message:
        'Impossible de mettre a jour la licence sur le serveur Mise. Veuillez reessayer plus tard.',
    });
    expect(monitoring.calls).toEqual([{ storeId: store.id, activated: true }]);
    expect(await rowOf(store.id)).toMatchObject({
      mise_licence: false,
      licence_activation_history: [],
      version: 0,
    });
  });

  it('switches the licence and appends the history only on a change', async () => {
    const store = await storeOfA();
    const before = Date.now();
    const on = await update(distributorA, { storeId: store.id, activated: true });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ status: 'ok' });
    expect(await update(admin, { storeId: store.id, activated: true })).toMatchObject({
      statusCode: 200,
    });
    expect((await update(admin, { storeId: store.id, activated: false })).statusCode).toBe(200);
    const row = await rowOf(store.id);
    expect(row.mise_licence).toBe(false);
    expect(row.licence_activation_history.map((entry) => entry.activated)).toEqual([true, false]);
    for (const entry of row.licence_activation_history) {
      expect(entry.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(Date.parse(entry.timestamp)).toBeGreaterThanOrEqual(before - 1000);
    }
    expect(monitoring.calls).toHaveLength(3);
  });
});

describe('POST /api/stores/addOwner and DELETE /api/stores/:id/owners/:userId', () => {
  const addOwner = (agent: Agent | null, payload: object) => {
    const options = { method: 'POST' as const, url: '/api/stores/addOwner', payload };
    return agent ? agent.inject(options) : context.app.inject(options);
  };

  it('answers 401, 403 to managers, 404 outside the scope and to non-owners, 400 on bad input', async () => {
    const store = await storeOfA();
    const target = await buildUser(context.db, { role: 'customer' });
    expect((await addOwner(null, { email: target.email, storeId: store.id })).statusCode).toBe(401);
    const denied = await addOwner(managerA, { email: target.email, storeId: store.id });
    expect(denied.statusCode).toBe(403);
    expect((await addOwner(customerA, { email: target.email, storeId: store.id })).statusCode).toBe(
      404,
    );
    expect(
      (await addOwner(distributorA, { email: target.email, storeId: tenants.b.stores[0]!.id }))
        .statusCode,
    ).toBe(404);
    for (const payload of [
      { email: '', storeId: store.id },
      { email: '   ', storeId: store.id },
      { email: 'not-an-email', storeId: store.id },
      { email: target.email },
      { email: target.email, storeId: store.id, role: 'admin' },
      { email: `${'x'.repeat(250)}@x.fr`, storeId: store.id },
    ]) {
      const response = await addOwner(admin, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await ownersOf(store.id)).toEqual([]);
  });

  it('adds an eligible customer of its own tenant (ok), then refuses it again (not-elligible)', async () => {
    const store = await storeOfA();
    // Already a customer of distributor A only: linking discloses nothing (issue 13).
    const target = await buildUser(context.db, {
      role: 'customer',
      ownedStoreIds: [tenants.a.stores[1]!.id],
    });
    const first = await addOwner(distributorA, {
      email: `  ${target.email.toUpperCase()} `,
      storeId: store.id,
    });
    expect(first.json()).toEqual({ status: 'ok' });
    expect(await ownersOf(store.id)).toEqual([target.id]);
    const again = await addOwner(admin, { email: target.email, storeId: store.id });
    expect(again.json()).toEqual({ status: 'not-elligible' });
    expect(await ownersOf(store.id)).toEqual([target.id]);
  });

  it('lets an owner add a co-owner', async () => {
    const store = await storeOfA();
    await context.db
      .insert(storeOwners)
      .values({ store_id: store.id, user_id: tenants.a.users.customer.id });
    // A partner already owning the adder's store (issue 13: no consent needed within it).
    const partner = await buildUser(context.db, {
      role: 'customer',
      ownedStoreIds: [tenants.a.stores[0]!.id],
    });
    expect((await addOwner(customerA, { email: partner.email, storeId: store.id })).json()).toEqual(
      { status: 'ok' },
    );
    expect(await ownersOf(store.id)).toEqual([partner.id, tenants.a.users.customer.id].sort());
  });

  it('refuses every role but customer (spec 000 §5) and a 31st store', async () => {
    const store = await storeOfA();
    const full = await buildUser(context.db, { role: 'customer' });
    const thirty = [];
    for (let index = 0; index < 30; index++) thirty.push((await buildStore(context.db)).id);
    await context.db
      .insert(storeOwners)
      .values(thirty.map((store_id) => ({ store_id, user_id: full.id })));
    const owningDistributor = await buildUser(context.db, {
      role: 'distributor',
      ownedStoreIds: [thirty[0]!],
    });
    for (const email of [
      tenants.admin.email,
      tenants.a.users.manager.email,
      owningDistributor.email,
      full.email,
    ]) {
      const response = await addOwner(admin, { email, storeId: store.id });
      expect(response.statusCode).toBe(200);
      expect(response.json(), email).toEqual({ status: 'not-elligible' });
    }
    expect(await ownersOf(store.id)).toEqual([]);
    const freeDistributor = await buildUser(context.db, { role: 'distributor' });
    expect(
      (await addOwner(admin, { email: freeDistributor.email, storeId: store.id })).json(),
    ).toEqual({ status: 'not-elligible' });
    expect(await ownersOf(store.id)).toEqual([]);
  });

  it('never lets simultaneous additions pass the 30-store limit', async () => {
    const owner = await buildUser(context.db, { role: 'customer' });
    const owned = [];
    for (let index = 0; index < 29; index++) owned.push((await buildStore(context.db)).id);
    await context.db
      .insert(storeOwners)
      .values(owned.map((store_id) => ({ store_id, user_id: owner.id })));
    const candidates = [await storeOfA(), await storeOfA(), await storeOfA()];
    const statuses = await Promise.all(
      candidates.map(
        async (store) =>
          (await addOwner(admin, { email: owner.email, storeId: store.id })).json().status,
      ),
    );
    expect(statuses.sort()).toEqual(['not-elligible', 'not-elligible', 'ok']);
    const [row] = await context.db
      .select({ total: count() })
      .from(storeOwners)
      .where(eq(storeOwners.user_id, owner.id));
    expect(row!.total).toBe(30);
  });

  it('invites an unknown e-mail by mail; signing up grants nothing until an invitation is accepted', async () => {
    const store = await storeOfA({ name: `Invited ${unique()}` });
    const email = `new.owner+${unique()}@example.test`;
    const response = await addOwner(distributorA, { email, storeId: store.id });
    expect(response.json()).toEqual({ status: 'invited' });
    const invitations = await context.db
      .select()
      .from(storeInvitations)
      .where(eq(storeInvitations.email, email));
    expect(invitations).toMatchObject([
      { store_id: store.id, invited_by: tenants.a.users.distributor.id },
    ]);
    const message = await mail.server.waitForMessage((received) =>
      received.envelopeTo.includes(email),
    );
    expect(message.subject).toContain(store.name);
    expect(message.body).toContain(
      `http://mise.test/?email=${encodeURIComponent(email)}&invitation=`,
    );

    const signup = await context.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: {
        name: 'New',
        surname: 'Owner',
        email,
        password: testPassword,
        phone: '0600000000',
      },
    });
    expect(signup.statusCode).toBe(200);
    // Whoever registers an e-mail first proves nothing about owning it: no store yet.
    const owner = await signIn(context.app, email, testPassword);
    const before = (await owner.inject({ method: 'GET', url: '/api/me' })).json().user;
    expect(before.stores).toEqual([]);
    // Added again, the account (of no tenant yet) is invited: its holder accepts by signing
    // in from the new link (issue 13).
    expect((await addOwner(distributorA, { email, storeId: store.id })).json()).toEqual({
      status: 'invited',
    });
    expect((await owner.inject({ method: 'GET', url: '/api/me' })).json().user.stores).toEqual([]);
    const second = await mail.server.waitForMessage(
      (received) => received.envelopeTo.includes(email) && received !== message,
    );
    const token = decodeURIComponent(/invitation=([^\s&]+)/.exec(second.body)![1]!);
    const accepted = await context.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: testPassword, invitation: token },
    });
    expect(accepted.statusCode).toBe(200);
    const after = (await owner.inject({ method: 'GET', url: '/api/me' })).json().user;
    expect(after.stores).toEqual([store.id]);
  });

  it('grants the store at signup to the e-mail that presents the mailed invitation token, once', async () => {
    const store = await storeOfA({ name: `Token ${unique()}` });
    const email = `token.owner+${unique()}@example.test`;
    expect((await addOwner(distributorA, { email, storeId: store.id })).json()).toEqual({
      status: 'invited',
    });
    const message = await mail.server.waitForMessage((received) =>
      received.envelopeTo.includes(email),
    );
    const token = decodeURIComponent(/invitation=([^\s&]+)/.exec(message.body)![1]!);
    const [row] = await context.db
      .select()
      .from(storeInvitations)
      .where(eq(storeInvitations.email, email));
    expect(row!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.token_hash).not.toContain(token);
    const signup = (payload: object) =>
      context.app.inject({ method: 'POST', url: '/api/auth/signup', payload });
    const form = { name: 'Token', surname: 'Owner', password: testPassword, phone: '0600000000' };
    // The token only works for the invited e-mail.
    const thief = `thief+${unique()}@example.test`;
    expect((await signup({ ...form, email: thief, invitation: token })).statusCode).toBe(200);
    const thiefAgent = await signIn(context.app, thief, testPassword);
    expect((await thiefAgent.inject({ method: 'GET', url: '/api/me' })).json().user.stores).toEqual(
      [],
    );
    expect((await signup({ ...form, email, invitation: token })).statusCode).toBe(200);
    const owner = await signIn(context.app, email, testPassword);
    expect((await owner.inject({ method: 'GET', url: '/api/me' })).json().user.stores).toEqual([
      store.id,
    ]);
    expect(
      await context.db.select().from(storeInvitations).where(eq(storeInvitations.email, email)),
    ).toEqual([]);
  });

  it('removes an owner: 401, 403 manager, 404 outside the scope or not an owner', async () => {
    const store = await storeOfA();
    const owner = await buildUser(context.db, { role: 'customer', ownedStoreIds: [store.id] });
    const remove = (agent: Agent | null, storeId: string, userId: string) => {
      const options = { method: 'DELETE' as const, url: `/api/stores/${storeId}/owners/${userId}` };
      return agent ? agent.inject(options) : context.app.inject(options);
    };
    expect((await remove(null, store.id, owner.id)).statusCode).toBe(401);
    expect((await remove(managerA, store.id, owner.id)).statusCode).toBe(403);
    expect((await remove(customerA, store.id, owner.id)).statusCode).toBe(404);
    expect(
      (await remove(distributorA, tenants.b.stores[0]!.id, tenants.b.users.customer.id)).statusCode,
    ).toBe(404);
    expect((await remove(admin, store.id, tenants.a.users.customer.id)).statusCode).toBe(404);
    expect(await ownersOf(tenants.b.stores[0]!.id)).toEqual([tenants.b.users.customer.id]);
    expect(await ownersOf(store.id)).toEqual([owner.id]);
    const removed = await remove(distributorA, store.id, owner.id);
    expect(removed.json()).toEqual({ status: 'ok' });
    expect(await ownersOf(store.id)).toEqual([]);
  });
});

const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

function multipart(file: { filename: string; contentType: string; data: Buffer }) {
  const boundary = `----mise-test-${randomBytes(8).toString('hex')}`;
  const head =
    `--${boundary}\r\n` +
    `Content-Disposition: form-data; name="file"; filename="${file.filename}"\r\n` +
    `Content-Type: ${file.contentType}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), file.data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe('POST /api/stores/:id/illustration', () => {
  const upload = (
    agent: Agent | null,
    storeId: string,
    file = { filename: 'shop.png', contentType: 'image/png', data: png },
  ) => {
    const options = {
      method: 'POST' as const,
      url: `/api/stores/${storeId}/illustration`,
      ...multipart(file),
    };
    return agent ? agent.inject(options) : context.app.inject(options);
  };
  const storedFilesOf = (storeId: string) => {
    const folder = join(context.config.DATA_DIR, 'files', 'stores', storeId);
    return existsSync(folder) ? readdirSync(folder) : [];
  };

  it('answers 401, 403 read-only manager, 404 other tenant, 415 wrong type, storing nothing', async () => {
    const store = await storeOfA();
    expect((await upload(null, store.id)).statusCode).toBe(401);
    expect((await upload(managerA, store.id)).statusCode).toBe(403);
    expect((await upload(distributorA, tenants.b.stores[0]!.id)).statusCode).toBe(404);
    const text = await upload(admin, store.id, {
      filename: 'x.png',
      contentType: 'image/png',
      data: Buffer.from('not an image'),
    });
    expect(text.statusCode).toBe(415);
    expect(storedFilesOf(store.id)).toEqual([]);
    expect(storedFilesOf(tenants.b.stores[0]!.id)).toEqual([]);
  });

  it('stores the image under stores/<id>/ and replaces the previous one', async () => {
    const store = await storeOfA();
    const first = (await upload(distributorA, store.id)).json().store;
    expect(first.illustration_url).toMatch(
      new RegExp(`^/api/files/stores/${store.id}/illustration-[0-9a-f]{16}\\.png$`),
    );
    const second = (await upload(distributorA, store.id)).json().store;
    expect(storedFilesOf(store.id)).toEqual([second.illustration_url.split('/').pop()]);
    const file = await distributorA.inject({ method: 'GET', url: second.illustration_url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
  });
});
