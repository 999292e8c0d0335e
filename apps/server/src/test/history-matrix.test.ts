import { dayInZone } from '@mise/shared/tasks/rules';
import { inArray } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stores } from '../db/schema';
import { buildTask, buildTwoTenants, testPassword } from './factories';
import { type Agent, signIn, useTestApp } from './harness';

/**
 * History, exports, task detail and home endpoints × role × a record of tenant A and of
 * tenant B (spec 000 §6, spec 002 §6). Store A1 is licensed, in database A (no store access)
 * and not manager-owned: its manager reads the home score but not its history. The expected
 * statuses are written by hand.
 */

const context = useTestApp();

type Role = 'anonymous' | 'admin' | 'distributor' | 'manager' | 'customer';
const roles: Role[] = ['anonymous', 'admin', 'distributor', 'manager', 'customer'];
type Tenant = 'A' | 'B';
type Row = Record<
  Tenant,
  [anonymous: number, admin: number, distributor: number, manager: number, customer: number]
>;

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
const agents = new Map<Role, Agent>();
const taskIds = new Map<Tenant, string>();
const storeOf = (tenant: Tenant) => (tenant === 'A' ? tenants.a : tenants.b).stores[0]!;
const today = () => dayInZone(new Date(), 'Europe/Paris');
const range = () => {
  const end = today();
  const start = new Date(Date.parse(`${end}T00:00:00Z`) - 6 * 86_400_000)
    .toISOString()
    .slice(0, 10);
  return { start, end };
};

function send(agent: Agent | null, options: Parameters<Agent['inject']>[0]) {
  return agent ? agent.inject(options) : context.app.inject(options);
}

const history: Row = { A: [401, 200, 200, 403, 200], B: [401, 200, 404, 404, 404] };
const readable: Row = { A: [401, 200, 200, 200, 200], B: [401, 200, 404, 404, 404] };
const everyone: Row = { A: [401, 200, 200, 200, 200], B: [401, 200, 200, 200, 200] };

type Endpoint = {
  name: string;
  expected: Row;
  send: (agent: Agent | null, tenant: Tenant) => Promise<LightMyRequestResponse>;
};

const exportBody = (tenant: Tenant) => ({ storeId: storeOf(tenant).id, ...range(), filter: 'all' });

const endpoints: Endpoint[] = [
  {
    name: 'GET /api/history/stores',
    expected: everyone,
    send: (agent) => send(agent, { method: 'GET', url: '/api/history/stores' }),
  },
  {
    name: 'GET /api/stores/:storeId/history',
    expected: history,
    send: (agent, tenant) =>
      send(agent, {
        method: 'GET',
        url: `/api/stores/${storeOf(tenant).id}/history?${new URLSearchParams({ ...range(), module: 'temperatures', filter: 'all' })}`,
      }),
  },
  {
    name: 'GET /api/tasks/:id',
    expected: history,
    send: (agent, tenant) =>
      send(agent, { method: 'GET', url: `/api/tasks/${taskIds.get(tenant)}` }),
  },
  {
    name: 'POST /api/pdf/tasks',
    expected: history,
    send: (agent, tenant) =>
      send(agent, { method: 'POST', url: '/api/pdf/tasks', payload: exportBody(tenant) }),
  },
  {
    name: 'POST /api/csv/tasks',
    expected: history,
    send: (agent, tenant) =>
      send(agent, { method: 'POST', url: '/api/csv/tasks', payload: exportBody(tenant) }),
  },
  {
    name: 'POST /api/archive/tasks',
    expected: history,
    send: (agent, tenant) =>
      send(agent, {
        method: 'POST',
        url: '/api/archive/tasks',
        payload: { storeId: storeOf(tenant).id, ...range() },
      }),
  },
  {
    name: 'GET /api/stores/:storeId/home',
    expected: readable,
    send: (agent, tenant) =>
      send(agent, { method: 'GET', url: `/api/stores/${storeOf(tenant).id}/home` }),
  },
  {
    name: 'GET /api/home/best-stores',
    expected: everyone,
    send: (agent) => send(agent, { method: 'GET', url: '/api/home/best-stores' }),
  },
];

beforeAll(async () => {
  const { db } = context;
  tenants = await buildTwoTenants(db);
  await db
    .update(stores)
    .set({ mise_licence: true })
    .where(
      inArray(
        stores.id,
        [...tenants.a.stores, ...tenants.b.stores].map((store) => store.id),
      ),
    );
  for (const tenant of ['A', 'B'] as const) {
    const start = new Date(Date.now() - 5 * 3600_000);
    const task = await buildTask(db, {
      store_id: storeOf(tenant).id,
      day: dayInZone(start, 'Europe/Paris'),
      start,
      name: `Relevé ${tenant}`,
      completed_timestamp: new Date(start.getTime() + 600_000),
      employee: { name: 'Matrix', surname: tenant },
      result: { entries: [] },
    });
    taskIds.set(tenant, task.id);
  }
  agents.set('admin', await signIn(context.app, tenants.admin.email, testPassword));
  for (const role of ['distributor', 'manager', 'customer'] as const) {
    agents.set(role, await signIn(context.app, tenants.a.users[role].email, testPassword));
  }
});

let pairs = 0;
afterAll(() => {
  console.log(`history matrix (history, exports, task detail, home): ${pairs} pairs`);
});

describe('history and home authorization matrix', () => {
  for (const endpoint of endpoints) {
    for (const tenant of ['A', 'B'] as const) {
      it(`${endpoint.name} on tenant ${tenant}`, async () => {
        for (const [index, role] of roles.entries()) {
          const response = await endpoint.send(agents.get(role) ?? null, tenant);
          expect(
            response.statusCode,
            `${role} → ${endpoint.name} (${tenant}): ${response.body.slice(0, 200)}`,
          ).toBe(endpoint.expected[tenant][index]);
          pairs += 1;
          // Tenant A's users never read a tenant B record, whatever the endpoint answers.
          if (role !== 'admin' && role !== 'anonymous') {
            const body = response.body;
            for (const store of tenants.b.stores) expect(body).not.toContain(store.id);
            expect(body).not.toContain(taskIds.get('B')!);
            expect(body).not.toContain('Relevé B');
          }
        }
      });
    }
  }
});
