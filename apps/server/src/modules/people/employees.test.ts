import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  devices,
  employeeAuthFailures,
  employeeRoles,
  employeeSessions,
  employeeStores,
  employees,
  storeOwners,
  stores,
} from '../../db/schema';
import { hashToken, newToken } from '../../platform/auth/tokens';
import { buildEmployee, buildTwoTenants, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { countQueries } from '../../test/query-counter';

const context = useTestApp();

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let admin: Agent;
let distributorA: Agent;
let managerA: Agent;
let customerA: Agent;
let distributorB: Agent;
/** Roles of database A: one active, one inactive. Role of database B. */
let cook: typeof employeeRoles.$inferSelect;
let retired: typeof employeeRoles.$inferSelect;
let roleB: typeof employeeRoles.$inferSelect;

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  admin = await signIn(context.app, tenants.admin.email, testPassword);
  distributorA = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
  managerA = await signIn(context.app, tenants.a.users.manager.email, testPassword);
  customerA = await signIn(context.app, tenants.a.users.customer.email, testPassword);
  distributorB = await signIn(context.app, tenants.b.users.distributor.email, testPassword);
  const rolesA = await context.db
    .insert(employeeRoles)
    .values([
      { database_id: tenants.a.database.id, name: 'Cuisinier', features_permissions: {} },
      { database_id: tenants.a.database.id, name: 'Ancien', active: false },
    ])
    .returning();
  cook = rolesA[0]!;
  retired = rolesA[1]!;
  const rolesB = await context.db
    .insert(employeeRoles)
    .values({ database_id: tenants.b.database.id, name: 'Rôle B' })
    .returning();
  roleB = rolesB[0]!;
});

const storeA1 = () => tenants.a.stores[0]!;
const employeesUrl = (storeId: string) => `/api/stores/${storeId}/employees`;

async function employeeRow(id: string) {
  const [row] = await context.db.select().from(employees).where(eq(employees.id, id));
  return row!;
}

async function storeEmployeeIds(storeId: string) {
  const rows = await context.db
    .select({ id: employeeStores.employee_id })
    .from(employeeStores)
    .where(eq(employeeStores.store_id, storeId));
  return rows.map((row) => row.id).sort();
}

const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
function upload(data: Buffer, contentType: string) {
  const boundary = `----people-${randomBytes(6).toString('hex')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.png"\r\nContent-Type: ${contentType}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe('store employees: access', () => {
  it('answers 401 to an anonymous caller', async () => {
    const employee = await buildEmployee(context.db, { storeIds: [storeA1().id] });
    for (const request of [
      { method: 'GET' as const, url: employeesUrl(storeA1().id) },
      { method: 'PUT' as const, url: employeesUrl(storeA1().id), payload: { employees: [] } },
      {
        method: 'PUT' as const,
        url: `${employeesUrl(storeA1().id)}/${employee.id}/secret`,
        payload: { pin: '4321' },
      },
    ]) {
      const response = await context.app.inject(request);
      expect(response.statusCode).toBe(401);
    }
  });

  it("answers 404 for another tenant's store or employee and writes nothing", async () => {
    const employeeB = await buildEmployee(context.db, {
      storeIds: [tenants.b.stores[0]!.id],
      database_id: tenants.b.database.id,
    });
    const storeB = tenants.b.stores[0]!.id;
    for (const agent of [distributorA, managerA, customerA]) {
      const read = await agent.inject({ method: 'GET', url: employeesUrl(storeB) });
      expect(read.statusCode).toBe(404);
      const write = await agent.inject({
        method: 'PUT',
        url: employeesUrl(storeB),
        payload: {
          employees: [
            {
              id: employeeB.id,
              version: 0,
              name: 'Volé',
              surname: 'X',
              role_id: null,
              active: true,
            },
          ],
        },
      });
      expect(write.statusCode).toBe(404);
      const secret = await agent.inject({
        method: 'PUT',
        url: `${employeesUrl(storeB)}/${employeeB.id}/secret`,
        payload: { pin: '0000' },
      });
      expect(secret.statusCode).toBe(404);
      // Tenant B's employee through tenant A's store: not an employee of that store.
      const through = await agent.inject({
        method: 'PUT',
        url: `${employeesUrl(storeA1().id)}/${employeeB.id}/secret`,
        payload: { pin: '0000' },
      });
      expect(through.statusCode).toBe(agent === managerA ? 403 : 404);
    }
    const after = await employeeRow(employeeB.id);
    expect(after.name).toBe(employeeB.name);
    expect(after.pin_hash).toBe(employeeB.pin_hash);
    expect(after.version).toBe(0);
  });

  it('lets a manager read but not change a store that is not manager-owned', async () => {
    const employee = await buildEmployee(context.db, {
      storeIds: [storeA1().id],
      database_id: tenants.a.database.id,
      role_id: cook.id,
    });
    const read = await managerA.inject({ method: 'GET', url: employeesUrl(storeA1().id) });
    expect(read.statusCode).toBe(200);
    expect(read.json().editable).toBe(false);
    const attempts = [
      managerA.inject({
        method: 'PUT',
        url: employeesUrl(storeA1().id),
        payload: {
          employees: [
            {
              id: employee.id,
              version: 0,
              name: 'Géré',
              surname: 'X',
              role_id: cook.id,
              active: true,
            },
          ],
        },
      }),
      managerA.inject({
        method: 'PUT',
        url: `${employeesUrl(storeA1().id)}/${employee.id}/secret`,
        payload: { pin: '9999' },
      }),
      managerA.inject({
        method: 'POST',
        url: `${employeesUrl(storeA1().id)}/${employee.id}/illustration`,
        ...upload(png, 'image/png'),
      }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('permission/denied');
    }
    const unchanged = await employeeRow(employee.id);
    expect(unchanged.version).toBe(0);
    expect(unchanged.illustration_url).toBeNull();

    // A manager-owned store is the manager's to edit.
    const owned = tenants.a.stores[1]!;
    await context.db.update(stores).set({ manager_owned: true }).where(eq(stores.id, owned.id));
    const saved = await managerA.inject({
      method: 'PUT',
      url: employeesUrl(owned.id),
      payload: {
        employees: [{ name: 'Nouvel ', surname: 'employé', role_id: cook.id, active: true }],
      },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().editable).toBe(true);
    await context.db.update(stores).set({ manager_owned: false }).where(eq(stores.id, owned.id));
  });
});

describe('store employees: list and save', () => {
  it('lists the employees of the store with their role name and never a secret', async () => {
    const store = await context.db
      .insert(stores)
      .values({
        name: `Liste ${randomBytes(3).toString('hex')}`,
        address: '1 rue de la Liste',
        postal_code: '75001',
        city: 'Paris',
        distributor_id: tenants.a.distributor.id,
        database_id: tenants.a.database.id,
      })
      .returning()
      .then((rows) => rows[0]!);
    await context.db
      .insert(storeOwners)
      .values({ store_id: store.id, user_id: tenants.a.users.customer.id });
    const withPin = await buildEmployee(context.db, {
      storeIds: [store.id],
      name: 'Alice',
      role_id: cook.id,
    });
    const withPattern = await buildEmployee(context.db, {
      storeIds: [store.id],
      name: 'Bruno',
      pattern: [0, 4, 8],
      role_id: retired.id,
    });
    const without = await buildEmployee(context.db, {
      storeIds: [store.id],
      name: 'Chloé',
      pin: null,
    });
    const inactive = await buildEmployee(context.db, {
      storeIds: [store.id],
      name: 'Denis',
      active: false,
    });
    // Another store's employee is not listed.
    await buildEmployee(context.db, { storeIds: [storeA1().id], name: 'Ailleurs' });

    const customer = await signIn(context.app, tenants.a.users.customer.email, testPassword);
    const response = await customer.inject({ method: 'GET', url: employeesUrl(store.id) });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain('$argon2');
    expect(response.body).not.toContain('pin_hash');
    const body = response.json();
    expect(body.editable).toBe(true);
    expect(body.roles.map((role: { name: string }) => role.name)).toEqual(['Cuisinier']);
    expect(body.items).toEqual([
      expect.objectContaining({
        id: withPin.id,
        role_name: 'Cuisinier',
        has_secret: true,
        using_password: true,
      }),
      expect.objectContaining({
        id: withPattern.id,
        role_name: 'Ancien',
        has_secret: true,
        using_password: false,
      }),
      expect.objectContaining({ id: without.id, role_name: null, has_secret: false }),
    ]);
    const all = await customer.inject({
      method: 'GET',
      url: `${employeesUrl(store.id)}?includeInactive=true`,
    });
    expect(all.json().items.map((item: { id: string }) => item.id)).toContain(inactive.id);
    expect(all.body).not.toContain('$argon2');

    // The list costs the same number of queries for 4 or 24 employees.
    const list = () =>
      admin.inject({ method: 'GET', url: `${employeesUrl(store.id)}?includeInactive=true` });
    const few = await countQueries(context.database, list);
    for (let index = 0; index < 20; index++) {
      await buildEmployee(context.db, { storeIds: [store.id], pin: null, role_id: cook.id });
    }
    expect(await countQueries(context.database, list)).toBe(few);
  });

  it('creates new employees in the store and its database, and updates existing ones', async () => {
    const existing = await buildEmployee(context.db, {
      storeIds: [storeA1().id],
      database_id: tenants.a.database.id,
      role_id: cook.id,
      name: 'Ancien',
    });
    const response = await distributorA.inject({
      method: 'PUT',
      url: employeesUrl(storeA1().id),
      payload: {
        employees: [
          {
            id: existing.id,
            version: existing.version,
            name: ' Émile ',
            surname: 'Zola',
            role_id: retired.id,
            active: true,
          },
          { name: 'Nouvel ', surname: 'employé', role_id: cook.id, active: true },
          { name: 'Parti', surname: 'Sans rôle', role_id: null, active: false },
        ],
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const updated = await employeeRow(existing.id);
    expect(updated).toMatchObject({
      name: 'Émile',
      surname: 'Zola',
      role_id: retired.id,
      version: 1,
    });
    const items = response.json().items as { id: string; name: string; version: number }[];
    const created = items.find((item) => item.name === 'Nouvel');
    expect(created).toBeTruthy();
    const createdRow = await employeeRow(created!.id);
    expect(createdRow.database_id).toBe(tenants.a.database.id);
    expect(createdRow.role_id).toBe(cook.id);
    expect(await storeEmployeeIds(storeA1().id)).toContain(created!.id);
    // The inactive one is saved but listed only with includeInactive.
    expect(items.some((item) => item.name === 'Parti')).toBe(false);

    // Unchanged rows keep their version.
    const again = await distributorA.inject({
      method: 'PUT',
      url: employeesUrl(storeA1().id),
      payload: {
        employees: [
          {
            id: existing.id,
            version: 1,
            name: 'Émile',
            surname: 'Zola',
            role_id: retired.id,
            active: true,
          },
        ],
      },
    });
    expect(again.statusCode).toBe(200);
    expect((await employeeRow(existing.id)).version).toBe(1);
  });

  it('refuses every invalid save and writes nothing', async () => {
    const employee = await buildEmployee(context.db, {
      storeIds: [storeA1().id],
      database_id: tenants.a.database.id,
      role_id: cook.id,
      name: 'Intact',
    });
    const elsewhere = await buildEmployee(context.db, { storeIds: [tenants.a.stores[1]!.id] });
    const valid = {
      id: employee.id,
      version: 0,
      name: 'Changé',
      surname: 'X',
      role_id: cook.id,
      active: true,
    };
    const fresh = { name: 'Nouvel ', surname: 'employé', role_id: cook.id, active: true };
    const attempts = [
      {
        status: 400,
        code: 'employee/select-role',
        employees: [valid, { ...fresh, role_id: null }],
      },
      { status: 400, code: 'employee/invalid-name', employees: [valid, { ...fresh, name: '  ' }] },
      { status: 400, code: 'employee/invalid-name', employees: [valid, { ...fresh, surname: '' }] },
      {
        status: 400,
        code: 'employee/unknown-role',
        employees: [valid, { ...fresh, role_id: roleB.id }],
      },
      {
        status: 400,
        code: 'employee/unknown-role',
        employees: [valid, { ...fresh, role_id: randomUUID() }],
      },
      { status: 409, code: 'conflict/stale-version', employees: [fresh, { ...valid, version: 5 }] },
      {
        status: 400,
        code: 'validation/invalid-input',
        employees: [fresh, { ...valid, version: undefined }],
      },
      { status: 400, code: 'validation/invalid-input', employees: [valid, valid] },
      {
        status: 404,
        code: 'not-found',
        employees: [fresh, valid, { ...valid, id: elsewhere.id }],
      },
      { status: 404, code: 'not-found', employees: [fresh, { ...valid, id: randomUUID() }] },
    ];
    const before = await storeEmployeeIds(storeA1().id);
    for (const attempt of attempts) {
      const response = await admin.inject({
        method: 'PUT',
        url: employeesUrl(storeA1().id),
        payload: { employees: attempt.employees },
      });
      expect(response.statusCode, attempt.code).toBe(attempt.status);
      expect(response.json().error.code).toBe(attempt.code);
    }
    expect(await storeEmployeeIds(storeA1().id)).toEqual(before);
    expect(await employeeRow(employee.id)).toMatchObject({ name: 'Intact', version: 0 });
    expect((await employeeRow(elsewhere.id)).version).toBe(0);
  });

  it('asks no role when the database has no active role', async () => {
    const storeB = tenants.b.stores[0]!;
    await context.db
      .update(employeeRoles)
      .set({ active: false })
      .where(eq(employeeRoles.id, roleB.id));
    const response = await distributorB.inject({
      method: 'PUT',
      url: employeesUrl(storeB.id),
      payload: { employees: [{ name: 'Sans', surname: 'Rôle', role_id: null, active: true }] },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().items.map((item: { name: string }) => item.name)).toContain('Sans');
    // An inactive role of the database may still be given.
    const withRole = await distributorB.inject({
      method: 'PUT',
      url: employeesUrl(storeB.id),
      payload: { employees: [{ name: 'Avec', surname: 'Rôle', role_id: roleB.id, active: true }] },
    });
    expect(withRole.statusCode).toBe(200);
  });
});

describe('store employees: secrets', () => {
  async function insertDevice(storeId: string) {
    const [row] = await context.db
      .insert(devices)
      .values({
        store_id: storeId,
        device_id: `people-${randomBytes(4).toString('hex')}`,
        token_hash: hashToken(newToken()),
      })
      .returning();
    return row!;
  }

  it('refuses a bad PIN or pattern and keeps the secret', async () => {
    const employee = await buildEmployee(context.db, { storeIds: [storeA1().id], pin: '1111' });
    const url = `${employeesUrl(storeA1().id)}/${employee.id}/secret`;
    const attempts = [
      { payload: { pin: '12a4' }, code: 'employee/invalid-pin' },
      { payload: { pin: '12345' }, code: 'employee/invalid-pin' },
      { payload: { pin: '' }, code: 'employee/invalid-pin' },
      { payload: { pattern: [0, 1] }, code: 'employee/pattern-too-short' },
      { payload: { pattern: [0, 1, 9] }, code: 'validation/invalid-input' },
      { payload: { pattern: [0, 1, 1] }, code: 'validation/invalid-input' },
      { payload: { pin: '1234', pattern: [0, 1, 2] }, code: 'validation/invalid-input' },
    ];
    for (const attempt of attempts) {
      const response = await customerA.inject({ method: 'PUT', url, payload: attempt.payload });
      expect(response.statusCode, JSON.stringify(attempt.payload)).toBe(400);
      expect(response.json().error.code).toBe(attempt.code);
    }
    const after = await employeeRow(employee.id);
    expect(after.pin_hash).toBe(employee.pin_hash);
    expect(after.version).toBe(0);
  });

  it('sets a PIN or a pattern, clears the other, the lockouts and the sessions, and never answers a hash', async () => {
    const employee = await buildEmployee(context.db, {
      storeIds: [storeA1().id],
      pattern: [2, 4, 6],
    });
    const device = await insertDevice(storeA1().id);
    await context.db.insert(employeeAuthFailures).values({
      employee_id: employee.id,
      device_id: device.id,
      failures: 5,
      locked_until: new Date(Date.now() + 600_000),
    });
    await context.db.insert(employeeSessions).values({
      token_hash: hashToken(newToken()),
      employee_id: employee.id,
      device_id: device.id,
      store_id: storeA1().id,
      expires_at: new Date(Date.now() + 3600_000),
    });
    const url = `${employeesUrl(storeA1().id)}/${employee.id}/secret`;
    const response = await customerA.inject({ method: 'PUT', url, payload: { pin: '0427' } });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain('$argon2');
    expect(response.body).not.toContain('0427');
    expect(response.json().employee).toMatchObject({
      id: employee.id,
      using_password: true,
      has_secret: true,
      version: 1,
    });
    const withPin = await employeeRow(employee.id);
    expect(withPin.pin_hash).toMatch(/^\$argon2/);
    expect(withPin.pattern_hash).toBeNull();
    const failures = await context.db
      .select()
      .from(employeeAuthFailures)
      .where(eq(employeeAuthFailures.employee_id, employee.id));
    expect(failures).toEqual([]);
    const sessions = await context.db
      .select()
      .from(employeeSessions)
      .where(eq(employeeSessions.employee_id, employee.id));
    expect(sessions).toEqual([]);

    const pattern = await admin.inject({ method: 'PUT', url, payload: { pattern: [0, 4, 8, 5] } });
    expect(pattern.statusCode).toBe(200);
    expect(pattern.body).not.toContain('$argon2');
    expect(pattern.json().employee).toMatchObject({
      using_password: false,
      has_secret: true,
      version: 2,
    });
    const withPattern = await employeeRow(employee.id);
    expect(withPattern.pin_hash).toBeNull();
    expect(withPattern.pattern_hash).toMatch(/^\$argon2/);
  });
});

describe('store employees: pictures', () => {
  it('stores a picture under employees/<id>/ and serves it to whoever sees one of its stores', async () => {
    const employee = await buildEmployee(context.db, { storeIds: [storeA1().id] });
    const url = `${employeesUrl(storeA1().id)}/${employee.id}/illustration`;
    const refused = await admin.inject({
      method: 'POST',
      url,
      ...upload(Buffer.from('GIF89a not an image we take'), 'image/gif'),
    });
    expect(refused.statusCode).toBe(415);
    const forged = await admin.inject({
      method: 'POST',
      url,
      ...upload(Buffer.from('nope'), 'image/png'),
    });
    expect(forged.statusCode).toBe(415);
    expect((await employeeRow(employee.id)).illustration_url).toBeNull();

    const response = await customerA.inject({ method: 'POST', url, ...upload(png, 'image/png') });
    expect(response.statusCode).toBe(200);
    const pictureUrl = response.json().employee.illustration_url as string;
    expect(pictureUrl).toMatch(
      new RegExp(`^/api/files/employees/${employee.id}/profile_picture-[0-9a-f]{16}\\.png$`),
    );
    expect(response.json().employee.version).toBe(1);

    const served = await managerA.inject({ method: 'GET', url: pictureUrl });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(png)).toBe(true);
    const hidden = await distributorB.inject({ method: 'GET', url: pictureUrl });
    expect(hidden.statusCode).toBe(404);
    const anonymous = await context.app.inject({ method: 'GET', url: pictureUrl });
    expect(anonymous.statusCode).toBe(401);

    // A second picture replaces the first, which is deleted.
    const second = await customerA.inject({ method: 'POST', url, ...upload(png, 'image/png') });
    expect(second.statusCode).toBe(200);
    const gone = await admin.inject({ method: 'GET', url: pictureUrl });
    expect(gone.statusCode).toBe(404);
  });
});
