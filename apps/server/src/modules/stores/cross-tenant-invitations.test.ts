import { and, desc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  databaseInvitations,
  databaseManagers,
  outbox,
  storeInvitations,
  storeOwners,
} from '../../db/schema';
import { buildStore, buildTwoTenants, buildUser, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';

/**
 * Issue 13, point 10 (and the invitation mail's language, point 21): an existing account
 * outside the adder's tenant is invited, never linked without its holder's consent.
 */
const context = useTestApp();

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let distributorA: Agent;
let address = 0;

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  distributorA = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
});

/** The last mail kept in the outbox for an address (no SMTP in this file). */
async function lastMailTo(email: string) {
  const rows = await context.db
    .select()
    .from(outbox)
    .where(sql`${outbox.recipients} @> ${JSON.stringify([email])}::jsonb`)
    .orderBy(desc(outbox.created_at))
    .limit(1);
  const mail = rows[0];
  if (!mail) throw new Error(`no mail to ${email}`);
  return {
    ...mail,
    token: decodeURIComponent(/invitation=([^\s&]+)/.exec(mail.body)![1]!),
  };
}

const signInWith = (email: string, invitation?: string) =>
  context.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: `192.0.2.${++address}`,
    payload: { email, password: testPassword, ...(invitation ? { invitation } : {}) },
  });

const ownerIdsOf = async (storeId: string) =>
  (
    await context.db
      .select({ id: storeOwners.user_id })
      .from(storeOwners)
      .where(eq(storeOwners.store_id, storeId))
  )
    .map((row) => row.id)
    .sort();

describe('POST /api/stores/addOwner with an account of another tenant', () => {
  it('invites it: nothing is linked or disclosed until its holder accepts the mailed link', async () => {
    const store = await buildStore(context.db, {
      name: 'Brasserie du Port',
      distributor_id: tenants.a.distributor.id,
      database_id: tenants.a.database.id,
    });
    const stranger = await buildUser(context.db, {
      role: 'customer',
      phone_number: '+33 6 11 22 33 44',
      ownedStoreIds: [tenants.b.stores[1]!.id],
    });
    const response = await distributorA.inject({
      method: 'POST',
      url: '/api/stores/addOwner',
      headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' },
      payload: { email: stranger.email, storeId: store.id },
    });
    expect(response.json()).toEqual({ status: 'invited' });
    expect(await ownerIdsOf(store.id)).toEqual([]);
    // The adding side sees "invited" and the e-mail, nothing of the account.
    const detail = (
      await distributorA.inject({ method: 'GET', url: `/api/stores/${store.id}` })
    ).json().store;
    expect(detail.owners).toEqual([]);
    expect(detail.invited_owners).toEqual([
      { email: stranger.email, status: 'invited', invited_at: expect.any(String) },
    ]);
    expect(JSON.stringify(detail)).not.toContain(stranger.id);
    const account = await distributorA.inject({ method: 'GET', url: `/api/users/${stranger.id}` });
    expect(account.statusCode).toBe(404);
    expect(account.body).not.toContain('+33 6 11 22 33 44');

    // The holder is mailed in the adder's language, with a link to the app.
    const mail = await lastMailTo(stranger.email);
    expect(mail.subject).toBe('Einladung: Brasserie du Port');
    expect(mail.body).toContain('Inhaber der Filiale „Brasserie du Port“');
    expect(mail.body).toContain(
      `http://mise.test/?email=${encodeURIComponent(stranger.email)}&invitation=`,
    );

    // Someone else signing in with the token gains nothing.
    const thief = await buildUser(context.db, { role: 'customer' });
    expect((await signInWith(thief.email, mail.token)).statusCode).toBe(200);
    expect(await ownerIdsOf(store.id)).toEqual([]);

    // The holder accepts by signing in from the link: the link is made, the invitation goes.
    expect((await signInWith(stranger.email, mail.token)).statusCode).toBe(200);
    expect(await ownerIdsOf(store.id)).toEqual([stranger.id]);
    expect(
      await context.db
        .select()
        .from(storeInvitations)
        .where(eq(storeInvitations.email, stranger.email)),
    ).toEqual([]);
    // Its store count, as distributor A sees it, counts A's stores only (not B's).
    const after = (
      await distributorA.inject({ method: 'GET', url: `/api/stores/${store.id}` })
    ).json().store;
    expect(after.owners).toMatchObject([{ id: stranger.id, store_count: 1 }]);
    expect(after.invited_owners).toEqual([]);
  });

  it("invites a store owner's co-owner of another store, who may accept while signed in", async () => {
    const ownerAgent = await signIn(context.app, tenants.a.users.customer.email, testPassword);
    const partner = await buildUser(context.db, {
      role: 'customer',
      ownedStoreIds: [tenants.a.stores[1]!.id],
    });
    const response = await ownerAgent.inject({
      method: 'POST',
      url: '/api/stores/addOwner',
      headers: { 'accept-language': 'pl' },
      payload: { email: partner.email, storeId: tenants.a.stores[0]!.id },
    });
    expect(response.json()).toEqual({ status: 'invited' });
    const mail = await lastMailTo(partner.email);
    expect(mail.subject).toBe(`Zaproszenie: ${tenants.a.stores[0]!.name}`);

    const partnerAgent = await signIn(context.app, partner.email, testPassword);
    const accept = (invitation: string) =>
      partnerAgent.inject({ method: 'POST', url: '/api/auth/invitation', payload: { invitation } });
    expect((await accept('not-a-token')).statusCode).toBe(404);
    expect((await accept(mail.token)).statusCode).toBe(200);
    expect(await ownerIdsOf(tenants.a.stores[0]!.id)).toContain(partner.id);
    // Single use.
    expect((await accept(mail.token)).statusCode).toBe(404);
  });

  it('mails an unknown e-mail in the language of the adder (French, English fallback)', async () => {
    const store = await buildStore(context.db, {
      name: 'Café de la Gare',
      distributor_id: tenants.a.distributor.id,
    });
    const add = (email: string, language?: string) =>
      distributorA.inject({
        method: 'POST',
        url: '/api/stores/addOwner',
        headers: language ? { 'accept-language': language } : {},
        payload: { email, storeId: store.id },
      });
    expect((await add('nouveau@example.test', 'fr-FR,fr;q=0.9')).json().status).toBe('invited');
    const french = await lastMailTo('nouveau@example.test');
    expect(french.subject).toBe('Invitation : Café de la Gare');
    expect(french.body).toContain("Vous êtes invité à gérer l'établissement « Café de la Gare »");
    expect((await add('newcomer@example.test', 'es-ES')).json().status).toBe('invited');
    const english = await lastMailTo('newcomer@example.test');
    expect(english.subject).toBe('Invitation: Café de la Gare');
    expect(english.body).toContain('You have been invited to manage the store "Café de la Gare"');
  });
});

describe('POST /api/database/addManager with an account of another tenant', () => {
  it('invites it; the manager is linked only once the holder accepts', async () => {
    const foreignManager = tenants.b.users.manager;
    const response = await distributorA.inject({
      method: 'POST',
      url: '/api/database/addManager',
      headers: { 'accept-language': 'pl-PL' },
      payload: { email: foreignManager.email, databaseId: tenants.a.database.id },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'invited' });
    const managers = await context.db
      .select({ id: databaseManagers.user_id })
      .from(databaseManagers)
      .where(eq(databaseManagers.database_id, tenants.a.database.id));
    expect(managers.map((row) => row.id)).not.toContain(foreignManager.id);
    const detail = (
      await distributorA.inject({ method: 'GET', url: `/api/databases/${tenants.a.database.id}` })
    ).json().database;
    expect(detail.managers.map((manager: { id: string }) => manager.id)).not.toContain(
      foreignManager.id,
    );
    expect(detail.invited_managers).toEqual([
      { email: foreignManager.email, status: 'invited', invited_at: expect.any(String) },
    ]);
    expect(
      (await distributorA.inject({ method: 'GET', url: `/api/users/${foreignManager.id}` }))
        .statusCode,
    ).toBe(404);

    const mail = await lastMailTo(foreignManager.email);
    expect(mail.body).toContain(
      `Zaproszono Cię do zarządzania bazą danych „${tenants.a.database.name}”`,
    );
    expect((await signInWith(foreignManager.email, mail.token)).statusCode).toBe(200);
    const [linked] = await context.db
      .select()
      .from(databaseManagers)
      .where(
        and(
          eq(databaseManagers.database_id, tenants.a.database.id),
          eq(databaseManagers.user_id, foreignManager.id),
        ),
      );
    expect(linked).toBeDefined();
    expect(
      await context.db
        .select()
        .from(databaseInvitations)
        .where(eq(databaseInvitations.email, foreignManager.email)),
    ).toEqual([]);
  });
});

describe('withdrawing a pending invitation', () => {
  const withdraw = (agent: Agent, path: string, email: unknown) =>
    agent.inject({ method: 'POST', url: `/api/${path}/invitations/withdraw`, payload: { email } });

  it("withdraws a store owner's invitation: its link then adds nobody", async () => {
    const store = await buildStore(context.db, {
      distributor_id: tenants.a.distributor.id,
      database_id: tenants.a.database.id,
    });
    const stranger = await buildUser(context.db, {
      role: 'customer',
      ownedStoreIds: [tenants.b.stores[0]!.id],
    });
    await distributorA.inject({
      method: 'POST',
      url: '/api/stores/addOwner',
      payload: { email: stranger.email, storeId: store.id },
    });
    const { token } = await lastMailTo(stranger.email);

    // Bad input and another tenant change nothing.
    expect((await withdraw(distributorA, `stores/${store.id}`, 'not-an-email')).statusCode).toBe(
      400,
    );
    const distributorB = await signIn(context.app, tenants.b.users.distributor.email, testPassword);
    const foreign = await withdraw(distributorB, `stores/${store.id}`, stranger.email);
    expect(foreign.statusCode).toBe(404);
    expect(
      await context.db
        .select()
        .from(storeInvitations)
        .where(eq(storeInvitations.store_id, store.id)),
    ).toHaveLength(1);

    const response = await withdraw(
      distributorA,
      `stores/${store.id}`,
      stranger.email.toUpperCase(),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().store.invited_owners).toEqual([]);
    expect(
      await context.db
        .select()
        .from(storeInvitations)
        .where(eq(storeInvitations.store_id, store.id)),
    ).toEqual([]);
    expect((await withdraw(distributorA, `stores/${store.id}`, stranger.email)).statusCode).toBe(
      404,
    );
    // The holder following the old link is signed in, and owns nothing more.
    expect((await signInWith(stranger.email, token)).statusCode).toBe(200);
    expect(await ownerIdsOf(store.id)).toEqual([]);
  });

  it("withdraws a database manager's invitation; a customer may not", async () => {
    const foreignManager = await buildUser(context.db, {
      role: 'manager',
      managedDatabaseIds: [tenants.b.database.id],
    });
    await distributorA.inject({
      method: 'POST',
      url: '/api/database/addManager',
      payload: { email: foreignManager.email, databaseId: tenants.a.database.id },
    });
    const { token } = await lastMailTo(foreignManager.email);
    const path = `databases/${tenants.a.database.id}`;

    const customerA = await signIn(context.app, tenants.a.users.customer.email, testPassword);
    expect((await withdraw(customerA, path, foreignManager.email)).statusCode).toBe(403);
    const response = await withdraw(distributorA, path, foreignManager.email);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().database.invited_managers).toEqual([]);
    expect(
      await context.db
        .select()
        .from(databaseInvitations)
        .where(eq(databaseInvitations.email, foreignManager.email)),
    ).toEqual([]);

    expect((await signInWith(foreignManager.email, token)).statusCode).toBe(200);
    const managers = await context.db
      .select({ id: databaseManagers.user_id })
      .from(databaseManagers)
      .where(eq(databaseManagers.database_id, tenants.a.database.id));
    expect(managers.map((row) => row.id)).not.toContain(foreignManager.id);
  });
});
