import { defaultElementLocks } from '@mise/shared/catalogue/constants';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  databaseElements,
  elementAttachments,
  elementLabels,
  storeElements,
} from '../../db/schema';
import {
  buildDatabaseElement,
  buildElementType,
  buildLabel,
  buildStore,
  buildStoreElement,
  buildTwoTenants,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { attachmentVersionQuery, pdfUpload, png, pngUpload, versionQuery } from './test-support';

/**
 * Catalogue endpoints × role, on records of tenant A (spec 001 §6, ARCHITECTURE "Tenancy"):
 * reads answer 404 outside the scope; database-level writes are refused to customers (403),
 * store-level writes to a manager on a store that is not manager-owned (403). Store A1 is
 * owned by customer A and not manager-owned. The expected statuses are written by hand.
 * Tenant B has a catalogue of its own; no answer to tenant A's accounts carries one of its ids,
 * and no answer to tenant B's accounts carries one of tenant A's records.
 */

const context = useTestApp({
  integrations: {
    stockImages: {
      configured: true,
      search: async () => [],
      download: async () => ({ data: png, contentType: 'image/png' }),
    },
  },
});

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
let fixture: {
  databaseType: string;
  storeType: string;
  databaseElement: string;
  origin: string;
  storeElement: string;
  databaseAttachment: string;
  storeAttachment: string;
  databaseLabel: string;
};

const databaseId = () => tenants.a.database.id;
const storeId = () => tenants.a.stores[0]!.id;
let counter = 0;

function send(role: Role, options: Parameters<Agent['inject']>[0]) {
  return role === 'anonymous' ? context.app.inject(options) : agents.get(role)!.inject(options);
}

async function versionOf(table: typeof databaseElements | typeof storeElements, id: string) {
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

const endpoints: Endpoint[] = [
  /* Reads */
  {
    name: 'GET /api/databases/:id/elements',
    expected: read,
    send: (role) => send(role, { method: 'GET', url: `/api/databases/${databaseId()}/elements` }),
  },
  {
    name: 'GET /api/databaseElements/:id',
    expected: read,
    send: (role) =>
      send(role, { method: 'GET', url: `/api/databaseElements/${fixture.databaseElement}` }),
  },
  {
    name: 'GET /api/databases/:id/elementTypes',
    expected: read,
    send: (role) =>
      send(role, { method: 'GET', url: `/api/databases/${databaseId()}/elementTypes` }),
  },
  {
    name: 'GET /api/databases/:id/elements/context',
    expected: read,
    send: (role) =>
      send(role, { method: 'GET', url: `/api/databases/${databaseId()}/elements/context` }),
  },
  {
    name: 'GET /api/stores/:id/elements/context',
    expected: read,
    send: (role) => send(role, { method: 'GET', url: `/api/stores/${storeId()}/elements/context` }),
  },
  {
    name: 'GET /api/stores/:id/elements',
    expected: read,
    send: (role) => send(role, { method: 'GET', url: `/api/stores/${storeId()}/elements` }),
  },
  {
    name: 'GET /api/stores/:id/elements/origin/:originId',
    expected: read,
    send: (role) =>
      send(role, {
        method: 'GET',
        url: `/api/stores/${storeId()}/elements/origin/${fixture.databaseElement}`,
      }),
  },
  {
    name: 'GET /api/storeElements/:id',
    expected: read,
    send: (role) =>
      send(role, { method: 'GET', url: `/api/storeElements/${fixture.storeElement}` }),
  },
  {
    name: 'GET /api/stores/:id/elementTypes',
    expected: read,
    send: (role) => send(role, { method: 'GET', url: `/api/stores/${storeId()}/elementTypes` }),
  },
  {
    name: 'GET /api/elementAttachments/:id/download (database)',
    expected: read,
    send: (role) =>
      send(role, {
        method: 'GET',
        url: `/api/elementAttachments/${fixture.databaseAttachment}/download`,
      }),
  },
  {
    name: 'GET /api/elementAttachments/:id/download (store)',
    expected: read,
    send: (role) =>
      send(role, {
        method: 'GET',
        url: `/api/elementAttachments/${fixture.storeAttachment}/download`,
      }),
  },
  {
    name: 'GET /api/files/<attachment of the database>',
    expected: read,
    send: async (role) => {
      const [row] = await context.db
        .select({ path: elementAttachments.path })
        .from(elementAttachments)
        .where(eq(elementAttachments.id, fixture.databaseAttachment));
      return send(role, { method: 'GET', url: `/api/files/${row!.path}` });
    },
  },
  {
    name: 'GET /api/allergens?databaseId=',
    expected: read,
    send: (role) => send(role, { method: 'GET', url: `/api/allergens?databaseId=${databaseId()}` }),
  },
  {
    name: 'GET /api/allergens?storeId=',
    expected: read,
    send: (role) => send(role, { method: 'GET', url: `/api/allergens?storeId=${storeId()}` }),
  },
  {
    name: 'GET /api/pdf/allergens?storeId=',
    expected: read,
    send: (role) => send(role, { method: 'GET', url: `/api/pdf/allergens?storeId=${storeId()}` }),
  },

  /* Database-level writes */
  {
    name: 'POST /api/databases/:id/elements',
    expected: databaseWrite,
    send: (role) =>
      send(role, {
        method: 'POST',
        url: `/api/databases/${databaseId()}/elements`,
        payload: { name: `Matrix ${++counter}`, labels: [labelInput('Matrix label')] },
      }),
  },
  {
    name: 'PATCH /api/databaseElements/:id (with labels)',
    expected: databaseWrite,
    send: async (role) =>
      send(role, {
        method: 'PATCH',
        url: `/api/databaseElements/${fixture.databaseElement}`,
        payload: {
          version: await versionOf(databaseElements, fixture.databaseElement),
          maximum_temperature: ++counter,
          labels: [labelInput('Label', { id: fixture.databaseLabel })],
        },
      }),
  },
  {
    name: 'POST /api/databaseElements/:id/duplicate',
    expected: databaseWrite,
    send: (role) =>
      send(role, {
        method: 'POST',
        url: `/api/databaseElements/${fixture.databaseElement}/duplicate`,
      }),
  },
  {
    name: 'POST /api/databaseElements/:id/illustration',
    expected: databaseWrite,
    send: async (role) =>
      send(role, {
        method: 'POST',
        url: `/api/databaseElements/${fixture.databaseElement}/illustration${await versionQuery(context.db, 'database', fixture.databaseElement)}`,
        ...pngUpload(),
      }),
  },
  {
    name: 'POST /api/databaseElements/:id/allergenIllustration',
    expected: databaseWrite,
    send: async (role) =>
      send(role, {
        method: 'POST',
        url: `/api/databaseElements/${fixture.databaseElement}/allergenIllustration${await versionQuery(context.db, 'database', fixture.databaseElement)}`,
        ...pngUpload(),
      }),
  },
  {
    name: 'POST /api/databaseElements/:id/illustration/stock',
    expected: databaseWrite,
    send: async (role) =>
      send(role, {
        method: 'POST',
        url: `/api/databaseElements/${fixture.databaseElement}/illustration/stock${await versionQuery(context.db, 'database', fixture.databaseElement)}`,
        payload: { url: 'https://stock.test/1.png' },
      }),
  },
  {
    name: 'POST /api/databaseElements/:id/attachments',
    expected: databaseWrite,
    send: async (role) =>
      send(role, {
        method: 'POST',
        url: `/api/databaseElements/${fixture.databaseElement}/attachments${await versionQuery(context.db, 'database', fixture.databaseElement)}`,
        ...pdfUpload(),
      }),
  },
  {
    name: 'PATCH /api/elementAttachments/:id (database)',
    expected: databaseWrite,
    send: async (role) =>
      send(role, {
        method: 'PATCH',
        url: `/api/elementAttachments/${fixture.databaseAttachment}${await attachmentVersionQuery(context.db, fixture.databaseAttachment)}`,
        payload: { name: `Sheet ${++counter}` },
      }),
  },
  {
    name: 'POST /api/databases/:id/elementTypes',
    expected: databaseWrite,
    send: (role) =>
      send(role, {
        method: 'POST',
        url: `/api/databases/${databaseId()}/elementTypes`,
        payload: { name: `Type ${++counter}` },
      }),
  },
  {
    name: 'PATCH /api/elementTypes/:id (database type)',
    expected: databaseWrite,
    send: (role) =>
      send(role, {
        method: 'PATCH',
        url: `/api/elementTypes/${fixture.databaseType}`,
        payload: { name: `Type ${++counter}` },
      }),
  },

  /* Store-level writes */
  {
    name: 'POST /api/stores/:id/elements',
    expected: storeWrite,
    send: (role) =>
      send(role, {
        method: 'POST',
        url: `/api/stores/${storeId()}/elements`,
        payload: { name: `Store matrix ${++counter}`, type_id: fixture.storeType },
      }),
  },
  {
    name: 'POST /api/stores/:id/elements (override of an origin)',
    expected: storeWrite,
    send: async (role) => {
      // A fresh origin each time, so that a refusal is about permissions only.
      const origin = await buildDatabaseElement(context.db, {
        database_id: databaseId(),
        type_id: fixture.databaseType,
        locks: { ...defaultElementLocks, minimum_temperature: false },
      });
      return send(role, {
        method: 'POST',
        url: `/api/stores/${storeId()}/elements`,
        payload: { origin_id: origin.id, minimum_temperature: 1 },
      });
    },
  },
  {
    name: 'PATCH /api/storeElements/:id (with labels)',
    expected: storeWrite,
    send: async (role) =>
      send(role, {
        method: 'PATCH',
        url: `/api/storeElements/${fixture.storeElement}`,
        payload: {
          version: await versionOf(storeElements, fixture.storeElement),
          minimum_temperature: ++counter,
          labels: [labelInput('Store label')],
        },
      }),
  },
  {
    name: 'POST /api/storeElements/:id/duplicate',
    expected: storeWrite,
    send: (role) =>
      send(role, { method: 'POST', url: `/api/storeElements/${fixture.storeElement}/duplicate` }),
  },
  {
    name: 'POST /api/storeElements/:id/illustration',
    expected: storeWrite,
    send: async (role) =>
      send(role, {
        method: 'POST',
        url: `/api/storeElements/${fixture.storeElement}/illustration${await versionQuery(context.db, 'store', fixture.storeElement)}`,
        ...pngUpload(),
      }),
  },
  {
    name: 'POST /api/storeElements/:id/allergenIllustration',
    expected: storeWrite,
    send: async (role) =>
      send(role, {
        method: 'POST',
        url: `/api/storeElements/${fixture.storeElement}/allergenIllustration${await versionQuery(context.db, 'store', fixture.storeElement)}`,
        ...pngUpload(),
      }),
  },
  {
    name: 'POST /api/storeElements/:id/illustration/stock',
    expected: storeWrite,
    send: async (role) =>
      send(role, {
        method: 'POST',
        url: `/api/storeElements/${fixture.storeElement}/illustration/stock${await versionQuery(context.db, 'store', fixture.storeElement)}`,
        payload: { url: 'https://stock.test/1.png' },
      }),
  },
  {
    name: 'POST /api/storeElements/:id/attachments',
    expected: storeWrite,
    send: async (role) =>
      send(role, {
        method: 'POST',
        url: `/api/storeElements/${fixture.storeElement}/attachments${await versionQuery(context.db, 'store', fixture.storeElement)}`,
        ...pdfUpload(),
      }),
  },
  {
    name: 'PATCH /api/elementAttachments/:id (store)',
    expected: storeWrite,
    send: async (role) =>
      send(role, {
        method: 'PATCH',
        url: `/api/elementAttachments/${fixture.storeAttachment}${await attachmentVersionQuery(context.db, fixture.storeAttachment)}`,
        payload: { name: `Sheet ${++counter}` },
      }),
  },
  {
    name: 'POST /api/stores/:id/elementTypes',
    expected: storeWrite,
    send: (role) =>
      send(role, {
        method: 'POST',
        url: `/api/stores/${storeId()}/elementTypes`,
        payload: { name: `Store type ${++counter}` },
      }),
  },
  {
    name: 'PATCH /api/elementTypes/:id (store type)',
    expected: storeWrite,
    send: (role) =>
      send(role, {
        method: 'PATCH',
        url: `/api/elementTypes/${fixture.storeType}`,
        payload: { name: `Store type ${++counter}` },
      }),
  },
];

function labelInput(name: string, extra: Record<string, unknown> = {}) {
  return {
    active: true,
    name,
    type: 'defrosting',
    expiration_duration: 24,
    defrosting_duration: 12,
    expiration_text: null,
    cumulate_expiration_duration: true,
    show_expiration_hour: false,
    show_expiration_weekday: false,
    ...extra,
  };
}

const outcomes: string[] = [];
/** Ids of tenant B (organisation and catalogue) and of tenant A's catalogue records. */
let tenantBIds: string[] = [];
let tenantAIds: string[] = [];
const leaks: string[] = [];
const tenantARoles: readonly Role[] = ['distributor', 'manager', 'customer'];
const tenantBRoles: readonly Role[] = ['otherDistributor', 'otherManager', 'otherCustomer'];

/** Tenant B's own catalogue, the records a missing scope would list to tenant A. */
async function buildTenantBCatalogue() {
  const database_id = tenants.b.database.id;
  const store_id = tenants.b.stores[0]!.id;
  const databaseType = await buildElementType(context.db, { database_id, name: 'Type B' });
  const storeType = await buildElementType(context.db, { store_id, name: 'Local B' });
  const databaseElement = await buildDatabaseElement(context.db, {
    database_id,
    name: 'Element B',
    type_id: databaseType.id,
    allergens: ['egg'],
    locks: { ...defaultElementLocks, minimum_temperature: false },
  });
  const label = await buildLabel(context.db, {
    database_id,
    database_element_id: databaseElement.id,
  });
  const override = await buildStoreElement(context.db, {
    store_id,
    origin_id: databaseElement.id,
    minimum_temperature: 1,
  });
  const own = await buildStoreElement(context.db, {
    store_id,
    name: 'Store element B',
    type_id: storeType.id,
    allergens: ['milkOrLactose'],
  });
  return [databaseType.id, storeType.id, databaseElement.id, label.id, override.id, own.id];
}

describe('catalogue authorization matrix', () => {
  beforeAll(async () => {
    tenants = await buildTwoTenants(context.db);
    const databaseType = await buildElementType(context.db, {
      database_id: databaseId(),
      name: 'Matrix type',
    });
    const storeType = await buildElementType(context.db, { store_id: storeId(), name: 'Local' });
    const databaseElement = await buildDatabaseElement(context.db, {
      database_id: databaseId(),
      name: 'Matrix element',
      type_id: databaseType.id,
      allergens: ['egg'],
      locks: {
        ...defaultElementLocks,
        minimum_temperature: false,
        labels: false,
        attachments: false,
      },
    });
    const databaseLabel = await buildLabel(context.db, {
      database_id: databaseId(),
      database_element_id: databaseElement.id,
    });
    const origin = await buildDatabaseElement(context.db, {
      database_id: databaseId(),
      type_id: databaseType.id,
      locks: {
        ...defaultElementLocks,
        minimum_temperature: false,
        labels: false,
        attachments: false,
        illustration_url: false,
        allergen_illustration_url: false,
      },
    });
    const storeElement = await buildStoreElement(context.db, {
      store_id: storeId(),
      origin_id: origin.id,
    });
    agents.set('admin', await signIn(context.app, tenants.admin.email, testPassword));
    agents.set(
      'distributor',
      await signIn(context.app, tenants.a.users.distributor.email, testPassword),
    );
    agents.set(
      'otherDistributor',
      await signIn(context.app, tenants.b.users.distributor.email, testPassword),
    );
    agents.set('manager', await signIn(context.app, tenants.a.users.manager.email, testPassword));
    agents.set(
      'otherManager',
      await signIn(context.app, tenants.b.users.manager.email, testPassword),
    );
    agents.set('customer', await signIn(context.app, tenants.a.users.customer.email, testPassword));
    agents.set(
      'otherCustomer',
      await signIn(context.app, tenants.b.users.customer.email, testPassword),
    );
    const admin = agents.get('admin')!;
    const databaseUpload = await admin.inject({
      method: 'POST',
      url: `/api/databaseElements/${databaseElement.id}/attachments${await versionQuery(context.db, 'database', databaseElement.id)}`,
      ...pdfUpload(),
    });
    const storeUpload = await admin.inject({
      method: 'POST',
      url: `/api/storeElements/${storeElement.id}/attachments${await versionQuery(context.db, 'store', storeElement.id)}`,
      ...pdfUpload(),
    });
    fixture = {
      databaseType: databaseType.id,
      storeType: storeType.id,
      databaseElement: databaseElement.id,
      origin: origin.id,
      storeElement: storeElement.id,
      databaseAttachment: databaseUpload.json().element.attachments[0].id,
      storeAttachment: storeUpload
        .json()
        .element.attachments.find((item: { inherited: boolean }) => !item.inherited).id,
      databaseLabel: databaseLabel.id,
    };
    tenantBIds = [
      tenants.b.distributor.id,
      tenants.b.database.id,
      ...tenants.b.stores.map((store) => store.id),
      ...Object.values(tenants.b.users).map((user) => user.id),
      ...(await buildTenantBCatalogue()),
    ];
    tenantAIds = [databaseId(), ...tenants.a.stores.map((store) => store.id)].concat(
      Object.values(fixture),
    );
  });

  afterAll(() => {
    console.log(`catalogue authorization matrix: ${outcomes.length} pairs`);
  });

  it('answers every endpoint × role as the table says, leaking nothing of the other tenant', async () => {
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
  });

  it('writes nothing on a refused write (manager on a store not manager-owned)', async () => {
    const manager = agents.get('manager')!;
    const version = await versionOf(storeElements, fixture.storeElement);
    const labelsBefore = await context.db
      .select()
      .from(elementLabels)
      .where(eq(elementLabels.store_element_id, fixture.storeElement));
    const refused = await manager.inject({
      method: 'PATCH',
      url: `/api/storeElements/${fixture.storeElement}`,
      payload: { version, name: 'Refused', labels: [] },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe('You do not have permission to execute this action.');
    expect(await versionOf(storeElements, fixture.storeElement)).toBe(version);
    const labelsAfter = await context.db
      .select()
      .from(elementLabels)
      .where(eq(elementLabels.store_element_id, fixture.storeElement));
    expect(labelsAfter).toEqual(labelsBefore);

    // The same manager edits a manager-owned store of its database.
    const owned = await buildStore(context.db, {
      distributor_id: tenants.a.distributor.id,
      database_id: databaseId(),
      manager_owned: true,
    });
    const created = await manager.inject({
      method: 'POST',
      url: `/api/stores/${owned.id}/elements`,
      payload: { origin_id: fixture.origin, minimum_temperature: 2 },
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().element.editable).toBe(true);
    const readOnly = await manager.inject({
      method: 'GET',
      url: `/api/storeElements/${fixture.storeElement}`,
    });
    expect(readOnly.json().element.editable).toBe(false);
    const customerView = await agents.get('customer')!.inject({
      method: 'GET',
      url: `/api/databaseElements/${fixture.databaseElement}`,
    });
    expect(customerView.json().element.editable).toBe(false);
  });
});
