import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newKey, pngUpload } from '../modules/device/test-support';
import { buildEmployee, buildTwoTenants, testPassword } from './factories';
import { type Agent, signIn, useTestApp } from './harness';

/**
 * Punch-card endpoints × role × a store of tenant A and of tenant B (spec 000 §6).
 * Tenant A: store A1 (database A, managed by manager A, owned by customer A, not
 * manager-owned: managers read but do not save there). The expected statuses are written by
 * hand. The device routes answer 401 to every browser session (a user is never a tablet).
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
const employeeIds = new Map<Tenant, string>();

const storeOf = (tenant: Tenant) => (tenant === 'A' ? tenants.a : tenants.b).stores[0]!;

function send(agent: Agent | null, options: Parameters<Agent['inject']>[0]) {
  return agent ? agent.inject(options) : context.app.inject(options);
}

type Endpoint = {
  name: string;
  expected: Row;
  send: (agent: Agent | null, tenant: Tenant) => Promise<LightMyRequestResponse>;
};

const readable: Row = { A: [401, 200, 200, 200, 200], B: [401, 200, 404, 404, 404] };
const editable: Row = { A: [401, 200, 200, 403, 200], B: [401, 200, 404, 404, 404] };
const deviceOnly: Row = { A: [401, 401, 401, 401, 401], B: [401, 401, 401, 401, 401] };
const range = { start: '2026-11-02', end: '2026-11-08' };
/** Each save writes to a day of its own. */
let counter = 0;

const endpoints: Endpoint[] = [
  {
    name: 'GET /api/stores/:id/punchCards',
    expected: readable,
    send: (agent, tenant) =>
      send(agent, {
        method: 'GET',
        url: `/api/stores/${storeOf(tenant).id}/punchCards?start=${range.start}&end=${range.end}`,
      }),
  },
  {
    name: 'PUT /api/stores/:id/punchCards',
    expected: editable,
    // An entrance then an exit, added to an empty day of its own by each call.
    send: (agent, tenant) => {
      const day = `2026-10-${String(1 + (counter++ % 28)).padStart(2, '0')}`;
      return send(agent, {
        method: 'PUT',
        url: `/api/stores/${storeOf(tenant).id}/punchCards`,
        payload: {
          start: day,
          end: day,
          entries: [
            {
              employee_id: employeeIds.get(tenant)!,
              is_in: true,
              timestamp: `${day}T08:00:00Z`,
            },
            {
              employee_id: employeeIds.get(tenant)!,
              is_in: false,
              timestamp: `${day}T12:00:00Z`,
            },
          ],
        },
      });
    },
  },
  {
    name: 'POST /api/pdf/punch_cards',
    expected: readable,
    send: (agent, tenant) =>
      send(agent, {
        method: 'POST',
        url: '/api/pdf/punch_cards',
        payload: { storeId: storeOf(tenant).id, ...range },
      }),
  },
  {
    name: 'GET /api/stores/:id/schedule',
    expected: readable,
    send: (agent, tenant) =>
      send(agent, { method: 'GET', url: `/api/stores/${storeOf(tenant).id}/schedule` }),
  },
  {
    name: 'POST /api/device/punches (user session)',
    expected: deviceOnly,
    send: (agent) =>
      send(agent, {
        method: 'POST',
        url: '/api/device/punches',
        payload: { idempotency_key: newKey(), is_in: true },
      }),
  },
  {
    name: 'POST /api/device/selfies (user session)',
    expected: deviceOnly,
    send: (agent) => send(agent, { method: 'POST', url: '/api/device/selfies', ...pngUpload() }),
  },
];

type Outcome = { endpoint: string; role: Role; tenant: Tenant; status: number };
const outcomes: Outcome[] = [];
const leaks: string[] = [];

describe('punch cards matrix', () => {
  beforeAll(async () => {
    tenants = await buildTwoTenants(context.db);
    for (const tenant of ['A', 'B'] as const) {
      const employee = await buildEmployee(context.db, {
        storeIds: [storeOf(tenant).id],
        pin: null,
      });
      employeeIds.set(tenant, employee.id);
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
    console.log(`punch cards matrix: ${outcomes.length} pairs`);
  });

  it('answers every endpoint × role × tenant as the table says, leaking nothing of tenant B', async () => {
    const tenantBIds = [
      tenants.b.distributor.id,
      tenants.b.database.id,
      ...tenants.b.stores.map((store) => store.id),
      ...Object.values(tenants.b.users).map((user) => user.id),
      employeeIds.get('B')!,
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
          if (role !== 'anonymous' && role !== 'admin') {
            const leaked = tenantBIds.filter((id) => response.body.includes(id));
            if (leaked.length)
              leaks.push(`${endpoint.name} ${role} [tenant ${tenant}]: ${leaked.join(', ')}`);
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(leaks).toEqual([]);
    expect(outcomes).toHaveLength(endpoints.length * 2 * roles.length);
  });
});
