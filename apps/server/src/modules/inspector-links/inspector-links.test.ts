import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { eq, inArray, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { databases, inspectorLinks, inspectorLinkUses, stores } from '../../db/schema';
import { buildTask, buildTwoTenants, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';

/*
 * Read-only inspector links (issue 21): who creates, lists and revokes them; the token shown
 * once and stored hashed; what a link opens (its store, the days of its period), when it stops
 * opening (expiry, revocation), every use logged and the token never in the logs.
 */

/** pino writes one JSON line per log record here (every level). */
const lines: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    lines.push(String(chunk));
    done();
  },
});

/** The server's clock, settable: the link's expiry is decided against it. */
let clock = new Date('2026-11-24T10:00:00Z');
const context = useTestApp({
  now: () => clock,
  logger: { level: 'trace', stream: logStream },
});

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
const agents = new Map<'admin' | 'distributor' | 'manager' | 'customer' | 'customerB', Agent>();
const period = { period_start: '2026-11-16', period_end: '2026-11-22' };
const taskIds: Record<'inPeriod' | 'afterPeriod' | 'otherStore' | 'otherTenant', string> = {
  inPeriod: '',
  afterPeriod: '',
  otherStore: '',
  otherTenant: '',
};

const storeA1 = () => tenants.a.stores[0]!.id;
const storeA2 = () => tenants.a.stores[1]!.id;
const storeB1 = () => tenants.b.stores[0]!.id;

function createLink(agent: Agent, storeId: string, body: Record<string, unknown> = {}) {
  return agent.inject({
    method: 'POST',
    url: `/api/stores/${storeId}/inspector-links`,
    payload: { label: 'DDPP visit', ...period, expires_in_days: 7, ...body },
  });
}

/** The token of a created link: the URL's fragment. */
function tokenOf(response: LightMyRequestResponse): string {
  const url = new URL(response.json().url as string);
  return url.hash.slice(1);
}

function inspect(token: string | null, url: string, method: 'GET' | 'POST' = 'GET') {
  return context.app.inject({
    method,
    url,
    headers: {
      'user-agent': 'Inspector browser/1.0',
      ...(token === null ? {} : { authorization: `Inspector ${token}` }),
    },
  });
}

async function usesOf(linkId: string) {
  return context.db
    .select()
    .from(inspectorLinkUses)
    .where(eq(inspectorLinkUses.link_id, linkId))
    .orderBy(inspectorLinkUses.used_at);
}

beforeAll(async () => {
  const { db } = context;
  tenants = await buildTwoTenants(db);
  await db
    .update(stores)
    .set({ mise_licence: true })
    .where(
      inArray(
        stores.id,
        [...tenants.a.stores, ...tenants.b.stores].map((store) => store.id),
      ),
    );
  const task = (storeId: string, day: string, name: string) =>
    buildTask(db, {
      store_id: storeId,
      day,
      name,
      start: new Date(`${day}T08:00:00Z`),
      completed_timestamp: new Date(`${day}T08:20:00Z`),
      employee: { name: 'Inès', surname: 'Relevé' },
      result: {
        entries: [
          { element: 'fridge', temperature: 3.5 },
          { element: 'freezer', temperature: 9 },
        ],
      },
    });
  taskIds.inPeriod = (await task(storeA1(), '2026-11-18', 'Relevé du matin')).id;
  taskIds.afterPeriod = (await task(storeA1(), '2026-11-23', 'Relevé hors période')).id;
  taskIds.otherStore = (await task(storeA2(), '2026-11-18', 'Relevé A2')).id;
  taskIds.otherTenant = (await task(storeB1(), '2026-11-18', 'Relevé B1')).id;
  agents.set('admin', await signIn(context.app, tenants.admin.email, testPassword));
  for (const role of ['distributor', 'manager', 'customer'] as const) {
    agents.set(role, await signIn(context.app, tenants.a.users[role].email, testPassword));
  }
  agents.set('customerB', await signIn(context.app, tenants.b.users.customer.email, testPassword));
});

describe('creating, listing and revoking inspector links', () => {
  it('refuses the signed-out (401), another tenant (404) and a manager without store access (403)', async () => {
    const anonymous = await context.app.inject({
      method: 'POST',
      url: `/api/stores/${storeA1()}/inspector-links`,
      payload: { ...period, expires_in_days: 3 },
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await createLink(agents.get('customerB')!, storeA1())).statusCode).toBe(404);
    expect((await createLink(agents.get('customer')!, storeA2())).statusCode).toBe(404);
    const manager = await createLink(agents.get('manager')!, storeA1());
    expect(manager.statusCode).toBe(403);
    expect(manager.json().error.code).toBe('permission/denied');
    const list = await agents
      .get('customerB')!
      .inject({ method: 'GET', url: `/api/stores/${storeA1()}/inspector-links` });
    expect(list.statusCode).toBe(404);
    const rows = await context.db.select().from(inspectorLinks);
    expect(rows).toEqual([]);
  });

  it('lets the owner, the distributor, the admin — and the manager once the database gives store access — create one', async () => {
    for (const role of ['customer', 'distributor', 'admin'] as const) {
      const response = await createLink(agents.get(role)!, storeA1(), { label: `By ${role}` });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().link).toMatchObject({
        store_id: storeA1(),
        label: `By ${role}`,
        ...period,
        status: 'active',
        expires_at: '2026-12-01T10:00:00.000Z',
        revoked_at: null,
        use_count: 0,
        last_used_at: null,
      });
    }
    await context.db
      .update(databases)
      .set({ store_access: true })
      .where(eq(databases.id, tenants.a.database.id));
    try {
      const response = await createLink(agents.get('manager')!, storeA1(), { label: 'By manager' });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().link.created_by.email).toBe(tenants.a.users.manager.email);
    } finally {
      await context.db
        .update(databases)
        .set({ store_access: false })
        .where(eq(databases.id, tenants.a.database.id));
    }
  });

  it('answers the token once, inside the URL fragment, and stores only its sha256', async () => {
    const created = await createLink(agents.get('customer')!, storeA1(), { label: 'Once' });
    expect(created.statusCode).toBe(201);
    const url = created.json().url as string;
    expect(url).toMatch(/^http:\/\/mise\.test\/inspect#[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(created);
    const [row] = await context.db
      .select()
      .from(inspectorLinks)
      .where(eq(inspectorLinks.id, created.json().link.id));
    expect(row!.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    // No column of any link row holds the token itself.
    const dump = await context.db.execute(
      sql`select row_to_json(l)::text as json from inspector_links l`,
    );
    const json = ((dump as unknown as { rows: { json: string }[] }).rows ?? [])
      .map((item) => item.json)
      .join('\n');
    expect(json).toContain(row!.token_hash);
    expect(json).not.toContain(token);

    const list = await agents
      .get('distributor')!
      .inject({ method: 'GET', url: `/api/stores/${storeA1()}/inspector-links` });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(token);
    expect(list.body).not.toContain(row!.token_hash);
    const items = list.json().items as { label: string; created_by: unknown }[];
    expect(items.map((item) => item.label)).toEqual(
      expect.arrayContaining(['Once', 'By customer', 'By distributor', 'By admin']),
    );
    expect(items.find((item) => item.label === 'Once')!.created_by).toEqual({
      name: `Test customer`,
      email: tenants.a.users.customer.email,
    });
  });

  it('refuses a period beyond 31 days, an end before the start and an expiry beyond 7 days; a whole month passes', async () => {
    const owner = agents.get('customer')!;
    const tooLong = await createLink(owner, storeA1(), {
      period_start: '2026-10-01',
      period_end: '2026-11-01',
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.code).toBe('date-range-too-long');
    const reversed = await createLink(owner, storeA1(), {
      period_start: '2026-11-10',
      period_end: '2026-11-09',
    });
    expect(reversed.statusCode).toBe(400);
    const eightDays = await createLink(owner, storeA1(), { expires_in_days: 8 });
    expect(eightDays.statusCode).toBe(400);
    const noDay = await createLink(owner, storeA1(), { expires_in_days: 0 });
    expect(noDay.statusCode).toBe(400);
    const month = await createLink(owner, storeA1(), {
      label: 'October',
      period_start: '2026-10-01',
      period_end: '2026-10-31',
      expires_in_days: 1,
    });
    expect(month.statusCode, month.body).toBe(201);
    expect(month.json().link.expires_at).toBe('2026-11-25T10:00:00.000Z');
  });

  it('revokes: the owner may, another tenant gets 404, the link then says who and when', async () => {
    const created = await createLink(agents.get('distributor')!, storeA1(), { label: 'To revoke' });
    const linkId = created.json().link.id as string;
    const url = `/api/stores/${storeA1()}/inspector-links/${linkId}`;
    expect((await agents.get('customerB')!.inject({ method: 'DELETE', url })).statusCode).toBe(404);
    // Through another store of the same tenant: not its link.
    const wrongStore = await agents.get('admin')!.inject({
      method: 'DELETE',
      url: `/api/stores/${storeA2()}/inspector-links/${linkId}`,
    });
    expect(wrongStore.statusCode).toBe(404);
    expect((await agents.get('manager')!.inject({ method: 'DELETE', url })).statusCode).toBe(403);
    const revoked = await agents.get('customer')!.inject({ method: 'DELETE', url });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().link).toMatchObject({
      status: 'revoked',
      revoked_at: clock.toISOString(),
      revoked_by: { email: tenants.a.users.customer.email },
    });
    // A second revocation keeps the first one's author.
    const again = await agents.get('admin')!.inject({ method: 'DELETE', url });
    expect(again.json().link.revoked_by.email).toBe(tenants.a.users.customer.email);
    expect((await inspect(tokenOf(created), '/api/inspect')).statusCode).toBe(401);
  });
});

describe('what a link opens', () => {
  let token = '';
  let linkId = '';

  beforeAll(async () => {
    const created = await createLink(agents.get('customer')!, storeA1(), { label: 'Inspection' });
    token = tokenOf(created);
    linkId = created.json().link.id;
    lines.length = 0;
  });

  it("shows the link's store, period and expiry", async () => {
    const response = await inspect(token, '/api/inspect');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json().inspection).toMatchObject({
      label: 'Inspection',
      store: { name: tenants.a.stores[0]!.name, timezone_name: 'Europe/Paris' },
      ...period,
      expires_at: '2026-12-01T10:00:00.000Z',
    });
  });

  it("reads a day of the period: that store's tasks of that day only", async () => {
    const response = await inspect(
      token,
      '/api/inspect/history?day=2026-11-18&module=temperatures',
    );
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.items.map((item: { id: string }) => item.id)).toEqual([taskIds.inPeriod]);
    expect(body.items[0]).toMatchObject({
      name: 'Relevé du matin',
      status: 'done',
      employee: { name: 'Inès', surname: 'Relevé' },
    });
    const empty = await inspect(token, '/api/inspect/history?day=2026-11-17&module=temperatures');
    expect(empty.json().items).toEqual([]);
  });

  it('answers 404 for a day outside the period, and 400 for a day that is none', async () => {
    for (const day of ['2026-11-23', '2026-11-15', '2025-11-18']) {
      const response = await inspect(token, `/api/inspect/history?day=${day}&module=temperatures`);
      expect(response.statusCode, day).toBe(404);
      expect(response.json().error.code).toBe('not-found');
    }
    const invalid = await inspect(token, '/api/inspect/history?day=2026-11-31&module=temperatures');
    expect(invalid.statusCode).toBe(400);
  });

  it("opens a task of the store's period with its revisions; another store's or another day's is 404", async () => {
    const detail = await inspect(token, `/api/inspect/tasks/${taskIds.inPeriod}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().task).toMatchObject({
      id: taskIds.inPeriod,
      name: 'Relevé du matin',
      store_name: tenants.a.stores[0]!.name,
      revisions: [],
    });
    for (const id of [taskIds.afterPeriod, taskIds.otherStore, taskIds.otherTenant]) {
      const response = await inspect(token, `/api/inspect/tasks/${id}`);
      expect(response.statusCode, id).toBe(404);
      expect(response.body).not.toContain('Relevé');
    }
    const unknown = await inspect(token, `/api/inspect/tasks/${crypto.randomUUID()}`);
    expect(unknown.statusCode).toBe(404);
  });

  it('answers 401 inspector/link-invalid without a token, for an unknown token and for a bearer session', async () => {
    for (const response of [
      await inspect(null, '/api/inspect'),
      await inspect('x'.repeat(43), '/api/inspect'),
      await inspect('', '/api/inspect/history?day=2026-11-18&module=temperatures'),
      await agents.get('admin')!.inject({ method: 'GET', url: '/api/inspect' }),
    ]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        error: {
          code: 'inspector/link-invalid',
          message: 'This inspector link is not valid: it expired or was revoked.',
        },
      });
    }
  });

  it('logs each use: the route, the address and the browser, never the token', async () => {
    const uses = await usesOf(linkId);
    // GET /api/inspect, 2 history reads, 4 refused days (404 and 400 are uses too), 5 tasks.
    expect(uses.map((use) => use.action)).toEqual([
      'GET /api/inspect',
      ...Array(6).fill('GET /api/inspect/history'),
      ...Array(5).fill('GET /api/inspect/tasks/:id'),
    ]);
    expect(uses[0]).toMatchObject({ ip: '127.0.0.1', user_agent: 'Inspector browser/1.0' });
    expect(JSON.stringify(uses)).not.toContain(token);
  });

  it('keeps the token out of the server logs', () => {
    const log = lines.join('');
    // The requests were logged (trace level), their URLs without any secret.
    expect(log).toContain('/api/inspect/history');
    expect(log).not.toContain(token);
    expect(log).not.toContain('Inspector ');
  });

  it('stops opening once expired (the server clock past expires_at)', async () => {
    const before = clock;
    try {
      clock = new Date('2026-12-01T09:59:59Z');
      expect((await inspect(token, '/api/inspect')).statusCode).toBe(200);
      clock = new Date('2026-12-01T10:00:00Z');
      const expired = await inspect(
        token,
        '/api/inspect/history?day=2026-11-18&module=temperatures',
      );
      expect(expired.statusCode).toBe(401);
      expect(expired.json().error.code).toBe('inspector/link-invalid');
      const list = await agents
        .get('customer')!
        .inject({ method: 'GET', url: `/api/stores/${storeA1()}/inspector-links` });
      const link = (list.json().items as { id: string; status: string; use_count: number }[]).find(
        (item) => item.id === linkId,
      );
      expect(link).toMatchObject({ status: 'expired', use_count: 13 });
    } finally {
      clock = before;
    }
  });

  it('stops opening once revoked, and logs nothing more', async () => {
    const before = (await usesOf(linkId)).length;
    const revoked = await agents.get('customer')!.inject({
      method: 'DELETE',
      url: `/api/stores/${storeA1()}/inspector-links/${linkId}`,
    });
    expect(revoked.statusCode).toBe(200);
    const response = await inspect(token, `/api/inspect/tasks/${taskIds.inPeriod}`);
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('inspector/link-invalid');
    expect(await usesOf(linkId)).toHaveLength(before);
  });

  it("closes with the store: an unlicensed store's link opens nothing (404)", async () => {
    const created = await createLink(agents.get('customer')!, storeA1(), { label: 'Licence' });
    const otherToken = tokenOf(created);
    await context.db.update(stores).set({ mise_licence: false }).where(eq(stores.id, storeA1()));
    try {
      expect((await inspect(otherToken, '/api/inspect')).statusCode).toBe(404);
    } finally {
      await context.db.update(stores).set({ mise_licence: true }).where(eq(stores.id, storeA1()));
    }
    expect((await inspect(otherToken, '/api/inspect')).statusCode).toBe(200);
  });
});

describe('the inspector pack through a link', () => {
  async function waitForPack(token: string) {
    for (let attempt = 0; attempt < 200; attempt++) {
      const response = await inspect(token, '/api/inspect/pack');
      expect(response.statusCode, response.body).toBe(200);
      const pack = response.json().pack as { status: string; download_url: string | null } | null;
      if (pack && (pack.status === 'done' || pack.status === 'failed')) return pack;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the pack was not built in time');
  }

  it("asks for the pack of the link's period, follows it and downloads the ZIP; another period's pack stays closed", async () => {
    const created = await createLink(agents.get('customer')!, storeA1(), { label: 'Pack' });
    const token = tokenOf(created);
    expect((await inspect(token, '/api/inspect/pack')).json()).toEqual({ pack: null });
    const asked = await inspect(token, '/api/inspect/pack', 'POST');
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json().pack).toMatchObject({
      store_id: storeA1(),
      ...{ period_start: '2026-11-16', period_end: '2026-11-22' },
    });
    // Asking again while it builds (or once built) answers the same pack.
    const again = await inspect(token, '/api/inspect/pack', 'POST');
    expect(again.json().pack.id).toBe(asked.json().pack.id);
    const pack = await waitForPack(token);
    expect(pack.status).toBe('done');
    expect(pack.download_url).toBe(`/api/inspect/packs/${asked.json().pack.id}/download`);
    const zip = await inspect(token, pack.download_url!);
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect((await inspect(null, pack.download_url!)).statusCode).toBe(401);

    // The owner's pack of another period: the link neither shows nor downloads it.
    const other = await agents.get('customer')!.inject({
      method: 'POST',
      url: `/api/stores/${storeA1()}/inspector-packs`,
      payload: { period_start: '2026-11-01', period_end: '2026-11-07' },
    });
    expect(other.statusCode, other.body).toBe(201);
    const otherId = other.json().pack.id as string;
    const refused = await inspect(token, `/api/inspect/packs/${otherId}/download`);
    expect(refused.statusCode).toBe(404);
    expect((await inspect(token, '/api/inspect/pack')).json().pack.id).toBe(asked.json().pack.id);
  });
});
