import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseManagers, databases, stores } from '../../db/schema';
import {
  buildDatabase,
  buildDistributor,
  buildStore,
  buildTwoTenants,
  buildUser,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';

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

const idsOf = (body: { items: { id: string }[] }) => body.items.map((item) => item.id);
const send = (agent: Agent | null, options: Parameters<Agent['inject']>[0]) =>
  agent ? agent.inject(options) : context.app.inject(options);

async function rowOf(id: string) {
  const [row] = await context.db.select().from(databases).where(eq(databases.id, id));
  return row!;
}
async function databaseCount() {
  return (await context.db.select({ id: databases.id }).from(databases)).length;
}
async function managerIdsOf(databaseId: string) {
  const rows = await context.db
    .select({ id: databaseManagers.user_id })
    .from(databaseManagers)
    .where(eq(databaseManagers.database_id, databaseId));
  return rows.map((row) => row.id).sort();
}

describe('GET /api/databases', () => {
  it('answers 401 to an anonymous caller', async () => {
    expect((await send(null, { method: 'GET', url: '/api/databases' })).statusCode).toBe(401);
  });

  it('lists the databases in scope with the distributor name and the store count', async () => {
    const forAdmin = (await admin.inject({ method: 'GET', url: '/api/databases' })).json();
    expect(idsOf(forAdmin)).toEqual(
      expect.arrayContaining([tenants.a.database.id, tenants.b.database.id]),
    );
    for (const agent of [distributorA, managerA]) {
      const body = (await agent.inject({ method: 'GET', url: '/api/databases' })).json();
      expect(body.items).toEqual([
        expect.objectContaining({
          id: tenants.a.database.id,
          name: 'Database A',
          distributor: tenants.a.distributor.id,
          distributor_name: 'Distributor A',
          store_count: 2,
          hidden: false,
        }),
      ]);
    }
    const forCustomer = (await customerA.inject({ method: 'GET', url: '/api/databases' })).json();
    expect(idsOf(forCustomer)).toEqual([tenants.a.database.id]);
    expect(forCustomer.items[0].store_count).toBe(1);
  });

  it('searches by name and refuses an unknown query field with 400', async () => {
    const orphan = await buildDatabase(context.db, { name: 'Orphan Catalogue' });
    const body = (
      await admin.inject({ method: 'GET', url: '/api/databases?search=orphan' })
    ).json();
    expect(body.items).toEqual([
      expect.objectContaining({
        id: orphan.id,
        distributor: null,
        distributor_name: null,
        store_count: 0,
      }),
    ]);
    const invalid = await admin.inject({
      method: 'GET',
      url: '/api/databases?includeInactive=true',
    });
    expect(invalid.statusCode).toBe(400);
  });
});

describe('POST /api/databases', () => {
  const create = (agent: Agent | null, payload: object) =>
    send(agent, { method: 'POST', url: '/api/databases', payload });

  it('answers 401 anonymous and 403 to managers and customers, writing nothing', async () => {
    const before = await databaseCount();
    expect((await create(null, { name: 'X' })).statusCode).toBe(401);
    for (const agent of [managerA, customerA]) {
      const response = await create(agent, { name: 'X' });
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('permission/denied');
    }
    expect(await databaseCount()).toBe(before);
  });

  it("refuses invalid input with 400, and another distributor's id from a distributor with 404", async () => {
    const before = await databaseCount();
    for (const payload of [
      {},
      { name: '' },
      { name: 'x'.repeat(121) },
      { name: 'A', extra: 1 },
      { name: 'A', distributorId: 'x' },
    ]) {
      const response = await create(admin, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code).toBe('validation/invalid-input');
    }
    const foreign = await create(distributorA, {
      name: 'Mine',
      distributorId: tenants.b.distributor.id,
    });
    expect(foreign.statusCode).toBe(404);
    expect(await databaseCount()).toBe(before);
  });

  it('links a distributor-created database to its own distributor', async () => {
    for (const payload of [{ name: 'Own one' }, { name: 'Own two', distributorId: null }]) {
      const response = await create(distributorA, payload);
      expect(response.statusCode).toBe(200);
      const database = response.json().database;
      expect(database.distributor).toBe(tenants.a.distributor.id);
      expect(database.licence_price).toBeNull();
      expect((await rowOf(database.id)).distributor_id).toBe(tenants.a.distributor.id);
    }
  });

  it('lets an admin choose the distributor or none', async () => {
    const withB = (
      await create(admin, { name: 'For B', distributorId: tenants.b.distributor.id })
    ).json();
    expect(withB.database).toMatchObject({
      distributor: tenants.b.distributor.id,
      distributor_name: 'Distributor B',
      managers: [],
      stores: [],
      version: 0,
    });
    const without = (await create(admin, { name: 'Free' })).json();
    expect(without.database.distributor).toBeNull();
    const unknown = await create(admin, {
      name: 'Ghost',
      distributorId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('GET /api/databases/:id', () => {
  it('answers 401, 404 outside the scope', async () => {
    const url = `/api/databases/${tenants.b.database.id}`;
    expect((await send(null, { method: 'GET', url })).statusCode).toBe(401);
    for (const agent of [distributorA, managerA, customerA]) {
      expect((await agent.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
  });

  it('sends managers, store ids, and the licence price to admins only', async () => {
    await context.db
      .update(databases)
      .set({ licence_price: '21.50' })
      .where(eq(databases.id, tenants.a.database.id));
    const url = `/api/databases/${tenants.a.database.id}`;
    const forAdmin = (await admin.inject({ method: 'GET', url })).json().database;
    expect(forAdmin.licence_price).toBe(21.5);
    expect(forAdmin.managers).toEqual([
      {
        id: tenants.a.users.manager.id,
        name: tenants.a.users.manager.name,
        surname: tenants.a.users.manager.surname,
        email: tenants.a.users.manager.email,
      },
    ]);
    expect([...forAdmin.stores].sort()).toEqual(tenants.a.stores.map((store) => store.id).sort());
    for (const agent of [distributorA, managerA]) {
      const body = (await agent.inject({ method: 'GET', url })).json().database;
      expect(body.licence_price).toBeNull();
      expect(body.managers).toHaveLength(1);
    }
    const forCustomer = (await customerA.inject({ method: 'GET', url })).json().database;
    expect(forCustomer.licence_price).toBeNull();
    expect(forCustomer.stores).toEqual([tenants.a.stores[0]!.id]);
  });
});

describe('PATCH /api/databases/:id', () => {
  const patch = (agent: Agent | null, id: string, payload: object) =>
    send(agent, { method: 'PATCH', url: `/api/databases/${id}`, payload });

  it('answers 401, 404 outside the scope and 403 to customers, writing nothing', async () => {
    const own = await rowOf(tenants.a.database.id);
    expect((await patch(null, own.id, { version: own.version, name: 'X' })).statusCode).toBe(401);
    const customer = await patch(customerA, own.id, { version: own.version, name: 'X' });
    expect(customer.statusCode).toBe(403);
    const other = await rowOf(tenants.b.database.id);
    for (const agent of [distributorA, managerA, customerA]) {
      expect((await patch(agent, other.id, { version: other.version, name: 'X' })).statusCode).toBe(
        404,
      );
    }
    expect(await rowOf(own.id)).toEqual(own);
    expect(await rowOf(other.id)).toEqual(other);
  });

  it('refuses invalid input with 400 and writes nothing', async () => {
    const target = await buildDatabase(context.db, { distributor_id: tenants.a.distributor.id });
    for (const payload of [
      { name: 'no version' },
      { version: target.version, name: '' },
      { version: target.version, hidden_modules: ['laundry'] },
      { version: target.version, hidden_extensions: ['nope'] },
      { version: target.version, licence_price: -5 },
      { version: target.version, licence_price: 100_000.01 },
      { version: target.version, store_access: 'yes' },
      { version: target.version, screen_saver_url: 'http://evil.test/x.png' },
    ]) {
      const response = await patch(admin, target.id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code).toBe('validation/invalid-input');
    }
    expect(await rowOf(target.id)).toEqual(target);
  });

  it('lets a manager edit name and modules but never store access, hidden, price or distributor', async () => {
    const own = await rowOf(tenants.a.database.id);
    for (const forbidden of [
      { store_access: true },
      { hidden: true },
      { licence_price: 10 },
      { distributorId: tenants.a.distributor.id },
    ]) {
      const response = await patch(managerA, own.id, { version: own.version, ...forbidden });
      expect(response.statusCode, JSON.stringify(forbidden)).toBe(403);
      expect(response.json().error.code).toBe('permission/denied');
    }
    expect(await rowOf(own.id)).toEqual(own);
    const response = await patch(managerA, own.id, {
      version: own.version,
      name: 'Database A',
      hidden_modules: ['oils', 'labels'],
      hidden_extensions: ['shop'],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().database).toMatchObject({
      hidden_modules: ['oils', 'labels'],
      hidden_extensions: ['shop'],
      version: own.version + 1,
    });
  });

  it('lets a distributor toggle store access but not the licence price; admins set the price', async () => {
    const target = await buildDatabase(context.db, { distributor_id: tenants.a.distributor.id });
    const price = await patch(distributorA, target.id, { version: 0, licence_price: 12 });
    expect(price.statusCode).toBe(403);
    const toggled = await patch(distributorA, target.id, {
      version: 0,
      store_access: true,
      hidden: true,
    });
    expect(toggled.statusCode).toBe(200);
    expect(toggled.json().database).toMatchObject({
      store_access: true,
      hidden: true,
      licence_price: null,
    });
    const priced = await patch(admin, target.id, { version: 1, licence_price: 15.9 });
    expect(priced.json().database.licence_price).toBe(15.9);
    const reset = await patch(admin, target.id, { version: 2, licence_price: null });
    expect(reset.json().database.licence_price).toBeNull();
    expect((await rowOf(target.id)).licence_price).toBeNull();
  });

  it('sets the distributor once; the stores without a distributor join it', async () => {
    const target = await buildDatabase(context.db);
    const loose = await buildStore(context.db, { database_id: target.id });
    const placed = await buildStore(context.db, {
      database_id: target.id,
      distributor_id: tenants.b.distributor.id,
    });
    const unknown = await patch(admin, target.id, {
      version: 0,
      distributorId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(404);
    const set = await patch(admin, target.id, {
      version: 0,
      distributorId: tenants.a.distributor.id,
    });
    expect(set.statusCode).toBe(200);
    expect(set.json().database.distributor).toBe(tenants.a.distributor.id);
    const storeRows = await context.db
      .select()
      .from(stores)
      .where(eq(stores.database_id, target.id));
    expect(storeRows.find((row) => row.id === loose.id)!.distributor_id).toBe(
      tenants.a.distributor.id,
    );
    expect(storeRows.find((row) => row.id === placed.id)!.distributor_id).toBe(
      tenants.b.distributor.id,
    );

    const again = await patch(admin, target.id, {
      version: 1,
      distributorId: tenants.b.distributor.id,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('database/distributor-already-set');
    expect((await rowOf(target.id)).distributor_id).toBe(tenants.a.distributor.id);
    // The database now shows in distributor A's list.
    const listed = (await distributorA.inject({ method: 'GET', url: '/api/databases' })).json();
    expect(idsOf(listed)).toContain(target.id);
  });

  it('answers 409 to a stale version and overwrites nothing', async () => {
    const target = await buildDatabase(context.db, {
      name: 'Kept',
      distributor_id: tenants.a.distributor.id,
    });
    expect((await patch(admin, target.id, { version: 0, store_access: true })).statusCode).toBe(
      200,
    );
    const stale = await patch(admin, target.id, { version: 0, name: 'Lost' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('conflict/stale-version');
    const row = await rowOf(target.id);
    expect(row.name).toBe('Kept');
    expect(row.version).toBe(1);
  });
});

describe('POST /api/database/addManager and DELETE /api/databases/:id/managers/:userId', () => {
  const add = (agent: Agent | null, payload: object) =>
    send(agent, { method: 'POST', url: '/api/database/addManager', payload });
  const remove = (agent: Agent | null, databaseId: string, userId: string) =>
    send(agent, { method: 'DELETE', url: `/api/databases/${databaseId}/managers/${userId}` });

  it('answers 401, 403 to managers and customers, 404 outside the scope, adding nobody', async () => {
    const candidate = await buildUser(context.db, { role: 'manager' });
    const payload = { email: candidate.email, databaseId: tenants.a.database.id };
    expect((await add(null, payload)).statusCode).toBe(401);
    for (const agent of [managerA, customerA]) {
      expect((await add(agent, payload)).statusCode).toBe(403);
    }
    const foreign = await add(distributorA, { ...payload, databaseId: tenants.b.database.id });
    expect(foreign.statusCode).toBe(404);
    expect(await managerIdsOf(tenants.b.database.id)).toEqual([tenants.b.users.manager.id]);
    expect(await managerIdsOf(tenants.a.database.id)).toEqual([tenants.a.users.manager.id]);
  });

  it('refuses invalid input with 400, an unknown e-mail with 404, a non-manager with 409', async () => {
    for (const payload of [
      { email: 'x@example.test' },
      { email: 'not an email', databaseId: tenants.a.database.id },
      { email: 'x@example.test', databaseId: tenants.a.database.id, role: 'admin' },
    ]) {
      expect((await add(admin, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    const unknown = await add(admin, {
      email: 'nobody@example.test',
      databaseId: tenants.a.database.id,
    });
    expect(unknown.statusCode).toBe(404);
    const inactive = await buildUser(context.db, {
      role: 'manager',
      active: false,
      distributor_id: tenants.a.distributor.id,
    });
    for (const email of [
      tenants.a.users.customer.email,
      tenants.a.users.distributor.email,
      inactive.email,
    ]) {
      const response = await add(distributorA, { email, databaseId: tenants.a.database.id });
      expect(response.statusCode).toBe(409);
      expect(response.json().error.code).toBe('manager/not-eligible');
    }
    expect(await managerIdsOf(tenants.a.database.id)).toEqual([tenants.a.users.manager.id]);
  });

  it('adds a manager by e-mail (idempotently, case-insensitive) and removes it', async () => {
    const target = await buildDatabase(context.db, { distributor_id: tenants.a.distributor.id });
    // A manager account of distributor A's tenant (issue 13: others are invited instead).
    const candidate = await buildUser(context.db, {
      role: 'manager',
      distributor_id: tenants.a.distributor.id,
    });
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await add(distributorA, {
        email: ` ${candidate.email.toUpperCase()} `,
        databaseId: target.id,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'ok' });
    }
    expect(await managerIdsOf(target.id)).toEqual([candidate.id]);
    const detail = (
      await admin.inject({ method: 'GET', url: `/api/databases/${target.id}` })
    ).json();
    expect(detail.database.managers.map((manager: { id: string }) => manager.id)).toEqual([
      candidate.id,
    ]);

    expect((await remove(managerA, target.id, candidate.id)).statusCode).toBe(404);
    expect((await remove(null, target.id, candidate.id)).statusCode).toBe(401);
    const removed = await remove(distributorA, target.id, candidate.id);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().database.managers).toEqual([]);
    expect(await managerIdsOf(target.id)).toEqual([]);
    expect((await remove(distributorA, target.id, candidate.id)).statusCode).toBe(404);
  });

  it('refuses removal by managers and customers (403) and outside the scope (404)', async () => {
    const managerId = tenants.a.users.manager.id;
    expect((await remove(managerA, tenants.a.database.id, managerId)).statusCode).toBe(403);
    expect((await remove(customerA, tenants.a.database.id, managerId)).statusCode).toBe(403);
    expect(
      (await remove(distributorA, tenants.b.database.id, tenants.b.users.manager.id)).statusCode,
    ).toBe(404);
    const [still] = await context.db
      .select()
      .from(databaseManagers)
      .where(
        and(
          eq(databaseManagers.database_id, tenants.a.database.id),
          eq(databaseManagers.user_id, managerId),
        ),
      );
    expect(still).toBeDefined();
  });
});

const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
function multipart(data: Buffer, contentType: string) {
  const boundary = `----mise-test-${randomBytes(8).toString('hex')}`;
  const head =
    `--${boundary}\r\n` +
    `Content-Disposition: form-data; name="file"; filename="image"\r\n` +
    `Content-Type: ${contentType}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe.each([
  ['illustration', 'illustration_url'],
  ['screen-saver', 'screen_saver_url'],
] as const)('POST /api/databases/:id/%s', (path, field) => {
  const upload = (agent: Agent | null, id: string, data = png, contentType = 'image/png') =>
    send(agent, {
      method: 'POST',
      url: `/api/databases/${id}/${path}`,
      ...multipart(data, contentType),
    });
  const storedFilesOf = (id: string) => {
    const folder = join(context.config.DATA_DIR, 'files', 'databases', id);
    return existsSync(folder)
      ? readdirSync(folder).filter((name) => name.startsWith(`${path}-`))
      : [];
  };

  it('answers 401, 403 to customers, 404 outside the scope, storing nothing', async () => {
    expect((await upload(null, tenants.a.database.id)).statusCode).toBe(401);
    expect((await upload(customerA, tenants.a.database.id)).statusCode).toBe(403);
    expect((await upload(managerA, tenants.b.database.id)).statusCode).toBe(404);
    expect(storedFilesOf(tenants.b.database.id)).toEqual([]);
    expect((await rowOf(tenants.b.database.id))[field]).toBeNull();
  });

  it('refuses a non-image with 415', async () => {
    const target = await buildDatabase(context.db, { distributor_id: tenants.a.distributor.id });
    expect(
      (await upload(admin, target.id, Buffer.from('<svg/>'), 'image/svg+xml')).statusCode,
    ).toBe(415);
    expect(storedFilesOf(target.id)).toEqual([]);
  });

  it('stores the image for its manager, replacing and deleting the previous one', async () => {
    const target = await buildDatabase(context.db, { distributor_id: tenants.a.distributor.id });
    const manager = await buildUser(context.db, {
      role: 'manager',
      managedDatabaseIds: [target.id],
    });
    const agent = await signIn(context.app, manager.email, testPassword);
    const first = await upload(agent, target.id);
    expect(first.statusCode).toBe(200);
    const firstUrl: string = first.json().database[field];
    expect(firstUrl).toMatch(
      new RegExp(`^/api/files/databases/${target.id}/${path}-[0-9a-f]+\\.png$`),
    );
    const second = (await upload(distributorA, target.id)).json().database[field] as string;
    expect(second).not.toBe(firstUrl);
    expect(storedFilesOf(target.id)).toEqual([second.split('/').pop()]);
    expect((await rowOf(target.id))[field]).toBe(second);
  });
});

describe('distributor without databases', () => {
  it('an admin creates a database for a new distributor and it appears in its detail', async () => {
    const fresh = await buildDistributor(context.db);
    const created = (
      await admin.inject({
        method: 'POST',
        url: '/api/databases',
        payload: { name: 'Fresh', distributorId: fresh.id },
      })
    ).json().database;
    const detail = (
      await admin.inject({ method: 'GET', url: `/api/distributors/${fresh.id}` })
    ).json();
    expect(detail.distributor.databases).toEqual([created.id]);
  });
});
