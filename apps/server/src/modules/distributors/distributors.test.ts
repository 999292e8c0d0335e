import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { distributors, sensorCredentials } from '../../db/schema';
import {
  buildDatabase,
  buildDistributor,
  buildStore,
  buildTwoTenants,
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

type Summary = {
  id: string;
  name: string;
  city: string;
  active: boolean;
  store_count: number;
  licensed_store_count: number;
};
const idsOf = (body: { items: { id: string }[] }) => body.items.map((item) => item.id);

async function rowOf(id: string) {
  const [row] = await context.db.select().from(distributors).where(eq(distributors.id, id));
  return row!;
}
async function distributorCount() {
  return (await context.db.select({ id: distributors.id }).from(distributors)).length;
}

const newDistributor = {
  name: 'Frigo Distribution',
  address: '3 rue du Froid',
  postal_code: '69001',
  city: 'Lyon',
  country: 'FR',
};

describe('GET /api/distributors', () => {
  it('answers 401 to an anonymous caller', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/api/distributors' });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('auth/unauthenticated');
  });

  it("lists every distributor to an admin and only the caller's own to the other roles", async () => {
    const forAdmin = (await admin.inject({ method: 'GET', url: '/api/distributors' })).json();
    expect(idsOf(forAdmin)).toEqual(
      expect.arrayContaining([tenants.a.distributor.id, tenants.b.distributor.id]),
    );
    for (const agent of [distributorA, managerA, customerA]) {
      const body = (await agent.inject({ method: 'GET', url: '/api/distributors' })).json();
      expect(idsOf(body)).toEqual([tenants.a.distributor.id]);
    }
  });

  it('counts stores and licensed stores, and hides inactive distributors unless asked', async () => {
    const counted = await buildDistributor(context.db, { name: 'Counted Co', city: 'Nantes' });
    await buildStore(context.db, { distributor_id: counted.id, mise_licence: true });
    await buildStore(context.db, { distributor_id: counted.id, mise_licence: true });
    await buildStore(context.db, { distributor_id: counted.id });
    const sleeping = await buildDistributor(context.db, {
      name: 'Counted Sleeping',
      city: 'Nantes',
      active: false,
    });
    const list = async (query: string) =>
      (await admin.inject({ method: 'GET', url: `/api/distributors?${query}` })).json();

    const shown = await list('search=counted');
    expect(
      shown.items.map((item: Summary) => [item.id, item.store_count, item.licensed_store_count]),
    ).toEqual([[counted.id, 3, 2]]);
    const all = await list('search=counted&includeInactive=true');
    expect(idsOf(all)).toEqual([counted.id, sleeping.id]);
    expect(all.items[1].active).toBe(false);
    expect(all.items[1].store_count).toBe(0);
  });

  it('searches on name and city, case-insensitively, sorted by name', async () => {
    const zeta = await buildDistributor(context.db, { name: 'Zeta Froid', city: 'Quimperlé' });
    const alpha = await buildDistributor(context.db, { name: 'Alpha Quimper', city: 'Brest' });
    const search = async (term: string) =>
      idsOf(
        (
          await admin.inject({
            method: 'GET',
            url: `/api/distributors?search=${encodeURIComponent(term)}`,
          })
        ).json(),
      );
    expect(await search('QUIMPER')).toEqual([alpha.id, zeta.id]);
    expect(await search('zeta')).toEqual([zeta.id]);
    expect(await search('%')).toEqual([]);
  });

  it('refuses an invalid query with 400', async () => {
    for (const query of ['includeInactive=yes', 'unknown=1', `search=${'x'.repeat(101)}`]) {
      const response = await admin.inject({ method: 'GET', url: `/api/distributors?${query}` });
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error.code).toBe('validation/invalid-input');
    }
  });
});

describe('POST /api/distributors', () => {
  it('answers 401 anonymous and 403 to every role but admin, writing nothing', async () => {
    const before = await distributorCount();
    const anonymous = await context.app.inject({
      method: 'POST',
      url: '/api/distributors',
      payload: newDistributor,
    });
    expect(anonymous.statusCode).toBe(401);
    for (const agent of [distributorA, managerA, customerA]) {
      const response = await agent.inject({
        method: 'POST',
        url: '/api/distributors',
        payload: newDistributor,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('permission/denied');
    }
    expect(await distributorCount()).toBe(before);
  });

  it('refuses missing fields, a non-European country, oversize text and unknown fields with 400', async () => {
    const before = await distributorCount();
    const invalid = [
      { ...newDistributor, name: '   ' },
      { ...newDistributor, city: undefined },
      { ...newDistributor, country: 'US' },
      { ...newDistributor, name: 'x'.repeat(121) },
      { ...newDistributor, postal_code: 75001 },
      { ...newDistributor, licence_price: 10 },
    ];
    for (const payload of invalid) {
      const response = await admin.inject({ method: 'POST', url: '/api/distributors', payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code).toBe('validation/invalid-input');
    }
    expect(await distributorCount()).toBe(before);
  });

  it('creates a distributor with its country in countries and the default cycle and price', async () => {
    const response = await admin.inject({
      method: 'POST',
      url: '/api/distributors',
      payload: newDistributor,
    });
    expect(response.statusCode).toBe(200);
    const created = response.json().distributor;
    expect(created).toMatchObject({
      name: 'Frigo Distribution',
      city: 'Lyon',
      countries: ['FR'],
      active: true,
      billing_cycle: 1,
      licence_price: 19,
      store_count: 0,
      databases: [],
      sensor_connected: false,
      version: 0,
    });
    const row = await rowOf(created.id);
    expect(row.address).toBe('3 rue du Froid');
    expect(row.countries).toEqual(['FR']);
  });
});

describe('GET /api/distributors/:id', () => {
  it('answers 401 anonymous, 404 outside the scope and 400 for a malformed id', async () => {
    const url = `/api/distributors/${tenants.b.distributor.id}`;
    expect((await context.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    for (const agent of [distributorA, managerA, customerA]) {
      const response = await agent.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('not-found');
    }
    expect((await admin.inject({ method: 'GET', url: '/api/distributors/nope' })).statusCode).toBe(
      400,
    );
  });

  it('sends the licence price to admins only, the databases and the sensor connection', async () => {
    const url = `/api/distributors/${tenants.a.distributor.id}`;
    const forAdmin = (await admin.inject({ method: 'GET', url })).json().distributor;
    expect(forAdmin.licence_price).toBe(19);
    expect(forAdmin.databases).toEqual([tenants.a.database.id]);
    expect(forAdmin.store_count).toBe(2);
    expect(forAdmin.sensor_connected).toBe(false);
    for (const agent of [distributorA, managerA, customerA]) {
      const body = (await agent.inject({ method: 'GET', url })).json().distributor;
      expect(body.id).toBe(tenants.a.distributor.id);
      expect(body.licence_price).toBeNull();
    }

    await context.db.insert(sensorCredentials).values({
      distributor_id: tenants.a.distributor.id,
      account: 'koovea@a.test',
      password_hash: 'f'.repeat(64),
    });
    const connected = await distributorA.inject({ method: 'GET', url });
    expect(connected.json().distributor.sensor_connected).toBe(true);
    expect(connected.body).not.toContain('f'.repeat(64));
    expect(connected.body).not.toContain('koovea@a.test');
  });
});

describe('PATCH /api/distributors/:id', () => {
  const patch = (agent: Agent | null, id: string, payload: object) => {
    const options = { method: 'PATCH' as const, url: `/api/distributors/${id}`, payload };
    return agent ? agent.inject(options) : context.app.inject(options);
  };

  it('answers 401 anonymous, 403 to the non-admin roles on their own, 404 outside the scope', async () => {
    const own = await rowOf(tenants.a.distributor.id);
    expect((await patch(null, own.id, { version: own.version, name: 'X' })).statusCode).toBe(401);
    for (const agent of [distributorA, managerA, customerA]) {
      const response = await patch(agent, own.id, { version: own.version, city: 'Hacked' });
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('permission/denied');
    }
    const other = await rowOf(tenants.b.distributor.id);
    const response = await patch(distributorA, other.id, { version: other.version, city: 'X' });
    expect(response.statusCode).toBe(404);
    expect(await rowOf(own.id)).toEqual(own);
    expect(await rowOf(other.id)).toEqual(other);
  });

  it('refuses invalid values with 400 and writes nothing', async () => {
    const target = await buildDistributor(context.db);
    const invalid = [
      { name: 'X' },
      { version: target.version, billing_cycle: 12 },
      { version: target.version, licence_price: -1 },
      { version: target.version, licence_price: 100_001 },
      { version: target.version, licence_price: 1.005 },
      { version: target.version, licence_price: '19' },
      { version: target.version, name: '' },
      { version: target.version, email: 'not-an-email' },
      { version: target.version, countries: ['XX'] },
      { version: target.version, contacts: [{ name: 'A', secret: 1 }] },
      { version: target.version, logo: '/api/files/x' },
      { version: target.version, city: 'y'.repeat(101) },
    ];
    for (const payload of invalid) {
      const response = await patch(admin, target.id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code).toBe('validation/invalid-input');
    }
    expect(await rowOf(target.id)).toEqual(target);
  });

  it('updates the fields, the 5-year cycle, the price and contacts, and bumps the version', async () => {
    const target = await buildDistributor(context.db);
    const response = await patch(admin, target.id, {
      version: target.version,
      name: 'Renamed',
      phone: '0102030405',
      email: ' Contact@Example.TEST ',
      countries: ['FR', 'BE'],
      billing_cycle: 60,
      licence_price: 24.5,
      active: false,
      contacts: [{ name: 'Alice', role: 'Sales' }],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().distributor).toMatchObject({
      name: 'Renamed',
      email: 'contact@example.test',
      countries: ['FR', 'BE'],
      billing_cycle: 60,
      licence_price: 24.5,
      active: false,
      contacts: [{ name: 'Alice', role: 'Sales', email: '', phone: '' }],
      version: target.version + 1,
    });
    const row = await rowOf(target.id);
    expect(row.billing_cycle).toBe(60);
    expect(Number(row.licence_price)).toBe(24.5);
  });

  it('answers 409 to a stale version and overwrites nothing', async () => {
    const target = await buildDistributor(context.db, { name: 'Original' });
    expect((await patch(admin, target.id, { version: 0, city: 'Lille' })).statusCode).toBe(200);
    const stale = await patch(admin, target.id, { version: 0, name: 'Overwrite' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('conflict/stale-version');
    const row = await rowOf(target.id);
    expect(row.name).toBe('Original');
    expect(row.city).toBe('Lille');
    expect(row.version).toBe(1);
  });
});

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

describe('POST /api/distributors/:id/logo', () => {
  const upload = (agent: Agent | null, id: string, data = png, contentType = 'image/png') => {
    const options = {
      method: 'POST' as const,
      url: `/api/distributors/${id}/logo`,
      ...multipart({ filename: 'logo.png', contentType, data }),
    };
    return agent ? agent.inject(options) : context.app.inject(options);
  };
  const storedFilesOf = (id: string) => {
    const folder = join(context.config.DATA_DIR, 'files', 'distributors', id);
    return existsSync(folder) ? readdirSync(folder) : [];
  };

  it('answers 401, 403 to non-admins, 404 outside the scope, storing nothing', async () => {
    const own = tenants.a.distributor.id;
    expect((await upload(null, own)).statusCode).toBe(401);
    for (const agent of [distributorA, managerA, customerA]) {
      expect((await upload(agent, own)).statusCode).toBe(403);
    }
    expect((await upload(distributorA, tenants.b.distributor.id)).statusCode).toBe(404);
    expect(storedFilesOf(own)).toEqual([]);
    expect(storedFilesOf(tenants.b.distributor.id)).toEqual([]);
    expect((await rowOf(own)).logo).toBeNull();
  });

  it('refuses a file that is not an image with 415', async () => {
    const target = await buildDistributor(context.db);
    const response = await upload(admin, target.id, Buffer.from('%PDF-1.4'), 'application/pdf');
    expect(response.statusCode).toBe(415);
    expect(storedFilesOf(target.id)).toEqual([]);
  });

  it('stores the logo under the distributor and deletes the previous one', async () => {
    const target = await buildDistributor(context.db);
    const first = await upload(admin, target.id);
    expect(first.statusCode).toBe(200);
    const firstUrl: string = first.json().distributor.logo;
    expect(firstUrl).toMatch(
      new RegExp(`^/api/files/distributors/${target.id}/logo-[0-9a-f]+\\.png$`),
    );
    const second = (await upload(admin, target.id)).json().distributor.logo as string;
    expect(second).not.toBe(firstUrl);
    expect(storedFilesOf(target.id)).toEqual([second.split('/').pop()]);
    expect((await rowOf(target.id)).logo).toBe(second);
  });
});

describe('store counts follow the database scope', () => {
  it("a manager's counts only include the stores of its databases", async () => {
    const extraDatabase = await buildDatabase(context.db, {
      distributor_id: tenants.a.distributor.id,
    });
    await buildStore(context.db, {
      distributor_id: tenants.a.distributor.id,
      database_id: extraDatabase.id,
      mise_licence: true,
    });
    const forDistributor = (
      await distributorA.inject({ method: 'GET', url: '/api/distributors' })
    ).json().items[0];
    const forManager = (await managerA.inject({ method: 'GET', url: '/api/distributors' })).json()
      .items[0];
    expect(forDistributor.store_count).toBe(forManager.store_count + 1);
    expect(forDistributor.licensed_store_count).toBe(forManager.licensed_store_count + 1);
  });
});
