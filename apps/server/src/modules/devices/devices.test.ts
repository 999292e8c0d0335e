import { createHash, randomBytes } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { devices, stores } from '../../db/schema';
import { buildStore, buildTwoTenants, buildUser, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { newPairingKey } from '../stores/pairing-key';

const context = useTestApp();

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

const unique = () => randomBytes(4).toString('hex');
/** Each test registers from its own address: the route allows 20 a minute per address. */
let addressCounter = 0;
const nextAddress = () =>
  `10.0.${Math.floor(addressCounter / 200)}.${(addressCounter++ % 200) + 1}`;

function storeOfA(values: Parameters<typeof buildStore>[1] = {}) {
  return buildStore(context.db, {
    distributor_id: tenants.a.distributor.id,
    database_id: tenants.a.database.id,
    pairing_key: newPairingKey(),
    mise_licence: true,
    ...values,
  });
}

function register(payload: object, remoteAddress = nextAddress()) {
  return context.app.inject({
    method: 'POST',
    url: '/api/devices/register',
    payload,
    remoteAddress,
  });
}

const deviceBody = (pairingKey: string, values: object = {}) => ({
  pairing_key: pairingKey,
  device_id: `tablet-${unique()}`,
  device_model: 'Galaxy Tab',
  app_version: '2.1.0',
  os_version: 'Android 14',
  ...values,
});

async function devicesOf(storeId: string) {
  return context.db.select().from(devices).where(eq(devices.store_id, storeId));
}

async function deviceCount() {
  const [row] = await context.db.select({ total: count() }).from(devices);
  return row!.total;
}

/** A paired device of a store, through the API. */
async function pairedDevice(store: { pairing_key: string | null }) {
  const response = await register(deviceBody(store.pairing_key!));
  expect(response.statusCode).toBe(200);
  return response.json() as { device: { id: string; version: number }; token: string };
}

const me = (token?: string) =>
  context.app.inject({
    method: 'GET',
    url: '/api/devices/me',
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

describe('POST /api/devices/register and GET /api/devices/me', () => {
  it('pairs a tablet, keeps only the hash of its token, and the token opens /devices/me', async () => {
    const store = await storeOfA();
    const body = deviceBody(store.pairing_key!.toLowerCase(), { name: 'Cuisine' });
    const response = await register(body);
    expect(response.statusCode).toBe(200);
    const { device, token } = response.json();
    expect(device).toMatchObject({
      store_id: store.id,
      device_id: body.device_id,
      device_model: 'Galaxy Tab',
      name: 'Cuisine',
      prevent_screen_lock: true,
      dark_mode: false,
    });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(response.body).not.toContain('token_hash');
    const [row] = await devicesOf(store.id);
    expect(row!.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token);

    const mine = await me(token);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().device.id).toBe(device.id);
    expect(mine.json().device.last_connexion).not.toBeNull();
  });

  it('answers 401 on /devices/me without a device token, or with a user session', async () => {
    expect((await me()).statusCode).toBe(401);
    expect((await me('not-a-token')).statusCode).toBe(401);
    const userCall = await admin.inject({ method: 'GET', url: '/api/devices/me' });
    expect(userCall.statusCode).toBe(401);
  });

  it('answers 404 device/invalid-pairing-key for an unknown key or an inactive store', async () => {
    const before = await deviceCount();
    const unknown = await register(deviceBody('ZZZZZZZZZZ'));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('device/invalid-pairing-key');
    const inactive = await storeOfA({ active: false });
    const closed = await register(deviceBody(inactive.pairing_key!));
    expect(closed.statusCode).toBe(404);
    expect(closed.json().error.code).toBe('device/invalid-pairing-key');
    expect(await deviceCount()).toBe(before);
  });

  it('answers 403 device/store-unlicensed for the key of a store without its licence', async () => {
    const before = await deviceCount();
    const unlicensed = await storeOfA({ mise_licence: false });
    const refused = await register(deviceBody(unlicensed.pairing_key!));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('device/store-unlicensed');
    expect(await deviceCount()).toBe(before);
  });

  it('refuses invalid input with 400 and writes nothing', async () => {
    const store = await storeOfA();
    const before = await deviceCount();
    const { device_id: _deviceId, ...withoutDevice } = deviceBody(store.pairing_key!);
    for (const payload of [
      withoutDevice,
      deviceBody('abc'),
      deviceBody(store.pairing_key!, { device_id: '' }),
      deviceBody(store.pairing_key!, { device_id: 'x'.repeat(201) }),
      deviceBody(store.pairing_key!, { app_version: 12 }),
      deviceBody(store.pairing_key!, { store_id: store.id }),
    ]) {
      const response = await register(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code).toBe('validation/invalid-input');
    }
    expect(await deviceCount()).toBe(before);
  });

  it('stops at maximum_devices (409) but re-registers a known device on its row', async () => {
    const store = await storeOfA({ maximum_devices: 2 });
    const first = await pairedDevice(store);
    await pairedDevice(store);
    const third = await register(deviceBody(store.pairing_key!));
    expect(third.statusCode).toBe(409);
    expect(third.json().error.code).toBe('device/limit-reached');
    expect(await devicesOf(store.id)).toHaveLength(2);

    const [firstRow] = (await devicesOf(store.id)).filter((row) => row.id === first.device.id);
    const again = await register(
      deviceBody(store.pairing_key!, { device_id: firstRow!.device_id, app_version: '3.0.0' }),
    );
    expect(again.statusCode).toBe(200);
    expect(again.json().device).toMatchObject({ id: first.device.id, app_version: '3.0.0' });
    expect(again.json().token).not.toBe(first.token);
    expect(await devicesOf(store.id)).toHaveLength(2);
    expect((await me(first.token)).statusCode).toBe(401);
    expect((await me(again.json().token)).statusCode).toBe(200);
  });

  it('lets only one of several simultaneous tablets take the last place', async () => {
    const store = await storeOfA({ maximum_devices: 1 });
    const responses = await Promise.all(
      [1, 2, 3].map(() => register(deviceBody(store.pairing_key!))),
    );
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409, 409]);
    expect(await devicesOf(store.id)).toHaveLength(1);
  });

  it('stamps last_connexion on device calls at most every five minutes', async () => {
    const store = await storeOfA();
    const { device, token } = await pairedDevice(store);
    const stampOf = async () => (await devicesOf(store.id))[0]!.last_connexion!.getTime();
    const recent = new Date(Date.now() - 60_000);
    await context.db
      .update(devices)
      .set({ last_connexion: recent })
      .where(eq(devices.id, device.id));
    await me(token);
    expect(await stampOf()).toBe(recent.getTime());
    const old = new Date(Date.now() - 6 * 60_000);
    await context.db.update(devices).set({ last_connexion: old }).where(eq(devices.id, device.id));
    await me(token);
    expect(await stampOf()).toBeGreaterThan(Date.now() - 10_000);
  });

  it('throttles registration to 20 a minute per address', async () => {
    const address = '10.9.9.9';
    const statuses = [];
    for (let index = 0; index < 21; index++) {
      statuses.push((await register(deviceBody('ZZZZZZZZZZ'), address)).statusCode);
    }
    expect(statuses.slice(0, 20).every((status) => status === 404)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});

describe('GET /api/stores/:id/devices', () => {
  it('answers 401, 404 outside the scope, and lists the devices of the store', async () => {
    const store = await storeOfA();
    const { device } = await pairedDevice(store);
    const url = `/api/stores/${store.id}/devices`;
    expect((await context.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    expect((await customerA.inject({ method: 'GET', url })).statusCode).toBe(404);
    const storeB = await buildStore(context.db, {
      distributor_id: tenants.b.distributor.id,
      pairing_key: newPairingKey(),
      mise_licence: true,
    });
    await pairedDevice(storeB);
    expect(
      (await distributorA.inject({ method: 'GET', url: `/api/stores/${storeB.id}/devices` }))
        .statusCode,
    ).toBe(404);
    const list = await managerA.inject({ method: 'GET', url });
    expect(list.statusCode).toBe(200);
    expect(list.json().items.map((item: { id: string }) => item.id)).toEqual([device.id]);
    expect(list.body).not.toContain('token');
    const detail = (await admin.inject({ method: 'GET', url: `/api/stores/${store.id}` })).json();
    expect(detail.store.device_count).toBe(1);
  });
});

describe('PATCH and DELETE /api/devices/:id', () => {
  const patch = (agent: Agent | null, id: string, payload: object) => {
    const options = { method: 'PATCH' as const, url: `/api/devices/${id}`, payload };
    return agent ? agent.inject(options) : context.app.inject(options);
  };
  const remove = (agent: Agent | null, id: string) => {
    const options = { method: 'DELETE' as const, url: `/api/devices/${id}` };
    return agent ? agent.inject(options) : context.app.inject(options);
  };

  it('answers 401, 404 for another tenant, 403 to a manager of a store not manager-owned', async () => {
    const store = await storeOfA();
    const { device } = await pairedDevice(store);
    const storeB = await buildStore(context.db, {
      distributor_id: tenants.b.distributor.id,
      pairing_key: newPairingKey(),
      mise_licence: true,
    });
    const { device: deviceB } = await pairedDevice(storeB);
    expect((await patch(null, device.id, { version: 0, dark_mode: true })).statusCode).toBe(401);
    expect((await remove(null, device.id)).statusCode).toBe(401);
    expect(
      (await patch(distributorA, deviceB.id, { version: 0, dark_mode: true })).statusCode,
    ).toBe(404);
    expect((await remove(distributorA, deviceB.id)).statusCode).toBe(404);
    expect((await patch(customerA, device.id, { version: 0, dark_mode: true })).statusCode).toBe(
      404,
    );
    const denied = await patch(managerA, device.id, { version: 0, dark_mode: true });
    expect(denied.statusCode).toBe(403);
    expect((await remove(managerA, device.id)).statusCode).toBe(403);
    expect((await devicesOf(store.id))[0]).toMatchObject({ dark_mode: false, version: 0 });
    expect(await devicesOf(storeB.id)).toHaveLength(1);
  });

  it('refuses invalid input with 400 and a stale version with 409, writing nothing', async () => {
    const store = await storeOfA();
    const { device } = await pairedDevice(store);
    for (const payload of [
      { dark_mode: true },
      { version: 0, name: '' },
      { version: 0, name: 'x'.repeat(81) },
      { version: 0, dark_mode: 'on' },
      { version: 0, device_id: 'other' },
      { version: 0, store_id: tenants.b.stores[0]!.id },
    ]) {
      const response = await patch(admin, device.id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await patch(admin, 'not-a-uuid', { version: 0 })).statusCode).toBe(400);
    expect((await patch(admin, device.id, { version: 0, rotation_lock: true })).statusCode).toBe(
      200,
    );
    const stale = await patch(distributorA, device.id, { version: 0, rotation_lock: false });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('conflict/stale-version');
    expect((await devicesOf(store.id))[0]).toMatchObject({ rotation_lock: true, version: 1 });
  });

  it("lets owners and managers of manager-owned stores change the tablet's settings, then delete it", async () => {
    const store = await storeOfA({ manager_owned: true });
    const { device, token } = await pairedDevice(store);
    const byManager = await patch(managerA, device.id, {
      version: 0,
      name: 'Bar',
      dark_mode: true,
      slow_internet_mode: true,
      audio_task_reminders: true,
      rotation_lock: true,
      prevent_screen_lock: false,
    });
    expect(byManager.statusCode).toBe(200);
    expect(byManager.json().device).toMatchObject({
      name: 'Bar',
      dark_mode: true,
      slow_internet_mode: true,
      audio_task_reminders: true,
      rotation_lock: true,
      prevent_screen_lock: false,
      version: 1,
    });
    const owned = await storeOfA();
    const owner = await buildUser(context.db, { role: 'customer', ownedStoreIds: [owned.id] });
    const ownerAgent = await signIn(context.app, owner.email, testPassword);
    const { device: ownedDevice } = await pairedDevice(owned);
    expect(
      (await patch(ownerAgent, ownedDevice.id, { version: 0, dark_mode: true })).statusCode,
    ).toBe(200);
    expect((await remove(ownerAgent, ownedDevice.id)).json()).toEqual({ status: 'ok' });

    expect((await remove(managerA, device.id)).statusCode).toBe(200);
    expect(await devicesOf(store.id)).toEqual([]);
    expect((await me(token)).statusCode).toBe(401);
  });
});

describe('POST /api/stores/:id/pairing-key', () => {
  const regenerate = (agent: Agent | null, storeId: string) => {
    const options = { method: 'POST' as const, url: `/api/stores/${storeId}/pairing-key` };
    return agent ? agent.inject(options) : context.app.inject(options);
  };

  it('answers 401, 403 read-only manager, 404 outside the scope, changing nothing', async () => {
    const store = await storeOfA();
    expect((await regenerate(null, store.id)).statusCode).toBe(401);
    expect((await regenerate(managerA, store.id)).statusCode).toBe(403);
    expect((await regenerate(customerA, store.id)).statusCode).toBe(404);
    expect((await regenerate(distributorA, tenants.b.stores[0]!.id)).statusCode).toBe(404);
    const [row] = await context.db.select().from(stores).where(eq(stores.id, store.id));
    expect(row!.pairing_key).toBe(store.pairing_key);
  });

  it('draws a new key: the old one stops pairing, paired tablets keep working', async () => {
    const store = await storeOfA({ maximum_devices: 5 });
    const { token } = await pairedDevice(store);
    const response = await regenerate(distributorA, store.id);
    expect(response.statusCode).toBe(200);
    const key = response.json().pairing_key;
    expect(key).toMatch(/^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{10}$/);
    expect(key).not.toBe(store.pairing_key);
    expect((await register(deviceBody(store.pairing_key!))).statusCode).toBe(404);
    expect((await register(deviceBody(key))).statusCode).toBe(200);
    expect((await me(token)).statusCode).toBe(200);
  });
});
