import { defaultTaskConfigurationLocks } from '@mise/shared/tasks/constants';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { storeTaskConfigurations, taskConfigurations } from '../../db/schema';
import {
  buildStore,
  buildStoreTaskConfiguration,
  buildTaskConfiguration,
  buildTaskType,
  buildTwoTenants,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';

/**
 * Task type and task configuration endpoints × role, on records of tenant A (spec 001 §6,
 * ARCHITECTURE "Tenancy"): reads answer 404 outside the scope; database-level writes are
 * refused to customers (403), store-level writes to a manager on a store that is not
 * manager-owned (403). Store A1 is owned by customer A and is not manager-owned. The expected
 * statuses are written by hand. Tenant B has task types and configurations of its own; no
 * answer to tenant A's accounts carries one of its ids, and no answer to tenant B's accounts
 * carries one of tenant A's records.
 */

const context = useTestApp();

const roles = [
  'anonymous',
  'admin',
  'distributor',
  'otherDistributor',
  'manager',
  'otherManager',
  'customer',
  'otherCustomer',
] as const;
type Role = (typeof roles)[number];
type Expected = [
  anonymous: number,
  admin: number,
  distributor: number,
  otherDistributor: number,
  manager: number,
  otherManager: number,
  customer: number,
  otherCustomer: number,
];

const read: Expected = [401, 200, 200, 404, 200, 404, 200, 404];
const databaseWrite: Expected = [401, 200, 200, 404, 200, 404, 403, 404];
const storeWrite: Expected = [401, 200, 200, 404, 403, 404, 200, 404];

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
const agents = new Map<Role, Agent>();
type StoreFixture = { storeId: string; storeType: string; storeConfiguration: string };
let fixture: {
  databaseType: string;
  databaseConfiguration: string;
  storeA1: StoreFixture;
  managerOwned: StoreFixture;
};

const databaseId = () => tenants.a.database.id;
let counter = 0;
const actions = () => ({
  actions: [{ name: `Action ${++counter}`, requires_picture: false, attachments: [] }],
});

function send(role: Role, options: Parameters<Agent['inject']>[0]) {
  return role === 'anonymous' ? context.app.inject(options) : agents.get(role)!.inject(options);
}

async function versionOf(
  table: typeof taskConfigurations | typeof storeTaskConfigurations,
  id: string,
) {
  const [row] = await context.db
    .select({ version: table.version })
    .from(table)
    .where(eq(table.id, id));
  return row!.version;
}

type Endpoint = {
  name: string;
  expected: Expected;
  send: (role: Role) => Promise<LightMyRequestResponse>;
};

const databaseEndpoints = (): Endpoint[] => [
  {
    name: 'GET /api/databases/:id/taskTypes',
    expected: read,
    send: (role) => send(role, { method: 'GET', url: `/api/databases/${databaseId()}/taskTypes` }),
  },
  {
    name: 'GET /api/databases/:id/taskConfigurations',
    expected: read,
    send: (role) =>
      send(role, { method: 'GET', url: `/api/databases/${databaseId()}/taskConfigurations` }),
  },
  {
    name: 'GET /api/taskConfigurations/:id',
    expected: read,
    send: (role) =>
      send(role, {
        method: 'GET',
        url: `/api/taskConfigurations/${fixture.databaseConfiguration}`,
      }),
  },
  {
    name: 'POST /api/databases/:id/taskTypes',
    expected: databaseWrite,
    send: (role) =>
      send(role, {
        method: 'POST',
        url: `/api/databases/${databaseId()}/taskTypes`,
        payload: { name: `Type ${++counter}` },
      }),
  },
  {
    name: 'PATCH /api/taskTypes/:id (database type)',
    expected: databaseWrite,
    send: (role) =>
      send(role, {
        method: 'PATCH',
        url: `/api/taskTypes/${fixture.databaseType}`,
        payload: { name: `Type ${++counter}`, color: '#112233' },
      }),
  },
  {
    name: 'POST /api/databases/:id/taskConfigurations',
    expected: databaseWrite,
    send: (role) =>
      send(role, {
        method: 'POST',
        url: `/api/databases/${databaseId()}/taskConfigurations`,
        payload: {
          name: `Matrix ${++counter}`,
          module: 'actions',
          configuration: actions(),
          type_id: fixture.databaseType,
        },
      }),
  },
  {
    name: 'PATCH /api/taskConfigurations/:id',
    expected: databaseWrite,
    send: async (role) =>
      send(role, {
        method: 'PATCH',
        url: `/api/taskConfigurations/${fixture.databaseConfiguration}`,
        payload: {
          version: await versionOf(taskConfigurations, fixture.databaseConfiguration),
          description: `Edit ${++counter}`,
        },
      }),
  },
  {
    name: 'POST /api/taskConfigurations/:id/duplicate',
    expected: databaseWrite,
    send: (role) =>
      send(role, {
        method: 'POST',
        url: `/api/taskConfigurations/${fixture.databaseConfiguration}/duplicate`,
      }),
  },
];

const storeEndpoints = (target: () => StoreFixture): Endpoint[] => [
  {
    name: 'GET /api/stores/:id/taskTypes',
    expected: read,
    send: (role) => send(role, { method: 'GET', url: `/api/stores/${target().storeId}/taskTypes` }),
  },
  {
    name: 'GET /api/stores/:id/taskConfigurations',
    expected: read,
    send: (role) =>
      send(role, { method: 'GET', url: `/api/stores/${target().storeId}/taskConfigurations` }),
  },
  {
    name: 'GET /api/stores/:id/taskConfigurations/origin/:originId',
    expected: read,
    send: (role) =>
      send(role, {
        method: 'GET',
        url: `/api/stores/${target().storeId}/taskConfigurations/origin/${fixture.databaseConfiguration}`,
      }),
  },
  {
    name: 'GET /api/storeTaskConfigurations/:id',
    expected: read,
    send: (role) =>
      send(role, {
        method: 'GET',
        url: `/api/storeTaskConfigurations/${target().storeConfiguration}`,
      }),
  },
  {
    name: 'POST /api/stores/:id/taskTypes',
    expected: storeWrite,
    send: (role) =>
      send(role, {
        method: 'POST',
        url: `/api/stores/${target().storeId}/taskTypes`,
        payload: { name: `Store type ${++counter}` },
      }),
  },
  {
    name: 'PATCH /api/taskTypes/:id (store type)',
    expected: storeWrite,
    send: (role) =>
      send(role, {
        method: 'PATCH',
        url: `/api/taskTypes/${target().storeType}`,
        payload: { name: `Store type ${++counter}` },
      }),
  },
  {
    name: 'POST /api/stores/:id/taskConfigurations (own)',
    expected: storeWrite,
    send: (role) =>
      send(role, {
        method: 'POST',
        url: `/api/stores/${target().storeId}/taskConfigurations`,
        payload: {
          name: `Store matrix ${++counter}`,
          module: 'actions',
          configuration: actions(),
          type_id: target().storeType,
        },
      }),
  },
  {
    name: 'POST /api/stores/:id/taskConfigurations (override of an origin)',
    expected: storeWrite,
    send: async (role) => {
      // A fresh origin each time, so that a refusal is about permissions only.
      const origin = await buildTaskConfiguration(context.db, {
        database_id: databaseId(),
        locks: { ...defaultTaskConfigurationLocks, name: false },
      });
      return send(role, {
        method: 'POST',
        url: `/api/stores/${target().storeId}/taskConfigurations`,
        payload: { origin_id: origin.id, name: `Override ${++counter}` },
      });
    },
  },
  {
    name: 'PATCH /api/storeTaskConfigurations/:id',
    expected: storeWrite,
    send: async (role) =>
      send(role, {
        method: 'PATCH',
        url: `/api/storeTaskConfigurations/${target().storeConfiguration}`,
        payload: {
          version: await versionOf(storeTaskConfigurations, target().storeConfiguration),
          name: `Store edit ${++counter}`,
        },
      }),
  },
  {
    name: 'POST /api/storeTaskConfigurations/:id/duplicate',
    expected: storeWrite,
    send: (role) =>
      send(role, {
        method: 'POST',
        url: `/api/storeTaskConfigurations/${target().storeConfiguration}/duplicate`,
      }),
  },
];

async function buildStoreFixture(storeId: string): Promise<StoreFixture> {
  const storeType = await buildTaskType(context.db, { store_id: storeId, name: 'Local' });
  const storeConfiguration = await buildStoreTaskConfiguration(context.db, {
    store_id: storeId,
    origin_id: fixture.databaseConfiguration,
    module: 'actions',
    name: 'Matrix override',
  });
  return { storeId, storeType: storeType.id, storeConfiguration: storeConfiguration.id };
}

const outcomes: string[] = [];
/** Ids of tenant B (organisation, types and configurations) and of tenant A's records. */
let tenantBIds: string[] = [];
let tenantAIds: string[] = [];
const leaks: string[] = [];
const tenantARoles: readonly Role[] = ['distributor', 'manager', 'customer'];
const tenantBRoles: readonly Role[] = ['otherDistributor', 'otherManager', 'otherCustomer'];

/** Tenant B's own types and configurations, the records a missing scope would list to A. */
async function buildTenantBConfigurations() {
  const database_id = tenants.b.database.id;
  const store_id = tenants.b.stores[0]!.id;
  const databaseType = await buildTaskType(context.db, { database_id, name: 'Type B' });
  const storeType = await buildTaskType(context.db, { store_id, name: 'Local B' });
  const origin = await buildTaskConfiguration(context.db, {
    database_id,
    name: 'Task B',
    type_id: databaseType.id,
    locks: { ...defaultTaskConfigurationLocks, name: false },
  });
  const override = await buildStoreTaskConfiguration(context.db, {
    store_id,
    origin_id: origin.id,
    module: 'actions',
    name: 'Override B',
  });
  const own = await buildStoreTaskConfiguration(context.db, {
    store_id,
    module: 'actions',
    name: 'Store task B',
    type_id: storeType.id,
    configuration: actions(),
    starts: [480],
    durations: [60],
  });
  return [databaseType.id, storeType.id, origin.id, override.id, own.id];
}

describe('task configurations authorization matrix', () => {
  beforeAll(async () => {
    tenants = await buildTwoTenants(context.db);
    const databaseType = await buildTaskType(context.db, {
      database_id: databaseId(),
      name: 'Matrix type',
    });
    const databaseConfiguration = await buildTaskConfiguration(context.db, {
      database_id: databaseId(),
      name: 'Matrix task',
      type_id: databaseType.id,
      locks: { ...defaultTaskConfigurationLocks, name: false },
    });
    fixture = {
      databaseType: databaseType.id,
      databaseConfiguration: databaseConfiguration.id,
    } as typeof fixture;
    fixture.storeA1 = await buildStoreFixture(tenants.a.stores[0]!.id);
    const managerOwned = await buildStore(context.db, {
      distributor_id: tenants.a.distributor.id,
      database_id: databaseId(),
      manager_owned: true,
    });
    fixture.managerOwned = await buildStoreFixture(managerOwned.id);
    const users = {
      admin: tenants.admin,
      distributor: tenants.a.users.distributor,
      otherDistributor: tenants.b.users.distributor,
      manager: tenants.a.users.manager,
      otherManager: tenants.b.users.manager,
      customer: tenants.a.users.customer,
      otherCustomer: tenants.b.users.customer,
    };
    for (const [role, user] of Object.entries(users)) {
      agents.set(role as Role, await signIn(context.app, user.email, testPassword));
    }
    tenantBIds = [
      tenants.b.distributor.id,
      tenants.b.database.id,
      ...tenants.b.stores.map((store) => store.id),
      ...Object.values(tenants.b.users).map((user) => user.id),
      ...(await buildTenantBConfigurations()),
    ];
    tenantAIds = [
      databaseId(),
      ...tenants.a.stores.map((store) => store.id),
      fixture.databaseType,
      fixture.databaseConfiguration,
      ...Object.values(fixture.storeA1),
      ...Object.values(fixture.managerOwned),
    ];
  });

  it('answers every endpoint × role as the table says, leaking nothing of the other tenant', async () => {
    const endpoints = [...databaseEndpoints(), ...storeEndpoints(() => fixture.storeA1)];
    const mismatches: string[] = [];
    for (const endpoint of endpoints) {
      for (const [index, role] of roles.entries()) {
        const response = await endpoint.send(role);
        outcomes.push(`${endpoint.name} ${role} ${response.statusCode}`);
        // Tenant A's accounts never read an id of tenant B; tenant B's never read tenant A's
        // records, whatever the endpoint answers.
        const foreign = tenantARoles.includes(role)
          ? tenantBIds
          : tenantBRoles.includes(role)
            ? tenantAIds
            : [];
        const leaked = foreign.filter((id) => response.body.includes(id));
        if (leaked.length) leaks.push(`${endpoint.name} ${role}: ${leaked.join(', ')}`);
        const expected = endpoint.expected[index]!;
        if (response.statusCode !== expected) {
          mismatches.push(
            `${endpoint.name} ${role}: ${response.statusCode}, expected ${expected} ${response.body.slice(0, 160)}`,
          );
        } else if (expected === 403) {
          const code = response.json().error.code;
          if (code !== 'permission/denied')
            mismatches.push(`${endpoint.name} ${role}: code ${code}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(leaks).toEqual([]);
    expect(outcomes).toHaveLength(endpoints.length * roles.length);
    expect(endpoints).toHaveLength(18);
  });

  it('lets the manager of the database write a manager-owned store of it', async () => {
    const mismatches: string[] = [];
    for (const endpoint of storeEndpoints(() => fixture.managerOwned)) {
      const response = await endpoint.send('manager');
      if (response.statusCode !== 200)
        mismatches.push(`${endpoint.name}: ${response.statusCode} ${response.body.slice(0, 160)}`);
    }
    expect(mismatches).toEqual([]);
    const view = await agents.get('manager')!.inject({
      method: 'GET',
      url: `/api/storeTaskConfigurations/${fixture.managerOwned.storeConfiguration}`,
    });
    expect(view.json().configuration.editable).toBe(true);
  });

  it('writes nothing on a refused write and says what is editable', async () => {
    const manager = agents.get('manager')!;
    const id = fixture.storeA1.storeConfiguration;
    const version = await versionOf(storeTaskConfigurations, id);
    const [before] = await context.db
      .select()
      .from(storeTaskConfigurations)
      .where(eq(storeTaskConfigurations.id, id));
    const refused = await manager.inject({
      method: 'PATCH',
      url: `/api/storeTaskConfigurations/${id}`,
      payload: { version, name: 'Refused' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe('You do not have permission to execute this action.');
    const [after] = await context.db
      .select()
      .from(storeTaskConfigurations)
      .where(eq(storeTaskConfigurations.id, id));
    expect(after).toEqual(before);
    const readOnly = await manager.inject({
      method: 'GET',
      url: `/api/storeTaskConfigurations/${id}`,
    });
    expect(readOnly.json().configuration.editable).toBe(false);
    const customerView = await agents.get('customer')!.inject({
      method: 'GET',
      url: `/api/taskConfigurations/${fixture.databaseConfiguration}`,
    });
    expect(customerView.json().configuration.editable).toBe(false);
    const customerCreate = await agents.get('customer')!.inject({
      method: 'POST',
      url: `/api/databases/${databaseId()}/taskConfigurations`,
      payload: { name: '', module: 'actions' },
    });
    // Permission comes before validation: a customer learns nothing from the body.
    expect(customerCreate.statusCode).toBe(403);
  });
});
