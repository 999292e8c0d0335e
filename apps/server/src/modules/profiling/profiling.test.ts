import { randomBytes, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Writable } from 'node:stream';
import { profilingWindowSize, type ServerInstance } from '@mise/shared/operations/schemas';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { type DatabaseHandle, openDatabase } from '../../db/client';
import { devices, serverInstanceReplies, serverInstances } from '../../db/schema';
import { hashToken } from '../../platform/auth/tokens';
import { buildTwoTenants, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { defaultRelayTimeoutMs } from './instance-relay';
import { listSnapshots, recordHeartbeat, recordSnapshot } from './profiling.service';

/*
 * Two app instances on one database (issue 20): A is the harness's app, B another app with its
 * own connections on PostgreSQL (the same PGlite handle on the embedded driver), each with its
 * heartbeat, sampler and relay started as main.ts starts them, fast intervals.
 */

const isPostgres = process.env.TEST_DB === 'pg';
const context = useTestApp();

/** A logger destination that drops everything (B's lines reach only its output ring). */
const nullStream = new Writable({ write: (_chunk, _encoding, done) => done() });

async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const fast = { sampleMs: 40, heartbeatMs: 100 };

type OtherInstance = { app: FastifyInstance; database: DatabaseHandle; isOwnDatabase: boolean };

/** Another instance on the same database, with a logger at info writing to its ring. */
async function otherInstance(): Promise<OtherInstance> {
  const database = isPostgres
    ? await openDatabase({
        driver: 'pg',
        url: (context.database.pool!.options as { connectionString: string }).connectionString,
        poolSize: 3,
      })
    : context.database;
  const app = await buildApp({
    config: context.config,
    database,
    logger: { level: 'info', stream: nullStream },
    isServingWeb: false,
  });
  await app.ready();
  return { app, database, isOwnDatabase: isPostgres };
}

async function closeInstance(instance: OtherInstance | undefined) {
  await instance?.app.close();
  if (instance?.isOwnDatabase) await instance.database.close();
}

let b: OtherInstance;
let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let admin: Agent;
const idA = () => context.app.profiling.identity.id;
const idB = () => b.app.profiling.identity.id;

beforeAll(async () => {
  b = await otherInstance();
  await context.app.profiling.start(fast);
  await b.app.profiling.start(fast);
  tenants = await buildTwoTenants(context.db);
  admin = await signIn(context.app, tenants.admin.email, testPassword);
});
afterAll(async () => {
  await closeInstance(b);
});

const get = (agent: Agent | null, url: string) =>
  agent ? agent.inject({ method: 'GET', url }) : context.app.inject({ method: 'GET', url });

describe('GET /api/profiling/instances', () => {
  it('lists both instances with their heartbeat, host, pid and version; the current one marked', async () => {
    const response = await get(admin, '/api/profiling/instances');
    expect(response.statusCode).toBe(200);
    const items = response.json().items as ServerInstance[];
    const a = items.find((item) => item.id === idA());
    const other = items.find((item) => item.id === idB());
    for (const instance of [a, other]) {
      expect(instance).toMatchObject({
        host: hostname(),
        pid: process.pid,
        is_live: true,
      });
      expect(instance!.version).not.toBe('');
      expect(Date.parse(instance!.last_seen_at)).toBeGreaterThanOrEqual(
        Date.parse(instance!.started_at) - 1000,
      );
    }
    expect(a!.is_current).toBe(true);
    expect(other!.is_current).toBe(false);
    // Asked through B, B is the current one.
    const throughB = (
      await b.app.inject({
        method: 'GET',
        url: '/api/profiling/instances',
        headers: { cookie: admin.cookie },
      })
    ).json().items as ServerInstance[];
    expect(throughB.find((item) => item.is_current)?.id).toBe(idB());

    // The heartbeat moves on.
    const firstSeen = Date.parse(other!.last_seen_at);
    await waitFor(async () => {
      const again = (await get(admin, '/api/profiling/instances')).json().items as ServerInstance[];
      return Date.parse(again.find((item) => item.id === idB())!.last_seen_at) > firstSeen;
    });
  });

  it('shows a stopped instance as not live; its output is unreachable at once', async () => {
    const c = await otherInstance();
    await c.app.profiling.start(fast);
    const idC = c.app.profiling.identity.id;
    await closeInstance(c);
    const [row] = await context.db
      .select({ stopped_at: serverInstances.stopped_at })
      .from(serverInstances)
      .where(eq(serverInstances.id, idC));
    expect(row!.stopped_at).not.toBeNull();
    const items = (await get(admin, '/api/profiling/instances')).json().items as ServerInstance[];
    expect(items.find((item) => item.id === idC)).toMatchObject({ is_live: false });
    // Live ones come first.
    const firstNotLive = items.findIndex((item) => !item.is_live);
    expect(items.slice(firstNotLive).every((item) => !item.is_live)).toBe(true);

    const started = Date.now();
    const output = await get(admin, `/api/profiling/output?instanceId=${idC}`);
    expect(output.statusCode).toBe(503);
    expect(output.json().error).toEqual({
      code: 'profiling/instance-unreachable',
      message: 'This server instance does not answer.',
    });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('GET /api/profiling/live', () => {
  it("reads another instance's snapshots from the database, oldest first", async () => {
    await waitFor(async () => (await listSnapshots(context.db, idB())).length >= 3);
    const response = await get(admin, `/api/profiling/live?instanceId=${idB()}`);
    expect(response.statusCode).toBe(200);
    const body = response.json() as {
      instance_id: string;
      items: { cpuUsagePercent: number; memoryUsagePercent: number; timestamp: string }[];
    };
    expect(body.instance_id).toBe(idB());
    expect(body.items.length).toBeGreaterThanOrEqual(3);
    const times = body.items.map((item) => item.timestamp);
    expect([...times].sort()).toEqual(times);
    for (const item of body.items) {
      expect(item.cpuUsagePercent).toBeGreaterThanOrEqual(0);
      expect(item.cpuUsagePercent).toBeLessThanOrEqual(100);
      // A Node process uses some memory, never all of the machine's.
      expect(item.memoryUsagePercent).toBeGreaterThan(0);
      expect(item.memoryUsagePercent).toBeLessThan(100);
      expect(item.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
    // Without instanceId: the instance answering.
    const own = await get(admin, '/api/profiling/live');
    expect(own.json().instance_id).toBe(idA());
  });

  it('keeps a bounded window per instance', async () => {
    const identity = {
      id: randomUUID(),
      host: 'window-test',
      version: 'test',
      pid: 1,
      startedAt: new Date(),
    };
    await recordHeartbeat(context.db, identity);
    const base = Date.parse('2026-11-20T08:00:00Z');
    for (let index = 0; index < 8; index++) {
      await recordSnapshot(
        context.db,
        identity.id,
        { cpuUsagePercent: index, memoryUsagePercent: 10 + index },
        new Date(base + index * 6000),
        5,
      );
    }
    const kept = await listSnapshots(context.db, identity.id);
    expect(kept.map((item) => item.cpuUsagePercent)).toEqual([3, 4, 5, 6, 7]);
    expect(kept[0]!.timestamp).toBe('2026-11-20T08:00:18.000Z');
    expect(profilingWindowSize).toBe(600);
  });

  it('answers 404 for an unknown instance and 400 for a malformed id', async () => {
    expect((await get(admin, `/api/profiling/live?instanceId=${randomUUID()}`)).statusCode).toBe(
      404,
    );
    expect((await get(admin, '/api/profiling/live?instanceId=nope')).statusCode).toBe(400);
    expect((await get(admin, '/api/profiling/live?other=1')).statusCode).toBe(400);
  });
});

describe('GET /api/profiling/output', () => {
  type Output = {
    instance_id: string;
    items: { seq: number; level: string; msg: string; line: string; time: string }[];
    last_seq: number;
  };

  it("answers another instance's output through the instance queried, secrets redacted", async () => {
    const marker = `distinctive-${randomBytes(4).toString('hex')}`;
    b.app.log.info(
      { marker, password: 'B-password-secret', url: '/api/auth?token=B-login-token' },
      `${marker} from instance B`,
    );
    const response = await get(admin, `/api/profiling/output?instanceId=${idB()}`);
    expect(response.statusCode).toBe(200);
    const body = response.json() as Output;
    expect(body.instance_id).toBe(idB());
    const line = body.items.find((item) => item.msg === `${marker} from instance B`);
    expect(line).toMatchObject({ level: 'info' });
    expect(JSON.parse(line!.line)).toMatchObject({
      marker,
      password: '[Redacted]',
      url: '/api/auth?token=[Redacted]',
    });
    expect(response.body).not.toContain('B-password-secret');
    expect(response.body).not.toContain('B-login-token');
    expect(body.last_seq).toBeGreaterThanOrEqual(line!.seq);
    // A's own output holds no such line (its logger is off in tests).
    const own = (await get(admin, '/api/profiling/output')).json() as Output;
    expect(own.instance_id).toBe(idA());
    expect(own.items.some((item) => item.msg.includes(marker))).toBe(false);
    // The relayed answer was taken from the database.
    expect(await context.db.select().from(serverInstanceReplies)).toEqual([]);
  });

  it('follows with after= and filters by level', async () => {
    const first = (await get(admin, `/api/profiling/output?instanceId=${idB()}`)).json() as Output;
    b.app.log.info('follow: one');
    b.app.log.warn('follow: two');
    b.app.log.debug('follow: below the logger level');
    const next = (
      await get(admin, `/api/profiling/output?instanceId=${idB()}&after=${first.last_seq}`)
    ).json() as Output;
    expect(next.items.map((item) => [item.level, item.msg])).toEqual([
      ['info', 'follow: one'],
      ['warn', 'follow: two'],
    ]);
    expect(next.items[0]!.seq).toBe(first.last_seq + 1);
    expect(next.last_seq).toBe(first.last_seq + 2);
    const warnings = (
      await get(
        admin,
        `/api/profiling/output?instanceId=${idB()}&after=${first.last_seq}&level=warn`,
      )
    ).json() as Output;
    expect(warnings.items.map((item) => item.msg)).toEqual(['follow: two']);
    const nothing = (
      await get(admin, `/api/profiling/output?instanceId=${idB()}&after=${next.last_seq}`)
    ).json() as Output;
    expect(nothing).toEqual({ instance_id: idB(), items: [], last_seq: next.last_seq });
    expect(
      (await get(admin, `/api/profiling/output?instanceId=${idB()}&level=loud`)).statusCode,
    ).toBe(400);
  });

  it('logs the requests an instance serves in its own ring, a login token in a URL redacted', async () => {
    const served = await b.app.inject({
      method: 'GET',
      url: '/api/profiling/instances?token=served-login-token',
      headers: { cookie: admin.cookie },
    });
    expect(served.statusCode).toBe(200);
    const direct = await b.app.inject({
      method: 'GET',
      url: `/api/profiling/output?instanceId=${idB()}`,
      headers: { cookie: admin.cookie },
    });
    expect(direct.statusCode).toBe(200);
    const lines = (direct.json() as Output).items.map((item) => item.line).join('\n');
    expect(lines).toContain('/api/profiling/instances?token=[Redacted]');
    expect(lines).not.toContain('served-login-token');
  });

  it('answers 404 for an unknown instance, 503 after the timeout when an instance does not answer', async () => {
    expect((await get(admin, `/api/profiling/output?instanceId=${randomUUID()}`)).statusCode).toBe(
      404,
    );
    // A row that looks live, but no process behind it (killed without a clean stop).
    const ghost = randomUUID();
    await recordHeartbeat(context.db, {
      id: ghost,
      host: 'ghost',
      version: 'test',
      pid: 2,
      startedAt: new Date(),
    });
    const started = Date.now();
    const response = await get(admin, `/api/profiling/output?instanceId=${ghost}`);
    const waited = Date.now() - started;
    expect(response.statusCode).toBe(503);
    expect(response.json().error.code).toBe('profiling/instance-unreachable');
    expect(waited).toBeGreaterThanOrEqual(defaultRelayTimeoutMs - 50);
    expect(waited).toBeLessThan(defaultRelayTimeoutMs + 3000);
  });
});

describe('admin only', () => {
  const urls = () => [
    '/api/profiling/instances',
    `/api/profiling/live?instanceId=${idB()}`,
    `/api/profiling/output?instanceId=${idB()}`,
  ];

  it('refuses distributors, managers and customers (403), devices and strangers (401)', async () => {
    const users = tenants.a.users;
    for (const user of [users.distributor, users.manager, users.customer]) {
      const agent = await signIn(context.app, user.email, testPassword);
      for (const url of urls()) {
        const response = await get(agent, url);
        expect(response.statusCode, `${user.role} ${url}`).toBe(403);
        expect(response.json().error).toEqual({
          code: 'permission/denied',
          message: 'You do not have permission to execute this action.',
        });
      }
    }
    const token = randomBytes(32).toString('base64url');
    await context.db.insert(devices).values({
      store_id: tenants.a.stores[0]!.id,
      device_id: 'profiling-tablet',
      token_hash: hashToken(token),
    });
    for (const url of urls()) {
      const asDevice = await context.app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(asDevice.statusCode, `device ${url}`).toBe(401);
      expect((await get(null, url)).statusCode, `anonymous ${url}`).toBe(401);
    }
  });
});
