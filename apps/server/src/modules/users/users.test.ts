import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { buildStore, buildTwoTenants, buildUser, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';

const context = useTestApp();

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let admin: Agent;
let distributorA: Agent;
let distributorB: Agent;
let managerA: Agent;
let customerA: Agent;

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  admin = await signIn(context.app, tenants.admin.email, testPassword);
  distributorA = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
  distributorB = await signIn(context.app, tenants.b.users.distributor.email, testPassword);
  managerA = await signIn(context.app, tenants.a.users.manager.email, testPassword);
  customerA = await signIn(context.app, tenants.a.users.customer.email, testPassword);
});

type Summary = { id: string; name: string; surname: string; store_count: number; active: boolean };
const idsOf = (body: { items: { id: string }[] }) => body.items.map((item) => item.id);

async function rowOf(id: string) {
  const [row] = await context.db.select().from(users).where(eq(users.id, id));
  return row!;
}

describe('GET /api/users', () => {
  it('answers 401 to an anonymous caller', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/api/users' });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('auth/unauthenticated');
  });

  it("lists a distributor's accounts without another tenant's, and only itself to a manager", async () => {
    const forDistributor = (await distributorA.inject({ method: 'GET', url: '/api/users' })).json();
    expect(new Set(idsOf(forDistributor))).toEqual(
      new Set([
        tenants.a.users.distributor.id,
        tenants.a.users.manager.id,
        tenants.a.users.customer.id,
      ]),
    );
    expect(forDistributor.total).toBe(3);
    const forManager = (await managerA.inject({ method: 'GET', url: '/api/users' })).json();
    expect(idsOf(forManager)).toEqual([tenants.a.users.manager.id]);
  });

  it('searches name, surname, e-mail and "name surname", case-insensitively, with literal wildcards', async () => {
    const marguerite = await buildUser(context.db, {
      role: 'customer',
      name: 'Marguerite',
      surname: 'Quintal',
      email: 'mq.lookup@example.test',
    });
    const other = await buildUser(context.db, {
      role: 'customer',
      name: 'Quentin',
      surname: 'Marchal',
    });
    const search = async (term: string) =>
      idsOf(
        (
          await admin.inject({
            method: 'GET',
            url: `/api/users?search=${encodeURIComponent(term)}`,
          })
        ).json(),
      );

    expect(await search('marguer')).toEqual([marguerite.id]);
    expect(await search('QUINTAL')).toEqual([marguerite.id]);
    expect(await search('mq.lookup@')).toEqual([marguerite.id]);
    expect(await search('Marguerite Quintal')).toEqual([marguerite.id]);
    expect(await search('  Marguerite Quintal  ')).toEqual([marguerite.id]);
    expect(new Set(await search('mar'))).toEqual(new Set([marguerite.id, other.id]));
    expect(await search('_')).toEqual([]);
    expect(await search('%')).toEqual([]);
    expect(await search('Nobody Matches This')).toEqual([]);
  });

  it('hides inactive accounts unless includeInactive=true', async () => {
    const active = await buildUser(context.db, {
      role: 'customer',
      name: 'Sleepy',
      surname: 'Active',
    });
    const inactive = await buildUser(context.db, {
      role: 'customer',
      name: 'Sleepy',
      surname: 'Inactive',
      active: false,
    });
    const list = async (query: string) =>
      (await admin.inject({ method: 'GET', url: `/api/users?search=Sleepy${query}` })).json();

    const hidden = await list('');
    expect(idsOf(hidden)).toEqual([active.id]);
    expect(hidden.total).toBe(1);
    expect(idsOf(await list('&includeInactive=false'))).toEqual([active.id]);
    const shown = await list('&includeInactive=true');
    expect(idsOf(shown)).toEqual([active.id, inactive.id]);
    expect(shown.items.map((item: Summary) => item.active)).toEqual([true, false]);
    expect(shown.total).toBe(2);
  });

  it('counts the stores each account owns', async () => {
    const storeOne = await buildStore(context.db, {
      distributor_id: tenants.a.distributor.id,
      database_id: tenants.a.database.id,
    });
    const storeTwo = await buildStore(context.db, {
      distributor_id: tenants.a.distributor.id,
      database_id: tenants.a.database.id,
    });
    const owner = await buildUser(context.db, {
      role: 'customer',
      name: 'Counter',
      surname: 'Two',
      ownedStoreIds: [storeOne.id, storeTwo.id],
    });
    const none = await buildUser(context.db, {
      role: 'customer',
      name: 'Counter',
      surname: 'Zero',
    });
    const items: Summary[] = (
      await admin.inject({ method: 'GET', url: '/api/users?search=Counter' })
    ).json().items;
    expect(items.map((item) => [item.id, item.store_count])).toEqual([
      [owner.id, 2],
      [none.id, 0],
    ]);
    const forDistributor: Summary[] = (
      await distributorA.inject({ method: 'GET', url: '/api/users?search=Counter' })
    ).json().items;
    expect(forDistributor.map((item) => item.id)).toEqual([owner.id]);
  });

  it('pages with limit and offset in name order, with the full total', async () => {
    const created = [];
    for (const name of ['Page-E', 'Page-C', 'Page-A', 'Page-D', 'Page-B']) {
      created.push(await buildUser(context.db, { role: 'manager', name, surname: 'Paginated' }));
    }
    const byName = [...created]
      .sort((left, right) => left.name.localeCompare(right.name))
      .map((row) => row.id);
    const page = (
      await admin.inject({ method: 'GET', url: '/api/users?search=Paginated&limit=2&offset=2' })
    ).json();
    expect(page.total).toBe(5);
    expect(idsOf(page)).toEqual(byName.slice(2, 4));
    const last = (
      await admin.inject({ method: 'GET', url: '/api/users?search=Paginated&limit=2&offset=4' })
    ).json();
    expect(idsOf(last)).toEqual(byName.slice(4));
    const beyond = (
      await admin.inject({ method: 'GET', url: '/api/users?search=Paginated&offset=10' })
    ).json();
    expect(beyond).toEqual({ items: [], total: 5 });
  });

  it('refuses bad query parameters with 400', async () => {
    for (const query of [
      'limit=0',
      'limit=201',
      'limit=ten',
      'offset=-1',
      'offset=1.5',
      'includeInactive=yes',
      'role=admin',
      `search=${'x'.repeat(101)}`,
    ]) {
      const response = await admin.inject({ method: 'GET', url: `/api/users?${query}` });
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error.code).toBe('validation/invalid-input');
    }
  });
});

describe('GET /api/users/:id', () => {
  it('answers 401 anonymous, 404 outside the scope, 400 for a bad id', async () => {
    const customerB = tenants.b.users.customer.id;
    expect(
      (await context.app.inject({ method: 'GET', url: `/api/users/${customerB}` })).statusCode,
    ).toBe(401);
    expect(
      (await distributorA.inject({ method: 'GET', url: `/api/users/${customerB}` })).statusCode,
    ).toBe(404);
    expect(
      (await managerA.inject({ method: 'GET', url: `/api/users/${tenants.a.users.customer.id}` }))
        .statusCode,
    ).toBe(404);
    expect(
      (await admin.inject({ method: 'GET', url: `/api/users/${randomUUID()}` })).statusCode,
    ).toBe(404);
    const bad = await admin.inject({ method: 'GET', url: '/api/users/not-a-uuid' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('validation/invalid-input');
  });

  it('answers the account with its links and no secret', async () => {
    const customer = tenants.a.users.customer;
    const response = await distributorA.inject({ method: 'GET', url: `/api/users/${customer.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({
      id: customer.id,
      email: customer.email,
      role: 'customer',
      active: true,
      stores: [tenants.a.stores[0]!.id],
      store_databases: [tenants.a.database.id],
      store_distributors: [tenants.a.distributor.id],
    });
    expect(response.body).not.toContain('password_hash');
    expect(response.body).not.toContain(customer.password_hash);
  });
});

describe('PATCH /api/users/:id', () => {
  const patch = (agent: Agent, id: string, payload: object) =>
    agent.inject({ method: 'PATCH', url: `/api/users/${id}`, payload });

  it('answers 401 anonymous and 404 outside the scope, changing nothing', async () => {
    const target = tenants.b.users.customer;
    const anonymous = await context.app.inject({
      method: 'PATCH',
      url: `/api/users/${target.id}`,
      payload: { version: 0, name: 'Hacked' },
    });
    expect(anonymous.statusCode).toBe(401);
    for (const [agent, id] of [
      [distributorA, target.id],
      [managerA, tenants.a.users.customer.id],
      [customerA, tenants.a.users.manager.id],
    ] as const) {
      const response = await patch(agent, id, {
        version: (await rowOf(id)).version,
        name: 'Hacked',
      });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('not-found');
    }
    for (const id of [target.id, tenants.a.users.customer.id, tenants.a.users.manager.id]) {
      expect((await rowOf(id)).name).toBe('Test');
    }
  });

  it('saves with the current version, answers the new one, and refuses a stale version with 409', async () => {
    const target = await buildUser(context.db, {
      role: 'manager',
      managedDatabaseIds: [tenants.a.database.id],
    });
    const first = await patch(distributorA, target.id, {
      version: 0,
      name: 'Renamed',
      surname: 'Twice',
      phone_number: '0102030405',
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().user).toMatchObject({
      name: 'Renamed',
      surname: 'Twice',
      phone_number: '0102030405',
      version: 1,
    });
    expect(await rowOf(target.id)).toMatchObject({ name: 'Renamed', version: 1 });

    const stale = await patch(admin, target.id, { version: 0, name: 'Overwritten' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('conflict/stale-version');
    expect(await rowOf(target.id)).toMatchObject({ name: 'Renamed', version: 1 });

    const second = await patch(admin, target.id, { version: 1, name: 'Third' });
    expect(second.json().user).toMatchObject({ name: 'Third', version: 2 });
  });

  it('refuses unknown fields, an oversize or blank name, and a bad version with 400, writing nothing', async () => {
    const target = await buildUser(context.db, { role: 'customer' });
    for (const payload of [
      { version: 0, role: 'admin' },
      { version: 0, email: 'other@example.test' },
      { version: 0, password_hash: 'x' },
      { version: 0, name: 'x'.repeat(101) },
      { version: 0, surname: '   ' },
      { version: 0, phone_number: '1'.repeat(41) },
      { name: 'No version' },
      { version: -1, name: 'Negative' },
      { version: 'zero', name: 'String' },
    ]) {
      const response = await patch(admin, target.id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code).toBe('validation/invalid-input');
    }
    const row = await rowOf(target.id);
    expect(row).toMatchObject({
      role: 'customer',
      email: target.email,
      name: 'Test',
      surname: 'customer',
      version: 0,
    });
    expect(row.password_hash).toBe(target.password_hash);
  });

  it('lets an account rename itself but not toggle its own active flag', async () => {
    const self = tenants.a.users.customer;
    const renamed = await patch(customerA, self.id, {
      version: (await rowOf(self.id)).version,
      name: 'Camille',
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().user.name).toBe('Camille');

    for (const active of [false, true]) {
      const version = (await rowOf(self.id)).version;
      const response = await patch(customerA, self.id, { version, active, name: 'Sneaky' });
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('permission/denied');
      expect(await rowOf(self.id)).toMatchObject({ active: true, name: 'Camille', version });
    }
    const adminSelf = await patch(admin, tenants.admin.id, {
      version: (await rowOf(tenants.admin.id)).version,
      active: false,
    });
    expect(adminSelf.statusCode).toBe(403);
    expect((await rowOf(tenants.admin.id)).active).toBe(true);
  });

  it('an admin disables an account: its session ends and it cannot sign in until enabled again', async () => {
    const target = await buildUser(context.db, {
      role: 'manager',
      managedDatabaseIds: [tenants.b.database.id],
    });
    const session = await signIn(context.app, target.email, testPassword);
    const disabled = await patch(admin, target.id, { version: 0, active: false });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json().user.active).toBe(false);

    expect((await session.inject({ method: 'GET', url: '/api/me' })).statusCode).toBe(401);
    const login = await context.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: target.email, password: testPassword },
    });
    expect(login.statusCode).toBe(401);
    expect(login.json().error.code).toBe('auth/invalid-credentials');

    expect((await patch(admin, target.id, { version: 1, active: true })).statusCode).toBe(200);
    expect((await signIn(context.app, target.email, testPassword)).cookie).toMatch(
      /^mise_session=/,
    );
  });
});

describe('GET /api/users/:id/stores', () => {
  it('answers the stores an account owns to an admin only', async () => {
    const customer = tenants.a.users.customer;
    expect(
      (await context.app.inject({ method: 'GET', url: `/api/users/${customer.id}/stores` }))
        .statusCode,
    ).toBe(401);

    const response = await admin.inject({ method: 'GET', url: `/api/users/${customer.id}/stores` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      items: [{ id: tenants.a.stores[0]!.id, name: tenants.a.stores[0]!.name, city: 'Paris' }],
    });
    expect(
      (
        await admin.inject({
          method: 'GET',
          url: `/api/users/${tenants.a.users.manager.id}/stores`,
        })
      ).json(),
    ).toEqual({
      items: [],
    });
    expect(
      (await admin.inject({ method: 'GET', url: `/api/users/${randomUUID()}/stores` })).statusCode,
    ).toBe(404);

    for (const agent of [distributorA, managerA, customerA]) {
      const denied = await agent.inject({ method: 'GET', url: `/api/users/${customer.id}/stores` });
      expect(denied.statusCode).toBe(403);
      expect(denied.json().error.code).toBe('permission/denied');
    }
  });
});

// A valid 1×1 PNG.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

function multipart(file: { filename: string; contentType: string; data: Buffer }) {
  const boundary = `----mise-test-${randomBytes(8).toString('hex')}`;
  const head =
    `--${boundary}\r\n` +
    `Content-Disposition: form-data; name="file"; filename="${file.filename}"\r\n` +
    `Content-Type: ${file.contentType}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), file.data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

function upload(
  agent: Agent | null,
  userId: string,
  file: { filename: string; contentType: string; data: Buffer },
) {
  const options = {
    method: 'POST' as const,
    url: `/api/users/${userId}/illustration`,
    ...multipart(file),
  };
  return agent ? agent.inject(options) : context.app.inject(options);
}

const pngFile = { filename: 'me.png', contentType: 'image/png', data: png };

function storedFilesOf(userId: string): string[] {
  const folder = join(context.config.DATA_DIR, 'files', 'accounts', userId);
  return existsSync(folder) ? readdirSync(folder) : [];
}

describe('POST /api/users/:id/illustration and GET /api/files/...', () => {
  it('answers 401 anonymous and stores nothing', async () => {
    const target = tenants.a.users.manager.id;
    expect((await upload(null, target, pngFile)).statusCode).toBe(401);
    expect(storedFilesOf(target)).toEqual([]);
  });

  it('stores a real PNG and serves it back as image/png with nosniff', async () => {
    const target = tenants.a.users.manager;
    const response = await upload(distributorA, target.id, pngFile);
    expect(response.statusCode).toBe(200);
    const url: string = response.json().user.illustration_url;
    expect(url).toMatch(new RegExp(`^/api/files/accounts/${target.id}/[A-Za-z0-9_.-]+\\.png$`));
    expect((await rowOf(target.id)).illustration_url).toBe(url);

    const file = await managerA.inject({ method: 'GET', url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.rawPayload.equals(png)).toBe(true);
    expect((await context.app.inject({ method: 'GET', url })).statusCode).toBe(401);
  });

  it('an account uploads its own illustration; a new one replaces and deletes the old file', async () => {
    const self = tenants.a.users.customer;
    const first = (await upload(customerA, self.id, pngFile)).json().user.illustration_url;
    const second = await upload(customerA, self.id, { ...pngFile, filename: 'again.png' });
    expect(second.statusCode).toBe(200);
    const secondUrl = second.json().user.illustration_url;
    expect(secondUrl).not.toBe(first);
    expect(storedFilesOf(self.id)).toEqual([secondUrl.split('/').pop()]);
    expect((await customerA.inject({ method: 'GET', url: first })).statusCode).toBe(404);
    expect((await customerA.inject({ method: 'GET', url: secondUrl })).statusCode).toBe(200);
  });

  it('refuses a file whose bytes are not the claimed image, and a PDF, with 415', async () => {
    const target = await buildUser(context.db, {
      role: 'customer',
      ownedStoreIds: [tenants.a.stores[1]!.id],
    });
    for (const file of [
      {
        filename: 'fake.png',
        contentType: 'image/png',
        data: Buffer.from('just some text, not an image'),
      },
      {
        filename: 'doc.pdf',
        contentType: 'application/pdf',
        data: Buffer.from('%PDF-1.4\n%âãÏÓ\n'),
      },
      {
        filename: 'page.html',
        contentType: 'text/html',
        data: Buffer.from('<script>alert(1)</script>'),
      },
    ]) {
      const response = await upload(admin, target.id, file);
      expect(response.statusCode, file.contentType).toBe(415);
      expect(response.json().error.code).toBe('file/unsupported-type');
    }
    expect((await rowOf(target.id)).illustration_url).toBeNull();
    expect(storedFilesOf(target.id)).toEqual([]);
  });

  it('refuses an image over 5 MB with 413', async () => {
    const target = await buildUser(context.db, {
      role: 'customer',
      ownedStoreIds: [tenants.a.stores[1]!.id],
    });
    const big = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024)]);
    const response = await upload(admin, target.id, { ...pngFile, data: big });
    expect(response.statusCode).toBe(413);
    expect(response.json().error.code).toBe('file/too-large');
    expect((await rowOf(target.id)).illustration_url).toBeNull();
    expect(storedFilesOf(target.id)).toEqual([]);
  });

  it('refuses a request that is not multipart or has no file with 400', async () => {
    const target = tenants.a.users.manager.id;
    const json = await admin.inject({
      method: 'POST',
      url: `/api/users/${target}/illustration`,
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().error.code).toBe('validation/invalid-input');
  });

  it('answers 404 for an account outside the scope and stores no file', async () => {
    const cases: [Agent, string][] = [
      [distributorA, tenants.b.users.customer.id],
      [managerA, tenants.a.users.customer.id],
      [customerA, tenants.a.users.distributor.id],
    ];
    for (const [agent, target] of cases) {
      const before = { url: (await rowOf(target)).illustration_url, files: storedFilesOf(target) };
      const response = await upload(agent, target, pngFile);
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('not-found');
      expect((await rowOf(target)).illustration_url).toBe(before.url);
      expect(storedFilesOf(target)).toEqual(before.files);
    }
    expect(storedFilesOf(tenants.b.users.customer.id)).toEqual([]);
  });

  it("serves another tenant's file as 404 to tenant A's distributor", async () => {
    const target = tenants.b.users.customer;
    const url = (await upload(admin, target.id, pngFile)).json().user.illustration_url;
    expect((await distributorB.inject({ method: 'GET', url })).statusCode).toBe(200);
    const foreign = await distributorA.inject({ method: 'GET', url });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe('not-found');
    expect(foreign.rawPayload.includes(png)).toBe(false);
  });

  it('answers 404 for a key outside accounts, a traversal or a missing file', async () => {
    const own = tenants.a.users.customer.id;
    for (const url of [
      `/api/files/accounts/${own}/missing.png`,
      `/api/files/accounts/${own}/..%2F..%2Fpglite`,
      `/api/files/stores/${own}/x.png`,
      '/api/files/accounts/not-a-uuid/x.png',
    ]) {
      expect((await customerA.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
  });
});
