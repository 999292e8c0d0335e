import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { authTokens, databaseManagers, storeOwners, users } from '../../db/schema';
import { buildTwoTenants, buildUser, testPassword } from '../../test/factories';
import {
  type Agent,
  agentFromCookie,
  sessionCookieOf,
  signIn,
  useTestApp,
} from '../../test/harness';

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

const newPassword = 'Fresh-bread-2026';
let sequence = 0;

/** A complete, valid form for the role; each call uses a new e-mail address. */
function accountForm(
  role: 'manager' | 'customer' | 'distributor',
  extra: Record<string, unknown> = {},
) {
  sequence += 1;
  return {
    name: 'Nora',
    surname: `Nouvelle${sequence}`,
    email: `new-${role}-${sequence}@example.test`,
    password: newPassword,
    phone: '+33 6 12 34 56 78',
    distributorId: null,
    databaseId: null,
    storeId: null,
    role,
    ...extra,
  };
}

function register(agent: Agent, payload: object) {
  return agent.inject({ method: 'POST', url: '/api/auth/registerAccount', payload });
}

async function userByEmail(email: string) {
  const [row] = await context.db.select().from(users).where(eq(users.email, email));
  return row;
}

async function userCount(): Promise<number> {
  return (await context.db.select({ id: users.id }).from(users)).length;
}

describe('POST /api/auth/registerAccount', () => {
  it('answers 401 to an anonymous caller and writes nothing', async () => {
    const form = accountForm('customer', { storeId: tenants.a.stores[0]!.id });
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/auth/registerAccount',
      payload: form,
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('auth/unauthenticated');
    expect(await userByEmail(form.email)).toBeUndefined();
  });

  it('answers 403 to a manager and a customer and writes nothing', async () => {
    for (const agent of [managerA, customerA]) {
      const form = accountForm('customer', { storeId: tenants.a.stores[0]!.id });
      const response = await register(agent, form);
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toEqual({
        code: 'permission/denied',
        message: 'You do not have permission to execute this action.',
      });
      expect(await userByEmail(form.email)).toBeUndefined();
    }
  });

  it("checks the dialog's rules in the spec's order, before the password and the e-mail, and writes nothing", async () => {
    await buildUser(context.db, { role: 'customer', email: 'already@example.test' });
    const before = await userCount();
    const clashes = { password: 'azerty123', email: 'already@example.test' };
    const cases: [object, string][] = [
      [accountForm('distributor', clashes), 'account/select-distributor'],
      [
        accountForm('customer', { ...clashes, databaseId: tenants.a.database.id }),
        'account/select-store',
      ],
      [
        accountForm('manager', { ...clashes, storeId: tenants.a.stores[0]!.id }),
        'account/select-database',
      ],
    ];
    for (const [payload, code] of cases) {
      const response = await register(admin, payload);
      expect(response.statusCode, code).toBe(400);
      expect(response.json().error.code).toBe(code);
    }
    const messages = await Promise.all(
      cases.map(async ([payload]) => (await register(admin, payload)).json().error.message),
    );
    expect(messages).toEqual(['Select a distributor.', 'Select a store.', 'Select a database.']);
    expect(await userCount()).toBe(before);
  });

  it('refuses malformed bodies with validation/invalid-input', async () => {
    const before = await userCount();
    const storeId = tenants.a.stores[0]!.id;
    const payloads = [
      { ...accountForm('customer', { storeId }), role: undefined },
      { ...accountForm('customer', { storeId }), role: 'admin' },
      accountForm('customer', { storeId, email: 'not-an-address' }),
      accountForm('customer', { storeId, name: '   ' }),
      accountForm('customer', { storeId, surname: 'x'.repeat(101) }),
      accountForm('customer', { storeId: 'not-a-uuid' }),
      accountForm('customer', { storeId, isAdmin: true }),
    ];
    for (const payload of payloads) {
      const response = await register(admin, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code).toBe('validation/invalid-input');
    }
    expect(await userCount()).toBe(before);
  });

  it('refuses a weak password with auth/weak-password', async () => {
    const form = accountForm('customer', {
      storeId: tenants.a.stores[0]!.id,
      password: 'password123',
    });
    const response = await register(admin, form);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('auth/weak-password');
    expect(await userByEmail(form.email)).toBeUndefined();
  });

  it('refuses an e-mail already in use, in any case, with 409', async () => {
    await buildUser(context.db, { role: 'manager', email: 'taken-account@example.test' });
    const before = await userCount();
    for (const email of ['taken-account@example.test', 'Taken-Account@EXAMPLE.test']) {
      const response = await register(
        distributorA,
        accountForm('customer', { storeId: tenants.a.stores[1]!.id, email }),
      );
      expect(response.statusCode).toBe(409);
      expect(response.json().error.code).toBe('auth/email-already-in-use');
    }
    expect(await userCount()).toBe(before);
    const owners = await context.db
      .select()
      .from(storeOwners)
      .where(eq(storeOwners.store_id, tenants.a.stores[1]!.id));
    expect(owners).toHaveLength(0);
  });

  it("answers 404 for another tenant's store or database, or an unknown one, and writes nothing", async () => {
    const before = await userCount();
    const cases: [Agent, object][] = [
      [distributorA, accountForm('customer', { storeId: tenants.b.stores[0]!.id })],
      [distributorA, accountForm('manager', { databaseId: tenants.b.database.id })],
      [admin, accountForm('customer', { storeId: randomUUID() })],
      [admin, accountForm('manager', { databaseId: randomUUID() })],
      [admin, accountForm('distributor', { distributorId: randomUUID() })],
    ];
    for (const [agent, payload] of cases) {
      const response = await register(agent, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(404);
      expect(response.json().error.code).toBe('not-found');
    }
    expect(await userCount()).toBe(before);
    const ownersOfB = await context.db
      .select()
      .from(storeOwners)
      .where(eq(storeOwners.store_id, tenants.b.stores[0]!.id));
    expect(ownersOfB.map((row) => row.user_id)).toEqual([tenants.b.users.customer.id]);
    const managersOfB = await context.db
      .select()
      .from(databaseManagers)
      .where(eq(databaseManagers.database_id, tenants.b.database.id));
    expect(managersOfB.map((row) => row.user_id)).toEqual([tenants.b.users.manager.id]);
  });

  it('a distributor creating a distributor account gives it its own distributor; naming another is 404', async () => {
    const withoutId = await register(distributorA, accountForm('distributor'));
    expect(withoutId.statusCode).toBe(200);
    expect(withoutId.json().user).toMatchObject({
      role: 'distributor',
      distributor: tenants.a.distributor.id,
    });

    const withOwnId = await register(
      distributorA,
      accountForm('distributor', { distributorId: tenants.a.distributor.id }),
    );
    expect(withOwnId.statusCode).toBe(200);
    expect(withOwnId.json().user.distributor).toBe(tenants.a.distributor.id);

    const other = accountForm('distributor', { distributorId: tenants.b.distributor.id });
    const withOtherId = await register(distributorA, other);
    expect(withOtherId.statusCode).toBe(404);
    expect(await userByEmail(other.email)).toBeUndefined();
  });

  it('an admin creates a distributor account for any distributor', async () => {
    const form = accountForm('distributor', { distributorId: tenants.b.distributor.id });
    const response = await register(admin, form);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'ok',
      user: { role: 'distributor', distributor: tenants.b.distributor.id },
    });
    expect((await userByEmail(form.email))!.distributor_id).toBe(tenants.b.distributor.id);
    const distributorB = await signIn(context.app, tenants.b.users.distributor.email, testPassword);
    const seen = await distributorB.inject({
      method: 'GET',
      url: `/api/users/${response.json().user.id}`,
    });
    expect(seen.statusCode).toBe(200);
  });

  it('creates a customer owning the store, lowercases the e-mail, and the account can sign in', async () => {
    const store = tenants.a.stores[1]!;
    const form = accountForm('customer', { storeId: store.id, email: '  New.Owner@Example.TEST ' });
    const response = await register(distributorA, form);
    expect(response.statusCode).toBe(200);
    const created = response.json().user;
    expect(created).toMatchObject({
      email: 'new.owner@example.test',
      role: 'customer',
      name: 'Nora',
      phone_number: '+33 6 12 34 56 78',
      stores: [store.id],
      store_databases: [tenants.a.database.id],
      store_distributors: [tenants.a.distributor.id],
      manager_databases: [],
      distributor: null,
    });
    expect((await userByEmail('new.owner@example.test'))!.id).toBe(created.id);

    const detail = await admin.inject({ method: 'GET', url: `/api/users/${created.id}` });
    expect(detail.json().user.stores).toEqual([store.id]);
    const byDistributor = await distributorA.inject({
      method: 'GET',
      url: `/api/users/${created.id}`,
    });
    expect(byDistributor.statusCode).toBe(200);

    const owner = await signIn(context.app, 'New.Owner@example.test', newPassword);
    const storesSeen = await owner.inject({ method: 'GET', url: '/api/stores' });
    expect(storesSeen.json().items.map((item: { id: string }) => item.id)).toEqual([store.id]);
  });

  it('creates a manager managing the database, and the account can sign in', async () => {
    const form = accountForm('manager', { databaseId: tenants.a.database.id });
    const response = await register(admin, form);
    expect(response.statusCode).toBe(200);
    const created = response.json().user;
    expect(created).toMatchObject({
      role: 'manager',
      database: tenants.a.database.id,
      manager_databases: [tenants.a.database.id],
      manager_distributors: [tenants.a.distributor.id],
      stores: [],
    });
    const managers = await context.db
      .select()
      .from(databaseManagers)
      .where(eq(databaseManagers.user_id, created.id));
    expect(managers.map((row) => row.database_id)).toEqual([tenants.a.database.id]);

    const manager = await signIn(context.app, form.email, newPassword);
    const databasesSeen = await manager.inject({ method: 'GET', url: '/api/databases' });
    expect(databasesSeen.json().items.map((item: { id: string }) => item.id)).toEqual([
      tenants.a.database.id,
    ]);
  });

  it('never answers or stores the password', async () => {
    const form = accountForm('customer', { storeId: tenants.a.stores[0]!.id });
    const response = await register(admin, form);
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain(newPassword);
    expect(response.body).not.toContain('password_hash');
    expect((await userByEmail(form.email))!.password_hash).not.toContain(newPassword);
  });
});

describe('POST /api/auth/createToken', () => {
  function createToken(agent: Agent, UId: unknown) {
    return agent.inject({ method: 'POST', url: '/api/auth/createToken', payload: { UId } });
  }

  function exchange(token: string) {
    return context.app.inject({ method: 'POST', url: '/api/auth', payload: { token } });
  }

  it('answers 401 to an anonymous caller and issues nothing', async () => {
    const before = await context.db.select().from(authTokens);
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/auth/createToken',
      payload: { UId: tenants.a.users.customer.id },
    });
    expect(response.statusCode).toBe(401);
    expect(await context.db.select().from(authTokens)).toHaveLength(before.length);
  });

  it('answers 403 to a manager and a customer, even for their own account', async () => {
    const before = await context.db.select().from(authTokens);
    for (const [agent, self] of [
      [managerA, tenants.a.users.manager],
      [customerA, tenants.a.users.customer],
    ] as const) {
      for (const target of [self.id, tenants.a.users.customer.id]) {
        const response = await createToken(agent, target);
        expect(response.statusCode).toBe(403);
        expect(response.json().error.code).toBe('permission/denied');
      }
    }
    expect(await context.db.select().from(authTokens)).toHaveLength(before.length);
  });

  it('answers 404 to a distributor for accounts outside its scope, 403 for an admin, 400 for a bad id', async () => {
    const tiedAdmin = await buildUser(context.db, {
      role: 'admin',
      distributor_id: tenants.a.distributor.id,
    });
    const before = await context.db.select().from(authTokens);
    const cases: [unknown, number, string][] = [
      [tenants.b.users.customer.id, 404, 'not-found'],
      [tenants.b.users.distributor.id, 404, 'not-found'],
      [tenants.admin.id, 404, 'not-found'],
      [randomUUID(), 404, 'not-found'],
      [tiedAdmin.id, 403, 'permission/denied'],
      ['not-a-uuid', 400, 'validation/invalid-input'],
      [undefined, 400, 'validation/invalid-input'],
    ];
    for (const [target, status, code] of cases) {
      const response = await createToken(distributorA, target);
      expect(response.statusCode, String(target)).toBe(status);
      expect(response.json().error.code).toBe(code);
    }
    expect(await context.db.select().from(authTokens)).toHaveLength(before.length);
  });

  it('mints a token that POST /api/auth exchanges once for a session of that account', async () => {
    const target = tenants.a.users.manager;
    for (const agent of [admin, distributorA]) {
      const response = await createToken(agent, target.id);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const { token } = response.json();
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

      const signedIn = await exchange(token);
      expect(signedIn.statusCode).toBe(200);
      expect(signedIn.json()).toMatchObject({
        status: 'ok',
        user: { id: target.id, role: 'manager' },
      });
      const session = await agentFromCookie(
        context.app,
        sessionCookieOf(signedIn.headers['set-cookie']),
      );
      expect((await session.inject({ method: 'GET', url: '/api/me' })).json().user.id).toBe(
        target.id,
      );

      const again = await exchange(token);
      expect(again.statusCode).toBe(401);
      expect(again.json().error.code).toBe('auth/invalid-token');
    }
  });

  it('a token for a disabled account does not sign in', async () => {
    const disabled = await buildUser(context.db, {
      role: 'customer',
      ownedStoreIds: [tenants.a.stores[1]!.id],
    });
    const { token } = (await createToken(admin, disabled.id)).json();
    await context.db.update(users).set({ active: false }).where(eq(users.id, disabled.id));
    const response = await exchange(token);
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('auth/invalid-token');
  });

  it('the token never appears in a later answer about the account, and only its hash is stored', async () => {
    const target = tenants.a.users.customer;
    const { token } = (await createToken(distributorA, target.id)).json();
    for (const agent of [admin, distributorA]) {
      const detail = await agent.inject({ method: 'GET', url: `/api/users/${target.id}` });
      expect(detail.statusCode).toBe(200);
      expect(detail.body).not.toContain(token);
      const list = await agent.inject({ method: 'GET', url: '/api/users?includeInactive=true' });
      expect(list.body).not.toContain(token);
    }
    const me = await customerA.inject({ method: 'GET', url: '/api/me' });
    expect(me.body).not.toContain(token);
    const stored = await context.db
      .select()
      .from(authTokens)
      .where(eq(authTokens.user_id, target.id));
    expect(stored.length).toBeGreaterThan(0);
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored.every((row) => /^[0-9a-f]{64}$/.test(row.token_hash))).toBe(true);
  });
});
