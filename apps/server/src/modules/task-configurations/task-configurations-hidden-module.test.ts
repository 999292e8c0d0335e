import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { databases, stores, storeTaskConfigurations, taskConfigurations } from '../../db/schema';
import {
  buildStoreTaskConfiguration,
  buildTaskConfiguration,
  buildTwoTenants,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';

const context = useTestApp();

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let distributor: Agent;
let customer: Agent;

const databaseA = () => tenants.a.database.id;
/** The customer's store. */
const storeA1 = () => tenants.a.stores[0]!.id;
const storeA2 = () => tenants.a.stores[1]!.id;

async function rowCounts() {
  const [database] = await context.db.select({ total: count() }).from(taskConfigurations);
  const [store] = await context.db.select({ total: count() }).from(storeTaskConfigurations);
  return { database: database!.total, store: store!.total };
}

async function hideOnDatabase(modules: string[]) {
  await context.db
    .update(databases)
    .set({ hidden_modules: modules })
    .where(eq(databases.id, databaseA()));
}

async function hideOnStore(storeId: string, modules: string[]) {
  await context.db.update(stores).set({ hidden_modules: modules }).where(eq(stores.id, storeId));
}

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  distributor = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
  customer = await signIn(context.app, tenants.a.users.customer.email, testPassword);
});

describe('task configurations of a hidden module (issue 13)', () => {
  it('refuses a database task of a module the database hides, and writes nothing', async () => {
    await hideOnDatabase(['oils']);
    const url = `/api/databases/${databaseA()}/taskConfigurations`;
    const before = await rowCounts();

    const refused = await distributor.inject({
      method: 'POST',
      url,
      payload: { name: 'Huile friteuse', module: 'oils' },
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.code).toBe('task-configuration/hidden-module');
    expect(await rowCounts()).toEqual(before);

    // A module the database shows is accepted.
    const accepted = await distributor.inject({
      method: 'POST',
      url,
      payload: { name: 'Relevé frigo', module: 'temperatures' },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    await hideOnDatabase([]);
  });

  it('refuses to change or duplicate a database task once its module is hidden', async () => {
    const oils = await buildTaskConfiguration(context.db, {
      database_id: databaseA(),
      module: 'oils',
      name: 'Huile',
      configuration: { oil_elements: [] },
    });
    await hideOnDatabase(['oils']);
    const before = await rowCounts();

    const patched = await distributor.inject({
      method: 'PATCH',
      url: `/api/taskConfigurations/${oils.id}`,
      payload: { version: oils.version, name: 'Huile 2' },
    });
    expect(patched.statusCode, patched.body).toBe(400);
    expect(patched.json().error.code).toBe('task-configuration/hidden-module');
    const duplicated = await distributor.inject({
      method: 'POST',
      url: `/api/taskConfigurations/${oils.id}/duplicate`,
    });
    expect(duplicated.statusCode).toBe(400);
    expect(duplicated.json().error.code).toBe('task-configuration/hidden-module');

    const [row] = await context.db
      .select()
      .from(taskConfigurations)
      .where(eq(taskConfigurations.id, oils.id));
    expect(row).toMatchObject({ name: 'Huile', version: oils.version });
    expect(await rowCounts()).toEqual(before);
    await hideOnDatabase([]);
  });

  it('refuses a store task of a module the store hides; another store of the database may', async () => {
    await hideOnStore(storeA1(), ['oils']);
    const before = await rowCounts();

    const refused = await customer.inject({
      method: 'POST',
      url: `/api/stores/${storeA1()}/taskConfigurations`,
      payload: { name: 'Huile', module: 'oils' },
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.code).toBe('task-configuration/hidden-module');
    expect(await rowCounts()).toEqual(before);

    const elsewhere = await distributor.inject({
      method: 'POST',
      url: `/api/stores/${storeA2()}/taskConfigurations`,
      payload: { name: 'Huile', module: 'oils' },
    });
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
    await hideOnStore(storeA1(), []);
  });

  it("refuses a store task of a module the store's database hides, and a change of one", async () => {
    const own = await buildStoreTaskConfiguration(context.db, {
      store_id: storeA1(),
      module: 'oils',
      name: 'Huile du soir',
      configuration: { oil_elements: [] },
    });
    await hideOnDatabase(['oils']);
    const before = await rowCounts();

    const created = await customer.inject({
      method: 'POST',
      url: `/api/stores/${storeA1()}/taskConfigurations`,
      payload: { name: 'Huile', module: 'oils' },
    });
    expect(created.statusCode, created.body).toBe(400);
    expect(created.json().error.code).toBe('task-configuration/hidden-module');
    const patched = await customer.inject({
      method: 'PATCH',
      url: `/api/storeTaskConfigurations/${own.id}`,
      payload: { version: own.version, name: 'Huile du matin' },
    });
    expect(patched.statusCode, patched.body).toBe(400);
    expect(patched.json().error.code).toBe('task-configuration/hidden-module');

    const [row] = await context.db
      .select()
      .from(storeTaskConfigurations)
      .where(eq(storeTaskConfigurations.id, own.id));
    expect(row).toMatchObject({ name: 'Huile du soir', version: own.version });
    expect(await rowCounts()).toEqual(before);
    await hideOnDatabase([]);
  });
});

describe('the legacy cleaning module (spec 000 §3)', () => {
  it('is read as actions when hiding modules and creating a task; another unknown key is a 400', async () => {
    const database = await distributor.inject({
      method: 'GET',
      url: `/api/databases/${databaseA()}`,
    });
    const hidden = await distributor.inject({
      method: 'PATCH',
      url: `/api/databases/${databaseA()}`,
      payload: { version: database.json().database.version, hidden_modules: ['cleaning'] },
    });
    expect(hidden.statusCode, hidden.body).toBe(200);
    const [row] = await context.db
      .select({ hidden_modules: databases.hidden_modules })
      .from(databases)
      .where(eq(databases.id, databaseA()));
    expect(row!.hidden_modules).toEqual(['actions']);
    await hideOnDatabase([]);

    const url = `/api/databases/${databaseA()}/taskConfigurations`;
    const created = await distributor.inject({
      method: 'POST',
      url,
      payload: {
        name: 'Nettoyage plonge',
        module: 'cleaning',
        configuration: {
          actions: [{ name: 'Plonge', requires_picture: false, attachments: [] }],
        },
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const [stored] = await context.db
      .select({ module: taskConfigurations.module })
      .from(taskConfigurations)
      .where(eq(taskConfigurations.name, 'Nettoyage plonge'));
    expect(stored!.module).toBe('actions');

    const before = await rowCounts();
    const refused = await distributor.inject({
      method: 'POST',
      url,
      payload: { name: 'Linge', module: 'laundry' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('validation/invalid-input');
    expect(await rowCounts()).toEqual(before);
  });
});
