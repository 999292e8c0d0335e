import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { type DatabaseHandle, openDatabase } from '../db/client';
import { migrationLockKey, runMigrations } from '../db/migrate';
import { useTestApp } from '../test/harness';
import { adminDatabaseUrl } from '../test/pg-urls';
import { checkReadiness, loadSheddingThresholds } from './health';

/** Readiness (/api/ready) and load shedding (issue 20), on both drivers. */

const context = useTestApp();
const isPg = process.env.TEST_DB === 'pg';
const cleanups: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const ready = (app: FastifyInstance = context.app) =>
  app.inject({ method: 'GET', url: '/api/ready' });

/** Another app on the test's database, with its own configuration. */
async function buildOtherApp(env: Record<string, string>, database = context.database) {
  const app = await buildApp({
    config: loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: context.config.DATA_DIR,
      PUBLIC_URL: 'http://mise.test',
      ...env,
    }),
    database,
    logger: false,
    isServingWeb: false,
  });
  await app.ready();
  cleanups.push(() => app.close());
  return app;
}

/** A connection of its own to the test's database (pg). */
async function otherConnection(url = context.database.pool!.options.connectionString!) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  cleanups.push(() => client.end());
  return client;
}

describe('GET /api/ready', () => {
  it('answers ready when the database answers and no migration runs; /api/health is liveness', async () => {
    const response = await ready();
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ status: 'ready' });
    const health = await context.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json().status).toBe('ok');
  });

  it('answers 503 while this process runs migrations, ready again once they are done', async () => {
    // A fresh embedded database to migrate from scratch: the flag is this process's own.
    const fresh = await openDatabase({ driver: 'pglite' });
    cleanups.push(() => fresh.close());
    const migrating = runMigrations(fresh);
    try {
      const during = await ready();
      expect(during.statusCode).toBe(503);
      expect(during.json()).toEqual({ status: 'not-ready', reason: 'migrating' });
    } finally {
      await migrating;
    }
    expect((await ready()).statusCode).toBe(200);
  }, 60_000);

  it.skipIf(!isPg)(
    'answers 503 while another connection holds the migration lock of this database (pg)',
    async () => {
      const migrator = await otherConnection();
      await migrator.query('SELECT pg_advisory_lock($1)', [migrationLockKey]);
      try {
        const during = await ready();
        expect(during.statusCode).toBe(503);
        expect(during.json()).toEqual({ status: 'not-ready', reason: 'migrating' });
      } finally {
        await migrator.query('SELECT pg_advisory_unlock($1)', [migrationLockKey]);
      }
      expect((await ready()).json()).toEqual({ status: 'ready' });

      // The same lock held in another database (another deployment's) changes nothing here.
      const elsewhere = await otherConnection(adminDatabaseUrl());
      await elsewhere.query('SELECT pg_advisory_lock($1)', [migrationLockKey]);
      try {
        expect((await ready()).statusCode).toBe(200);
      } finally {
        await elsewhere.query('SELECT pg_advisory_unlock($1)', [migrationLockKey]);
      }
    },
  );

  it('answers 503 when the database does not answer', async () => {
    const handle: DatabaseHandle = isPg
      ? await openDatabase({
          driver: 'pg',
          url: context.database.pool!.options.connectionString!,
          poolSize: 1,
        })
      : await openDatabase({ driver: 'pglite' });
    if (!isPg) await runMigrations(handle);
    const app = await buildOtherApp({}, handle);
    expect((await ready(app)).statusCode).toBe(200);
    await handle.close();
    const response = await ready(app);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'not-ready', reason: 'database-unreachable' });
  }, 60_000);

  it.skipIf(!isPg)('gives up after its timeout when no connection is free (pg)', async () => {
    const handle = await openDatabase({
      driver: 'pg',
      url: context.database.pool!.options.connectionString!,
      poolSize: 1,
    });
    cleanups.push(() => handle.close());
    const busy = await handle.pool!.connect();
    try {
      const started = Date.now();
      expect(await checkReadiness(handle, 200)).toEqual({
        isReady: false,
        reason: 'database-unreachable',
      });
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      busy.release();
    }
    expect(await checkReadiness(handle, 2000)).toEqual({ isReady: true });
  });
});

describe('load shedding', () => {
  it('answers 503 server/overloaded with Retry-After past a threshold; health, readiness and metrics still answer', async () => {
    const token = 'metrics-token-0123456789abcdef';
    // Any process uses more than 1 MB of heap: under pressure from the first sample (1 s).
    const app = await buildOtherApp({ LOAD_SHEDDING_MAX_HEAP_USED_MB: '1', METRICS_TOKEN: token });
    await vi.waitFor(() => expect(app.isUnderPressure()).toBe(true), { timeout: 5000 });

    for (const url of ['/api/auth/csrf', '/api/stores', '/api/no-such-route']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(503);
      expect(response.headers['retry-after']).toBe('10');
      expect(response.json()).toEqual({
        error: {
          code: 'server/overloaded',
          message: 'The server is busy. Please try again in a moment.',
        },
      });
    }
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect((await ready(app)).json()).toEqual({ status: 'ready' });
    const metrics = await app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.body).toMatch(/^mise_load_shedding_active 1$/m);
    expect(metrics.body).toMatch(/^mise_http_requests_shed_total\{reason="heapUsedBytes"\} 3$/m);

    // The default test app (thresholds off) serves as usual meanwhile.
    expect((await context.app.inject({ method: 'GET', url: '/api/stores' })).statusCode).toBe(401);
  });

  it('defaults: generous in production, off in tests, 0 turns a check off', () => {
    const production = loadSheddingThresholds({ NODE_ENV: 'production' });
    expect(production.maxEventLoopDelayMs).toBe(1000);
    expect(production.maxHeapUsedBytes).toBeGreaterThan(100 * 1024 * 1024);
    expect(production.maxRssBytes).toBe(0);
    expect(loadSheddingThresholds({ NODE_ENV: 'test' })).toEqual({
      maxEventLoopDelayMs: 0,
      maxHeapUsedBytes: 0,
      maxRssBytes: 0,
    });
    const config = loadConfig({
      NODE_ENV: 'production',
      LOAD_SHEDDING_MAX_EVENT_LOOP_DELAY_MS: '0',
      LOAD_SHEDDING_MAX_HEAP_USED_MB: '1500',
      LOAD_SHEDDING_MAX_RSS_MB: '2048',
    });
    expect(loadSheddingThresholds(config)).toEqual({
      maxEventLoopDelayMs: 0,
      maxHeapUsedBytes: 1500 * 1024 * 1024,
      maxRssBytes: 2048 * 1024 * 1024,
    });
    expect(() => loadConfig({ LOAD_SHEDDING_MAX_RSS_MB: '-1' })).toThrow(
      /LOAD_SHEDDING_MAX_RSS_MB/,
    );
    expect(() => loadConfig({ LOAD_SHEDDING_MAX_EVENT_LOOP_DELAY_MS: 'soon' })).toThrow(
      /LOAD_SHEDDING_MAX_EVENT_LOOP_DELAY_MS/,
    );
  });
});
