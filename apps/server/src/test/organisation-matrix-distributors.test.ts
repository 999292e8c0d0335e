import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseInvitations, databaseManagers, databases, distributors } from '../db/schema';
import { buildTwoTenants, buildUser, testPassword } from './factories';
import { type Agent, signIn, useTestApp } from './harness';

/**
 * Distributors, databases, billing and sensors: every endpoint × role (anonymous, admin,
 * distributor A, manager A, customer A) × a record of tenant A and one of tenant B. The
 * expected statuses are written out by hand from spec 000 §6 and 001 §6:
 * - distributors: everyone sees its own; only admins create, edit or change a logo;
 * - databases: admins and distributors create and manage managers; managers edit the databases
 *   they manage (and their images); customers see their stores' database but edit nothing;
 * - billing: admins only;
 * - sensors: a distributor's credentials by admins or that distributor; a store's by anyone
 *   who sees the store.
 * A record outside the caller's scope answers 404, a forbidden action on a visible one 403.
 */

const context = useTestApp();

type Role = 'anonymous' | 'admin' | 'distributor' | 'manager' | 'customer';
type SignedInRole = Exclude<Role, 'anonymous'>;
const roles: Role[] = ['anonymous', 'admin', 'distributor', 'manager', 'customer'];
type Tenant = 'A' | 'B';
type Kind = 'distributor' | 'database' | 'store';

/** Expected status per signed-in role: [record of tenant A, record of tenant B]. */
type Expected = Record<SignedInRole, [number, number]>;

type Endpoint = {
  name: string;
  kind: Kind;
  expected: Expected;
  send: (agent: Agent | null, recordId: string, tenant: Tenant) => Promise<LightMyRequestResponse>;
  /** Extra checks on a 200 answer. */
  check?: (response: LightMyRequestResponse, role: SignedInRole, tenant: Tenant) => void;
};

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
const agents = new Map<SignedInRole, Agent>();
/** A manager account that addManager adds and the DELETE removes. */
let candidate: Awaited<ReturnType<typeof buildUser>>;

function send(agent: Agent | null, options: Parameters<Agent['inject']>[0]) {
  return agent ? agent.inject(options) : context.app.inject(options);
}

const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
function pngUpload() {
  const boundary = `----mise-matrix-${randomBytes(8).toString('hex')}`;
  const head =
    `--${boundary}\r\n` +
    `Content-Disposition: form-data; name="file"; filename="image.png"\r\n` +
    `Content-Type: image/png\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), png, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function distributorVersion(id: string) {
  const [row] = await context.db.select().from(distributors).where(eq(distributors.id, id));
  return row!.version;
}
async function databaseVersion(id: string) {
  const [row] = await context.db.select().from(databases).where(eq(databases.id, id));
  return row!.version;
}

/** A wrong password: the check answers 200 "false" and stores nothing, so no case locks another. */
const wrongHash = 'a'.repeat(64);

const allSee: Expected = {
  admin: [200, 200],
  distributor: [200, 404],
  manager: [200, 404],
  customer: [200, 404],
};
const adminOnly: Expected = {
  admin: [200, 200],
  distributor: [403, 404],
  manager: [403, 404],
  customer: [403, 404],
};
const staffOnly: Expected = {
  admin: [200, 200],
  distributor: [200, 404],
  manager: [403, 404],
  customer: [403, 404],
};
const staffAndManagers: Expected = {
  admin: [200, 200],
  distributor: [200, 404],
  manager: [200, 404],
  customer: [403, 404],
};

const endpoints: Endpoint[] = [
  {
    name: 'GET /api/distributors (contains the record)',
    kind: 'distributor',
    expected: {
      admin: [200, 200],
      distributor: [200, 200],
      manager: [200, 200],
      customer: [200, 200],
    },
    send: (agent) => send(agent, { method: 'GET', url: '/api/distributors' }),
    check: (response, role, tenant) => {
      const ids = (response.json().items as { id: string }[]).map((item) => item.id);
      const record = tenant === 'A' ? tenants.a.distributor.id : tenants.b.distributor.id;
      expect(ids.includes(record)).toBe(role === 'admin' || tenant === 'A');
    },
  },
  {
    name: 'POST /api/distributors',
    kind: 'distributor',
    expected: {
      admin: [200, 200],
      distributor: [403, 403],
      manager: [403, 403],
      customer: [403, 403],
    },
    send: (agent) =>
      send(agent, {
        method: 'POST',
        url: '/api/distributors',
        payload: {
          name: 'Matrix',
          address: '1 rue',
          postal_code: '75001',
          city: 'Paris',
          country: 'FR',
        },
      }),
  },
  {
    name: 'GET /api/distributors/:id',
    kind: 'distributor',
    expected: allSee,
    send: (agent, id) => send(agent, { method: 'GET', url: `/api/distributors/${id}` }),
    check: (response, role) =>
      expect(response.json().distributor.licence_price === null).toBe(role !== 'admin'),
  },
  {
    name: 'PATCH /api/distributors/:id',
    kind: 'distributor',
    expected: adminOnly,
    send: async (agent, id) =>
      send(agent, {
        method: 'PATCH',
        url: `/api/distributors/${id}`,
        payload: { version: await distributorVersion(id), phone: '0102030405' },
      }),
  },
  {
    name: 'POST /api/distributors/:id/logo',
    kind: 'distributor',
    expected: adminOnly,
    send: (agent, id) =>
      send(agent, { method: 'POST', url: `/api/distributors/${id}/logo`, ...pngUpload() }),
  },
  {
    name: 'GET /api/databases (contains the record)',
    kind: 'database',
    expected: {
      admin: [200, 200],
      distributor: [200, 200],
      manager: [200, 200],
      customer: [200, 200],
    },
    send: (agent) => send(agent, { method: 'GET', url: '/api/databases' }),
    check: (response, role, tenant) => {
      const ids = (response.json().items as { id: string }[]).map((item) => item.id);
      const record = tenant === 'A' ? tenants.a.database.id : tenants.b.database.id;
      expect(ids.includes(record)).toBe(role === 'admin' || tenant === 'A');
    },
  },
  {
    name: 'POST /api/databases {distributorId}',
    kind: 'distributor',
    // Creating is a role's action: managers and customers are refused whatever they send.
    expected: {
      admin: [200, 200],
      distributor: [200, 404],
      manager: [403, 403],
      customer: [403, 403],
    },
    send: (agent, id) =>
      send(agent, {
        method: 'POST',
        url: '/api/databases',
        payload: { name: 'Matrix', distributorId: id },
      }),
    check: (response, _role, tenant) =>
      expect(response.json().database.distributor).toBe(
        tenant === 'A' ? tenants.a.distributor.id : tenants.b.distributor.id,
      ),
  },
  {
    name: 'GET /api/databases/:id',
    kind: 'database',
    expected: allSee,
    send: (agent, id) => send(agent, { method: 'GET', url: `/api/databases/${id}` }),
    check: (response, role) =>
      expect(response.json().database.licence_price === null).toBe(role !== 'admin'),
  },
  {
    name: 'PATCH /api/databases/:id',
    kind: 'database',
    expected: staffAndManagers,
    send: async (agent, id) =>
      send(agent, {
        method: 'PATCH',
        url: `/api/databases/${id}`,
        payload: { version: await databaseVersion(id), hidden_modules: ['oils'] },
      }),
  },
  {
    name: 'POST /api/database/addManager',
    kind: 'database',
    expected: staffOnly,
    send: (agent, id) =>
      send(agent, {
        method: 'POST',
        url: '/api/database/addManager',
        payload: { email: candidate.email, databaseId: id },
      }),
  },
  {
    name: 'DELETE /api/databases/:id/managers/:userId',
    kind: 'database',
    expected: staffOnly,
    send: async (agent, id) => {
      await context.db
        .insert(databaseManagers)
        .values({ database_id: id, user_id: candidate.id })
        .onConflictDoNothing();
      return send(agent, {
        method: 'DELETE',
        url: `/api/databases/${id}/managers/${candidate.id}`,
      });
    },
  },
  {
    name: 'POST /api/databases/:id/invitations/withdraw',
    kind: 'database',
    expected: staffOnly,
    send: async (agent, id) => {
      const email = `invited-${randomBytes(6).toString('hex')}@example.test`;
      await context.db
        .insert(databaseInvitations)
        .values({ database_id: id, email, token_hash: randomBytes(16).toString('hex') });
      return send(agent, {
        method: 'POST',
        url: `/api/databases/${id}/invitations/withdraw`,
        payload: { email },
      });
    },
  },
  {
    name: 'POST /api/databases/:id/illustration',
    kind: 'database',
    expected: staffAndManagers,
    send: (agent, id) =>
      send(agent, { method: 'POST', url: `/api/databases/${id}/illustration`, ...pngUpload() }),
  },
  {
    name: 'POST /api/databases/:id/screen-saver',
    kind: 'database',
    expected: staffAndManagers,
    send: (agent, id) =>
      send(agent, { method: 'POST', url: `/api/databases/${id}/screen-saver`, ...pngUpload() }),
  },
  {
    name: 'POST /api/billing/summary {distributorId}',
    kind: 'distributor',
    expected: {
      admin: [200, 200],
      distributor: [403, 403],
      manager: [403, 403],
      customer: [403, 403],
    },
    send: (agent, id) =>
      send(agent, {
        method: 'POST',
        url: '/api/billing/summary',
        payload: { period: { start: '2026-01-01', end: '2026-12-31' }, distributorId: id },
      }),
  },
  {
    name: 'POST /api/koovea/validCredentials {distributorId}',
    kind: 'distributor',
    expected: staffOnly,
    send: (agent, id) =>
      send(agent, {
        method: 'POST',
        url: '/api/koovea/validCredentials',
        payload: { email: 'matrix@koovea.test', password: wrongHash, distributorId: id },
      }),
    check: (response) => expect(response.json()).toEqual({ status: 'false' }),
  },
  {
    name: 'POST /api/koovea/validCredentials {storeId}',
    kind: 'store',
    // Tenant A's stores are not manager-owned: read-only for the manager (spec 000 §6).
    expected: { ...allSee, manager: [403, 404] },
    send: (agent, id) =>
      send(agent, {
        method: 'POST',
        url: '/api/koovea/validCredentials',
        payload: { email: 'matrix@koovea.test', password: wrongHash, storeId: id },
      }),
    check: (response) => expect(response.json()).toEqual({ status: 'false' }),
  },
  {
    name: 'GET /api/koovea/session',
    kind: 'store',
    expected: allSee,
    send: (agent, id) => send(agent, { method: 'GET', url: `/api/koovea/session?storeId=${id}` }),
  },
  {
    name: 'GET /api/koovea/tags',
    kind: 'store',
    expected: allSee,
    send: (agent, id) => send(agent, { method: 'GET', url: `/api/koovea/tags?storeId=${id}` }),
  },
];

type Case = { role: Role; endpoint: Endpoint; tenant: Tenant; expected: number; label: string };
const cases: Case[] = endpoints.flatMap((endpoint) =>
  roles.flatMap((role) =>
    (['A', 'B'] as const).map((tenant) => ({
      role,
      endpoint,
      tenant,
      expected: role === 'anonymous' ? 401 : endpoint.expected[role][tenant === 'A' ? 0 : 1],
      label: `${role}: ${endpoint.name} [tenant ${tenant}]`,
    })),
  ),
);

function recordId(kind: Kind, tenant: Tenant): string {
  const fixture = tenant === 'A' ? tenants.a : tenants.b;
  if (kind === 'distributor') return fixture.distributor.id;
  if (kind === 'database') return fixture.database.id;
  return fixture.stores[0]!.id;
}

const tenantABodies: { label: string; body: string }[] = [];

describe('organisation matrix (distributors, databases, billing, sensors)', () => {
  beforeAll(async () => {
    tenants = await buildTwoTenants(context.db);
    candidate = await buildUser(context.db, { role: 'manager' });
    // A database price, so that "sent to admins only" is visible in the answers.
    await context.db.update(databases).set({ licence_price: '20' });
    agents.set('admin', await signIn(context.app, tenants.admin.email, testPassword));
    agents.set(
      'distributor',
      await signIn(context.app, tenants.a.users.distributor.email, testPassword),
    );
    agents.set('manager', await signIn(context.app, tenants.a.users.manager.email, testPassword));
    agents.set('customer', await signIn(context.app, tenants.a.users.customer.email, testPassword));
  });

  it.each(cases)('$label → $expected', async (testCase) => {
    const agent = testCase.role === 'anonymous' ? null : agents.get(testCase.role)!;
    const id = recordId(testCase.endpoint.kind, testCase.tenant);
    const response = await testCase.endpoint.send(agent, id, testCase.tenant);
    expect(response.statusCode, response.body.slice(0, 300)).toBe(testCase.expected);
    if (response.statusCode === 200 && testCase.role !== 'anonymous') {
      testCase.endpoint.check?.(response, testCase.role, testCase.tenant);
    }
    if (response.statusCode === 403) expect(response.json().error.code).toBe('permission/denied');
    if (response.statusCode === 404) expect(response.json().error.code).toBe('not-found');
    if (['distributor', 'manager', 'customer'].includes(testCase.role)) {
      tenantABodies.push({ label: testCase.label, body: response.body });
    }
  });

  it("no answer to tenant A's accounts carries an id of tenant B", () => {
    const tenantBIds = [
      tenants.b.distributor.id,
      tenants.b.database.id,
      ...tenants.b.stores.map((store) => store.id),
      ...Object.values(tenants.b.users).map((user) => user.id),
    ];
    const leaks = tenantABodies.flatMap(({ label, body }) =>
      tenantBIds.filter((value) => body.includes(value)).map((value) => `${label} shows ${value}`),
    );
    expect(leaks).toEqual([]);
    expect(tenantABodies).toHaveLength(
      cases.filter((testCase) => ['distributor', 'manager', 'customer'].includes(testCase.role))
        .length,
    );
    console.log(
      `organisation matrix (distributors, databases, billing, sensors): ${cases.length} pairs`,
    );
  });
});
