import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices, storeInvitations, stores } from '../db/schema';
import { newPairingKey } from '../modules/stores/pairing-key';
import { hashToken, newToken } from '../platform/auth/tokens';
import { buildTwoTenants, buildUser, testPassword } from './factories';
import { type Agent, signIn, useTestApp } from './harness';

/**
 * Stores and devices endpoints × role × a record of tenant A and of tenant B (spec 000 §6).
 * Tenant A: store A1 (database A, managed by manager A, owned by customer A, not
 * manager-owned: managers are read-only there). The expected statuses are written by hand.
 */

const context = useTestApp();

type Role = 'anonymous' | 'admin' | 'distributor' | 'manager' | 'customer';
const roles: Role[] = ['anonymous', 'admin', 'distributor', 'manager', 'customer'];
type Tenant = 'A' | 'B';
/** Expected status per role, for a record of tenant A and of tenant B. */
type Row = Record<
  Tenant,
  [anonymous: number, admin: number, distributor: number, manager: number, customer: number]
>;

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
const agents = new Map<Role, Agent>();
const deviceIds = new Map<Tenant, string>();
let counter = 0;
const unique = () => `${++counter}-${randomBytes(3).toString('hex')}`;

const storeOf = (tenant: Tenant) => (tenant === 'A' ? tenants.a : tenants.b).stores[0]!;
const tenantOf = (tenant: Tenant) => (tenant === 'A' ? tenants.a : tenants.b);

function send(agent: Agent | null, options: Parameters<Agent['inject']>[0]) {
  return agent ? agent.inject(options) : context.app.inject(options);
}

async function storeVersion(id: string) {
  const [row] = await context.db.select().from(stores).where(eq(stores.id, id));
  return row!;
}

async function insertDevice(storeId: string) {
  const [row] = await context.db
    .insert(devices)
    .values({
      store_id: storeId,
      device_id: `matrix-${unique()}`,
      token_hash: hashToken(newToken()),
    })
    .returning();
  return row!;
}

const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
function pngUpload() {
  const boundary = `----matrix-${randomBytes(6).toString('hex')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="s.png"\r\nContent-Type: image/png\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), png, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

type Endpoint = {
  name: string;
  expected: Row;
  send: (agent: Agent | null, tenant: Tenant) => Promise<LightMyRequestResponse>;
  /** Not bound to a user session (the tablet's pairing): left out of the leak check. */
  isSessionless?: boolean;
};

const staffOnly: Row = { A: [401, 200, 200, 403, 403], B: [401, 200, 404, 403, 403] };
const editable: Row = { A: [401, 200, 200, 403, 200], B: [401, 200, 404, 404, 404] };
const readable: Row = { A: [401, 200, 200, 200, 200], B: [401, 200, 404, 404, 404] };

const endpoints: Endpoint[] = [
  {
    name: 'GET /api/stores?search=<store>',
    // 200 for everyone signed in; the answer holds the store only when in scope (checked below).
    expected: { A: [401, 200, 200, 200, 200], B: [401, 200, 200, 200, 200] },
    send: (agent, tenant) =>
      send(agent, {
        method: 'GET',
        url: `/api/stores?search=${encodeURIComponent(storeOf(tenant).name)}`,
      }),
  },
  {
    name: 'GET /api/stores/:id',
    expected: readable,
    send: (agent, tenant) =>
      send(agent, { method: 'GET', url: `/api/stores/${storeOf(tenant).id}` }),
  },
  {
    name: 'PATCH /api/stores/:id',
    expected: editable,
    send: async (agent, tenant) => {
      const store = await storeVersion(storeOf(tenant).id);
      return send(agent, {
        method: 'PATCH',
        url: `/api/stores/${store.id}`,
        payload: { version: store.version, week_start: (store.week_start + 1) % 7 },
      });
    },
  },
  {
    name: 'POST /api/stores (distributorId of the tenant)',
    expected: { A: [401, 200, 200, 403, 403], B: [401, 200, 404, 403, 403] },
    send: (agent, tenant) =>
      send(agent, {
        method: 'POST',
        url: '/api/stores',
        payload: {
          name: `Matrix store ${unique()}`,
          address: `${unique()} rue du Tableau`,
          postal_code: '75001',
          city: 'Paris',
          distributorId: tenantOf(tenant).distributor.id,
        },
      }),
  },
  {
    name: 'POST /api/stores/:id/database',
    expected: staffOnly,
    send: (agent, tenant) =>
      send(agent, {
        method: 'POST',
        url: `/api/stores/${storeOf(tenant).id}/database`,
        payload: { databaseId: tenantOf(tenant).database.id },
      }),
  },
  {
    name: 'POST /api/stores/updateLicence',
    expected: staffOnly,
    send: async (agent, tenant) => {
      const store = await storeVersion(storeOf(tenant).id);
      return send(agent, {
        method: 'POST',
        url: '/api/stores/updateLicence',
        payload: { storeId: store.id, activated: !store.mise_licence },
      });
    },
  },
  {
    name: 'POST /api/stores/addOwner',
    expected: editable,
    send: (agent, tenant) =>
      send(agent, {
        method: 'POST',
        url: '/api/stores/addOwner',
        payload: { storeId: storeOf(tenant).id, email: `matrix-${unique()}@example.test` },
      }),
  },
  {
    name: 'DELETE /api/stores/:id/owners/:userId',
    expected: editable,
    send: async (agent, tenant) => {
      const store = storeOf(tenant);
      const owner = await buildUser(context.db, { role: 'customer', ownedStoreIds: [store.id] });
      return send(agent, { method: 'DELETE', url: `/api/stores/${store.id}/owners/${owner.id}` });
    },
  },
  {
    name: 'POST /api/stores/:id/invitations/withdraw',
    expected: editable,
    send: async (agent, tenant) => {
      const store = storeOf(tenant);
      const email = `invited-${unique()}@example.test`;
      await context.db
        .insert(storeInvitations)
        .values({ store_id: store.id, email, token_hash: hashToken(newToken()) });
      return send(agent, {
        method: 'POST',
        url: `/api/stores/${store.id}/invitations/withdraw`,
        payload: { email },
      });
    },
  },
  {
    name: 'POST /api/stores/:id/illustration',
    expected: editable,
    send: (agent, tenant) =>
      send(agent, {
        method: 'POST',
        url: `/api/stores/${storeOf(tenant).id}/illustration`,
        ...pngUpload(),
      }),
  },
  {
    name: 'GET /api/stores/:id/devices',
    expected: readable,
    send: (agent, tenant) =>
      send(agent, { method: 'GET', url: `/api/stores/${storeOf(tenant).id}/devices` }),
  },
  {
    name: 'POST /api/stores/:id/pairing-key',
    expected: editable,
    send: (agent, tenant) =>
      send(agent, { method: 'POST', url: `/api/stores/${storeOf(tenant).id}/pairing-key` }),
  },
  {
    name: 'PATCH /api/devices/:id',
    expected: editable,
    send: async (agent, tenant) => {
      const id = deviceIds.get(tenant)!;
      const [row] = await context.db.select().from(devices).where(eq(devices.id, id));
      return send(agent, {
        method: 'PATCH',
        url: `/api/devices/${id}`,
        payload: { version: row!.version, dark_mode: !row!.dark_mode },
      });
    },
  },
  {
    name: 'DELETE /api/devices/:id',
    expected: editable,
    send: async (agent, tenant) => {
      const device = await insertDevice(storeOf(tenant).id);
      return send(agent, { method: 'DELETE', url: `/api/devices/${device.id}` });
    },
  },
  {
    name: "POST /api/devices/register (the store's pairing key)",
    // No user session: whoever holds the key pairs a tablet.
    expected: { A: [200, 200, 200, 200, 200], B: [200, 200, 200, 200, 200] },
    isSessionless: true,
    send: async (agent, tenant) => {
      // Tablets pair only with a licensed store; the licence rows above toggle it.
      await context.db
        .update(stores)
        .set({ mise_licence: true })
        .where(eq(stores.id, storeOf(tenant).id));
      const store = await storeVersion(storeOf(tenant).id);
      return send(agent, {
        method: 'POST',
        url: '/api/devices/register',
        remoteAddress: `10.1.${tenant === 'A' ? 1 : 2}.${counter + 1}`,
        payload: { pairing_key: store.pairing_key, device_id: `matrix-tablet-${unique()}` },
      });
    },
  },
  {
    name: 'GET /api/devices/me (user session, no device token)',
    expected: { A: [401, 401, 401, 401, 401], B: [401, 401, 401, 401, 401] },
    send: (agent) => send(agent, { method: 'GET', url: '/api/devices/me' }),
  },
];

type Outcome = { endpoint: string; role: Role; tenant: Tenant; status: number };
const outcomes: Outcome[] = [];
const leaks: string[] = [];

describe('organisation matrix (stores, devices)', () => {
  beforeAll(async () => {
    tenants = await buildTwoTenants(context.db);
    for (const tenant of ['A', 'B'] as const) {
      await context.db
        .update(stores)
        .set({ pairing_key: newPairingKey(), maximum_devices: 30 })
        .where(eq(stores.id, storeOf(tenant).id));
      deviceIds.set(tenant, (await insertDevice(storeOf(tenant).id)).id);
    }
    agents.set('admin', await signIn(context.app, tenants.admin.email, testPassword));
    agents.set(
      'distributor',
      await signIn(context.app, tenants.a.users.distributor.email, testPassword),
    );
    agents.set('manager', await signIn(context.app, tenants.a.users.manager.email, testPassword));
    agents.set('customer', await signIn(context.app, tenants.a.users.customer.email, testPassword));
  });

  afterAll(() => {
    console.log(`organisation matrix (stores, devices): ${outcomes.length} pairs`);
  });

  it('answers every endpoint × role × tenant as the table says, leaking nothing of tenant B', async () => {
    const tenantBIds = () => [
      tenants.b.distributor.id,
      tenants.b.database.id,
      ...tenants.b.stores.map((store) => store.id),
      ...Object.values(tenants.b.users).map((user) => user.id),
      deviceIds.get('B')!,
    ];
    const mismatches: string[] = [];
    for (const endpoint of endpoints) {
      for (const tenant of ['A', 'B'] as const) {
        for (const [index, role] of roles.entries()) {
          const response = await endpoint.send(
            role === 'anonymous' ? null : agents.get(role)!,
            tenant,
          );
          const expected = endpoint.expected[tenant][index]!;
          outcomes.push({ endpoint: endpoint.name, role, tenant, status: response.statusCode });
          if (response.statusCode !== expected) {
            mismatches.push(
              `${endpoint.name} ${role} [tenant ${tenant}]: ${response.statusCode}, expected ${expected} ${response.body.slice(0, 200)}`,
            );
          }
          if (role !== 'anonymous' && role !== 'admin' && !endpoint.isSessionless) {
            const leaked = tenantBIds().filter((id) => response.body.includes(id));
            if (leaked.length)
              leaks.push(`${endpoint.name} ${role} [tenant ${tenant}]: ${leaked.join(', ')}`);
          }
          if (endpoint.name.startsWith('GET /api/stores?') && response.statusCode === 200) {
            const listed = (response.json().items as { id: string }[]).some(
              (item) => item.id === storeOf(tenant).id,
            );
            const isVisible = role === 'admin' || tenant === 'A';
            if (listed !== isVisible)
              mismatches.push(`list ${role} [tenant ${tenant}]: listed=${listed}`);
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(leaks).toEqual([]);
    expect(outcomes).toHaveLength(endpoints.length * 2 * roles.length);
  });
});
