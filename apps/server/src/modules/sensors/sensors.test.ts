import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { sensorCredentials, stores } from '../../db/schema';
import type { SensorProvider } from '../../platform/integrations/sensor-provider';
import { buildStore, buildTwoTenants, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const goodHash = sha256('right-password');
const badHash = sha256('wrong-password');

/** A provider double: records the calls, accepts one password, lists hubs and unsorted tags. */
const calls: { method: string; email: string }[] = [];
const provider: SensorProvider = {
  validCredentials: async ({ email, passwordHash }) => {
    calls.push({ method: 'validCredentials', email });
    return passwordHash === goodHash;
  },
  stickers: async ({ email }) => {
    calls.push({ method: 'stickers', email });
    return [{ id: `hub-of-${email}`, name: `Hub ${email}` }];
  },
  tags: async ({ email }, stickerId) => {
    calls.push({ method: 'tags', email });
    return [
      { id: `${stickerId}-z`, name: 'Zinc fridge' },
      { id: `${stickerId}-a`, name: 'Alpha cold room' },
    ];
  },
  readings: async () => [],
};

const context = useTestApp({ integrations: { sensorProvider: provider } });

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

const send = (agent: Agent | null, options: Parameters<Agent['inject']>[0]) =>
  agent ? agent.inject(options) : context.app.inject(options);
const check = (agent: Agent | null, payload: object) =>
  send(agent, { method: 'POST', url: '/api/koovea/validCredentials', payload });
const credentialRows = () => context.db.select().from(sensorCredentials);

describe('POST /api/koovea/validCredentials', () => {
  it('answers 401 anonymous and writes nothing', async () => {
    const response = await check(null, {
      email: 'a@koovea.test',
      password: goodHash,
      storeId: tenants.a.stores[0]!.id,
    });
    expect(response.statusCode).toBe(401);
    expect(await credentialRows()).toEqual([]);
  });

  it('refuses invalid input with 400 without calling the provider', async () => {
    const before = calls.length;
    const storeId = tenants.a.stores[0]!.id;
    for (const payload of [
      { email: 'a@koovea.test', password: 'right-password', storeId },
      { email: '', password: goodHash, storeId },
      { email: 'x'.repeat(255), password: goodHash, storeId },
      { email: 'a@koovea.test', password: goodHash.toUpperCase(), storeId },
      { email: 'a@koovea.test', password: goodHash, storeId, extra: true },
      { email: 'a@koovea.test', password: goodHash },
      {
        email: 'a@koovea.test',
        password: goodHash,
        storeId,
        distributorId: tenants.a.distributor.id,
      },
    ]) {
      const response = await check(admin, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code).toBe('validation/invalid-input');
    }
    expect(calls.length).toBe(before);
    expect(await credentialRows()).toEqual([]);
  });

  it('answers 404 outside the scope and 403 to managers and customers for a distributor', async () => {
    const other = await check(distributorA, {
      email: 'a@koovea.test',
      password: goodHash,
      distributorId: tenants.b.distributor.id,
    });
    expect(other.statusCode).toBe(404);
    const otherStore = await check(customerA, {
      email: 'a@koovea.test',
      password: goodHash,
      storeId: tenants.a.stores[1]!.id,
    });
    expect(otherStore.statusCode).toBe(404);
    for (const agent of [managerA, customerA]) {
      const response = await check(agent, {
        email: 'a@koovea.test',
        password: goodHash,
        distributorId: tenants.a.distributor.id,
      });
      expect(response.statusCode).toBe(403);
    }
    expect(await credentialRows()).toEqual([]);
  });

  it('answers the string "false" to wrong credentials and stores nothing', async () => {
    const response = await check(customerA, {
      email: 'owner@koovea.test',
      password: badHash,
      storeId: tenants.a.stores[0]!.id,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'false' });
    expect(await credentialRows()).toEqual([]);
  });

  it('stores right credentials for a store, never echoing them, and replaces them on a new check', async () => {
    const storeId = tenants.a.stores[0]!.id;
    const first = await check(customerA, {
      email: 'owner@koovea.test',
      password: goodHash,
      storeId,
    });
    expect(first.json()).toEqual({ status: 'ok' });
    expect(first.body).not.toContain(goodHash);
    // A manager is read-only on a store that is not manager-owned (spec 000 §6).
    const refused = await check(managerA, {
      email: 'manager@koovea.test',
      password: goodHash,
      storeId,
    });
    expect(refused.statusCode).toBe(403);
    const second = await check(customerA, {
      email: 'second@koovea.test',
      password: goodHash,
      storeId,
    });
    expect(second.json()).toEqual({ status: 'ok' });
    const rows = await credentialRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      store_id: storeId,
      account: 'second@koovea.test',
      password_hash: goodHash,
    });
  });

  it("locks a store's and the distributor's credentials for non-distributors once the distributor is connected", async () => {
    const storeId = tenants.a.stores[1]!.id;
    const distributor = await check(distributorA, {
      email: 'dist@koovea.test',
      password: goodHash,
      distributorId: tenants.a.distributor.id,
    });
    expect(distributor.json()).toEqual({ status: 'ok' });
    const manager = await check(managerA, { email: 'm@koovea.test', password: goodHash, storeId });
    expect(manager.statusCode).toBe(403);
    expect(manager.json().error.code).toBe('permission/denied');
    const [storeRow] = await context.db
      .select()
      .from(sensorCredentials)
      .where(eq(sensorCredentials.store_id, storeId));
    expect(storeRow).toBeUndefined();
    const byDistributor = await check(distributorA, {
      email: 'store@koovea.test',
      password: goodHash,
      storeId,
    });
    expect(byDistributor.json()).toEqual({ status: 'ok' });
    const byAdmin = await check(admin, {
      email: 'admin-set@koovea.test',
      password: goodHash,
      distributorId: tenants.b.distributor.id,
    });
    expect(byAdmin.json()).toEqual({ status: 'ok' });
    // The admin set B's first connection; A's, made by its distributor, is locked for the admin.
    const adminOverA = await check(admin, {
      email: 'admin-over@koovea.test',
      password: goodHash,
      distributorId: tenants.a.distributor.id,
    });
    expect(adminOverA.statusCode).toBe(403);
    expect(adminOverA.json().error.code).toBe('permission/denied');
    const [distributorRow] = await context.db
      .select()
      .from(sensorCredentials)
      .where(eq(sensorCredentials.distributor_id, tenants.a.distributor.id));
    expect(distributorRow?.account).toBe('dist@koovea.test');
    const detail = await distributorA.inject({
      method: 'GET',
      url: `/api/distributors/${tenants.a.distributor.id}`,
    });
    expect(detail.json().distributor.sensor_connected).toBe(true);
    expect(detail.body).not.toContain(goodHash);
  });
});

describe('GET /api/koovea/session and /api/koovea/tags', () => {
  const session = (agent: Agent | null, storeId: string) =>
    send(agent, { method: 'GET', url: `/api/koovea/session?storeId=${storeId}` });
  const tags = (agent: Agent | null, storeId: string) =>
    send(agent, { method: 'GET', url: `/api/koovea/tags?storeId=${storeId}` });

  it('answers 401 anonymous, 400 without a valid storeId, 404 outside the scope', async () => {
    const storeId = tenants.a.stores[0]!.id;
    expect((await session(null, storeId)).statusCode).toBe(401);
    expect((await tags(null, storeId)).statusCode).toBe(401);
    for (const url of [
      '/api/koovea/session',
      '/api/koovea/session?storeId=x',
      `/api/koovea/tags?userId=1`,
      `/api/koovea/tags?storeId=${storeId}&unknown=1`,
    ]) {
      expect((await admin.inject({ method: 'GET', url })).statusCode, url).toBe(400);
    }
    for (const agent of [distributorA, managerA]) {
      expect((await session(agent, tenants.b.stores[0]!.id)).statusCode).toBe(404);
      expect((await tags(agent, tenants.b.stores[0]!.id)).statusCode).toBe(404);
    }
    expect((await session(customerA, tenants.a.stores[1]!.id)).statusCode).toBe(404);
  });

  it('says not logged in, with no stickers or tags, for a store with no credentials', async () => {
    const lonely = await buildStore(context.db, {
      distributor_id: null,
      sensor_sticker_id: 'hub-x',
    });
    expect((await session(admin, lonely.id)).json()).toEqual({
      isDistributor: false,
      loggedIn: false,
      stickers: [],
    });
    expect((await tags(admin, lonely.id)).json()).toEqual({ tags: [] });
  });

  it("uses the store's own credentials first, else its distributor's", async () => {
    const own = (await session(customerA, tenants.a.stores[0]!.id)).json();
    expect(own).toEqual({
      isDistributor: false,
      loggedIn: true,
      stickers: [{ id: 'hub-of-second@koovea.test', name: 'Hub second@koovea.test' }],
    });
    const inherited = await buildStore(context.db, {
      distributor_id: tenants.a.distributor.id,
      database_id: tenants.a.database.id,
    });
    const body = (
      await managerA.inject({ method: 'GET', url: `/api/koovea/session?storeId=${inherited.id}` })
    ).json();
    expect(body).toEqual({
      isDistributor: true,
      loggedIn: true,
      stickers: [{ id: 'hub-of-dist@koovea.test', name: 'Hub dist@koovea.test' }],
    });
    expect(JSON.stringify(body)).not.toContain(goodHash);
  });

  it("lists the tags of the store's hub sorted by name, none before a hub is chosen", async () => {
    const storeId = tenants.a.stores[0]!.id;
    expect((await tags(customerA, storeId)).json()).toEqual({ tags: [] });
    await context.db
      .update(stores)
      .set({ sensor_sticker_id: 'hub-k' })
      .where(eq(stores.id, storeId));
    expect((await tags(customerA, storeId)).json()).toEqual({
      tags: [
        { id: 'hub-k-a', name: 'Alpha cold room' },
        { id: 'hub-k-z', name: 'Zinc fridge' },
      ],
    });
  });

  it("accepts the spec's userId parameter (spec 000 §7: storeId, userId)", async () => {
    const storeId = tenants.a.stores[0]!.id;
    await context.db
      .update(stores)
      .set({ sensor_sticker_id: 'hub-k' })
      .where(eq(stores.id, storeId));
    const me = (await customerA.inject({ method: 'GET', url: '/api/me' })).json().user.id;
    const response = await customerA.inject({
      method: 'GET',
      url: `/api/koovea/tags?storeId=${storeId}&userId=${me}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().tags.map((tag: { name: string }) => tag.name)).toEqual([
      'Alpha cold room',
      'Zinc fridge',
    ]);
  });
});
