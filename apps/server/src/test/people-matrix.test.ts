import { randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { employeeRoles, employeeStores, employees, storeTags } from '../db/schema';
import { buildEmployee, buildTwoTenants, testPassword } from './factories';
import { type Agent, signIn, useTestApp } from './harness';

/**
 * People endpoints (employee roles, store tags, store employees, employee pictures) × role ×
 * a record of tenant A and of tenant B (spec 000 §6, spec 001 §6). Tenant A: database A
 * (managed by manager A) and store A1 (owned by customer A, not manager-owned: managers are
 * read-only there). The expected statuses are written by hand.
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
/** Per tenant: a role of its database, an employee of store 1, one with a stored picture. */
const fixtures = new Map<Tenant, { roleId: string; employeeId: string; pictureUrl: string }>();
let counter = 0;
const unique = () => `${++counter}-${randomBytes(3).toString('hex')}`;

const tenantOf = (tenant: Tenant) => (tenant === 'A' ? tenants.a : tenants.b);
const databaseOf = (tenant: Tenant) => tenantOf(tenant).database;
const storeOf = (tenant: Tenant) => tenantOf(tenant).stores[0]!;
const fixtureOf = (tenant: Tenant) => fixtures.get(tenant)!;

function send(agent: Agent | null, options: Parameters<Agent['inject']>[0]) {
  return agent ? agent.inject(options) : context.app.inject(options);
}

const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
function pngUpload() {
  const boundary = `----people-matrix-${randomBytes(6).toString('hex')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="e.png"\r\nContent-Type: image/png\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), png, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

type Endpoint = {
  name: string;
  expected: Row;
  send: (agent: Agent | null, tenant: Tenant) => Promise<LightMyRequestResponse>;
};

/** Whoever sees the database or the store reads. */
const readable: Row = { A: [401, 200, 200, 200, 200], B: [401, 200, 404, 404, 404] };
/** Roles and tags: admins, the database's distributor and its managers write; customers 403. */
const databaseEditable: Row = { A: [401, 200, 200, 200, 403], B: [401, 200, 404, 404, 404] };
/** Store employees: canEditStore (managers only on manager-owned stores). */
const storeEditable: Row = { A: [401, 200, 200, 403, 200], B: [401, 200, 404, 404, 404] };

const endpoints: Endpoint[] = [
  {
    name: 'GET /api/databases/:databaseId/employeeRoles',
    expected: readable,
    send: (agent, tenant) =>
      send(agent, { method: 'GET', url: `/api/databases/${databaseOf(tenant).id}/employeeRoles` }),
  },
  {
    name: 'PUT /api/databases/:databaseId/employeeRoles',
    expected: databaseEditable,
    send: (agent, tenant) =>
      send(agent, {
        method: 'PUT',
        url: `/api/databases/${databaseOf(tenant).id}/employeeRoles`,
        payload: {
          roles: [
            {
              name: `Matrix role ${unique()}`,
              active: false,
              features_permissions: { documents: true },
            },
          ],
        },
      }),
  },
  {
    name: 'GET /api/databases/:databaseId/storeTags',
    expected: readable,
    send: (agent, tenant) =>
      send(agent, { method: 'GET', url: `/api/databases/${databaseOf(tenant).id}/storeTags` }),
  },
  {
    name: 'PUT /api/databases/:databaseId/storeTags',
    expected: databaseEditable,
    send: (agent, tenant) =>
      send(agent, {
        method: 'PUT',
        url: `/api/databases/${databaseOf(tenant).id}/storeTags`,
        payload: {
          tags: [{ name: `Matrix tag ${unique()}`, active: true, store_ids: [storeOf(tenant).id] }],
        },
      }),
  },
  {
    name: 'GET /api/stores/:storeId/employees?includeInactive=true',
    expected: readable,
    send: (agent, tenant) =>
      send(agent, {
        method: 'GET',
        url: `/api/stores/${storeOf(tenant).id}/employees?includeInactive=true`,
      }),
  },
  {
    name: 'PUT /api/stores/:storeId/employees',
    expected: storeEditable,
    send: async (agent, tenant) => {
      const { employeeId, roleId } = fixtureOf(tenant);
      const [row] = await context.db.select().from(employees).where(eq(employees.id, employeeId));
      return send(agent, {
        method: 'PUT',
        url: `/api/stores/${storeOf(tenant).id}/employees`,
        payload: {
          employees: [
            {
              id: employeeId,
              version: row!.version,
              name: `Matrix ${unique()}`,
              surname: 'Employé',
              role_id: roleId,
              active: true,
            },
            { name: 'Nouvel ', surname: 'employé', role_id: roleId, active: true },
          ],
        },
      });
    },
  },
  {
    name: 'PUT /api/stores/:storeId/employees/:employeeId/secret',
    expected: storeEditable,
    send: (agent, tenant) =>
      send(agent, {
        method: 'PUT',
        url: `/api/stores/${storeOf(tenant).id}/employees/${fixtureOf(tenant).employeeId}/secret`,
        payload: { pin: '2468' },
      }),
  },
  {
    name: 'POST /api/stores/:storeId/employees/:employeeId/illustration',
    expected: storeEditable,
    send: (agent, tenant) =>
      send(agent, {
        method: 'POST',
        url: `/api/stores/${storeOf(tenant).id}/employees/${fixtureOf(tenant).employeeId}/illustration`,
        ...pngUpload(),
      }),
  },
  {
    name: "GET /api/files/employees/<id>/… (an employee's picture)",
    expected: readable,
    send: (agent, tenant) => send(agent, { method: 'GET', url: fixtureOf(tenant).pictureUrl }),
  },
];

/** Every id of tenant B at the time of the call (records written by the admin included). */
async function tenantBIds(): Promise<string[]> {
  const b = tenants.b;
  const [roleRows, tagRows, employeeRows] = await Promise.all([
    context.db
      .select({ id: employeeRoles.id })
      .from(employeeRoles)
      .where(eq(employeeRoles.database_id, b.database.id)),
    context.db
      .select({ id: storeTags.id })
      .from(storeTags)
      .where(eq(storeTags.database_id, b.database.id)),
    context.db
      .select({ id: employeeStores.employee_id })
      .from(employeeStores)
      .where(
        inArray(
          employeeStores.store_id,
          b.stores.map((store) => store.id),
        ),
      ),
  ]);
  return [
    b.distributor.id,
    b.database.id,
    ...b.stores.map((store) => store.id),
    ...Object.values(b.users).map((user) => user.id),
    ...[...roleRows, ...tagRows, ...employeeRows].map((row) => row.id),
  ];
}

type Outcome = { endpoint: string; role: Role; tenant: Tenant; status: number };
const outcomes: Outcome[] = [];
const leaks: string[] = [];

describe('people matrix (roles, tags, employees)', () => {
  beforeAll(async () => {
    tenants = await buildTwoTenants(context.db);
    const admin = await signIn(context.app, tenants.admin.email, testPassword);
    agents.set('admin', admin);
    for (const tenant of ['A', 'B'] as const) {
      const [role] = await context.db
        .insert(employeeRoles)
        .values({ database_id: databaseOf(tenant).id, name: `Rôle ${tenant}` })
        .returning();
      const employee = await buildEmployee(context.db, {
        storeIds: [storeOf(tenant).id],
        database_id: databaseOf(tenant).id,
        role_id: role!.id,
      });
      const pictured = await buildEmployee(context.db, {
        storeIds: [storeOf(tenant).id],
        database_id: databaseOf(tenant).id,
        role_id: role!.id,
      });
      const uploaded = await admin.inject({
        method: 'POST',
        url: `/api/stores/${storeOf(tenant).id}/employees/${pictured.id}/illustration`,
        ...pngUpload(),
      });
      expect(uploaded.statusCode).toBe(200);
      fixtures.set(tenant, {
        roleId: role!.id,
        employeeId: employee.id,
        pictureUrl: uploaded.json().employee.illustration_url,
      });
    }
    agents.set(
      'distributor',
      await signIn(context.app, tenants.a.users.distributor.email, testPassword),
    );
    agents.set('manager', await signIn(context.app, tenants.a.users.manager.email, testPassword));
    agents.set('customer', await signIn(context.app, tenants.a.users.customer.email, testPassword));
  });

  afterAll(() => {
    console.log(`people matrix: ${outcomes.length} pairs`);
  });

  it('answers every endpoint × role × tenant as the table says, leaking nothing of tenant B', async () => {
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
          if (response.body.includes('$argon2')) {
            leaks.push(`${endpoint.name} ${role} [tenant ${tenant}]: a secret hash`);
          }
          if (role !== 'anonymous' && role !== 'admin') {
            const leaked = (await tenantBIds()).filter((id) => response.body.includes(id));
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
