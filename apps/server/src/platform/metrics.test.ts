import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { alertEpisodes, probes } from '../db/schema';
import { buildStore, buildUser, testPassword } from '../test/factories';
import { type Agent, signIn, useTestApp } from '../test/harness';
import { type JobQueue, startJobQueue } from './jobs';

/** GET /metrics (issue 20): the token, and counters that move with the work done. */

const token = 'metrics-token-0123456789abcdef';
const logLines: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});
const context = useTestApp({
  env: { METRICS_TOKEN: token },
  // Everything the server logs, down to trace.
  logger: { level: 'trace', stream: logStream },
});

let admin: Agent;
let storeId: string;
const queues: JobQueue[] = [];

beforeAll(async () => {
  const store = await buildStore(context.db, { timezone_name: 'Europe/Paris' });
  storeId = store.id;
  const adminUser = await buildUser(context.db, { role: 'admin' });
  admin = await signIn(context.app, adminUser.email, testPassword);
});

afterAll(async () => {
  for (const queue of queues) await queue.stop();
});

async function scrape(): Promise<string> {
  const response = await context.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.body;
}

/** The value of one sample: the metric's line whose labels include `labels` (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [
        pair[1],
        pair[2],
      ]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) {
      return Number(match[3]);
    }
  }
  return 0;
}

describe('GET /metrics: the token', () => {
  it('answers 401 without a token or with a wrong one, never the figures', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong-token-0123456789abcdef',
      `Bearer ${token}x`,
      token,
      `Basic ${token}`,
    ]) {
      const response = await context.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('auth/unauthenticated');
      expect(response.body).not.toContain('mise_http_requests_total');
    }
  });

  it('answers the Prometheus text with the right token: process and event-loop figures', async () => {
    const text = await scrape();
    expect(text).toContain('# TYPE mise_http_requests_total counter');
    expect(text).toContain('# TYPE mise_http_request_duration_seconds histogram');
    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds \S+$/m);
    expect(sample(text, 'mise_db_pool_max_connections')).toBe(
      context.database.driver === 'pg' ? 5 : 1,
    );
    expect(sample(text, 'mise_load_shedding_active')).toBe(0);
    expect(text).toMatch(/^mise_sse_subscribers 0$/m);
  });

  it('answers 404 (not the web app) when no token is configured', async () => {
    const webDist = mkdtempSync(join(tmpdir(), 'mise-metrics-web-'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Mise</title>');
    const app = await buildApp({
      config: loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: context.config.DATA_DIR,
        PUBLIC_URL: 'http://mise.test',
      }),
      database: context.database,
      logger: false,
      isServingWeb: true,
      webDist,
      tabletDist: join(webDist, 'no-tablet'),
    });
    try {
      await app.ready();
      for (const headers of [{}, { authorization: `Bearer ${token}` }]) {
        const response = await app.inject({
          method: 'GET',
          url: '/metrics',
          headers: { accept: 'text/html', ...headers },
        });
        expect(response.statusCode).toBe(404);
        expect(response.json().error.code).toBe('not-found');
      }
      // The web app still answers its own pages.
      expect((await app.inject({ method: 'GET', url: '/stores' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('refuses a METRICS_TOKEN shorter than 16 characters without repeating it', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short-secret' })).toThrow(/METRICS_TOKEN/);
    try {
      loadConfig({ METRICS_TOKEN: 'short-secret' });
    } catch (error) {
      expect((error as Error).message).not.toContain('short-secret');
    }
  });
});

describe('GET /metrics: counters move with the work', () => {
  it('counts requests and their latency by route pattern, never by URL', async () => {
    const health = { method: 'GET', route: '/api/health', status_code: '200' };
    const before = await scrape();
    for (let index = 0; index < 3; index += 1) {
      expect((await context.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(
        200,
      );
    }
    const unknownStore = '00000000-0000-4000-8000-00000000abcd';
    const tasks = await context.app.inject({
      method: 'GET',
      url: `/api/stores/${unknownStore}/tasks?day=2026-11-24`,
    });
    expect(tasks.statusCode).toBe(401);
    await context.app.inject({ method: 'GET', url: '/api/no-such-route/12345' });
    const after = await scrape();

    expect(sample(after, 'mise_http_requests_total', health)).toBe(
      sample(before, 'mise_http_requests_total', health) + 3,
    );
    expect(sample(after, 'mise_http_request_duration_seconds_count', health)).toBe(
      sample(before, 'mise_http_request_duration_seconds_count', health) + 3,
    );
    expect(
      sample(after, 'mise_http_request_duration_seconds_bucket', { ...health, le: '+Inf' }),
    ).toBe(
      sample(before, 'mise_http_request_duration_seconds_bucket', { ...health, le: '+Inf' }) + 3,
    );
    expect(sample(after, 'mise_http_request_duration_seconds_sum', health)).toBeGreaterThan(
      sample(before, 'mise_http_request_duration_seconds_sum', health),
    );
    expect(
      sample(after, 'mise_http_requests_total', {
        method: 'GET',
        route: '/api/stores/:storeId/tasks',
        status_code: '401',
      }),
    ).toBe(1);
    expect(
      sample(after, 'mise_http_requests_total', { route: '(unmatched)', status_code: '404' }),
    ).toBe(1);
    // The scrapes themselves are requests of the /metrics route.
    expect(
      sample(after, 'mise_http_requests_total', { route: '/metrics', status_code: '200' }),
    ).toBeGreaterThan(0);
    expect(after).not.toContain(unknownStore);
    expect(after).not.toContain('no-such-route');
    expect(after).not.toContain('2026-11-24');
  });

  it('counts task generation runs: the admin runs generation for a store', async () => {
    const generated = { status: 'generated' };
    const before = sample(await scrape(), 'mise_task_generation_runs_total', generated);
    const run = await admin.inject({
      method: 'POST',
      url: '/api/task_generation/run',
      payload: { storeId, day: '2026-11-24' },
    });
    expect(run.statusCode, run.body).toBe(200);
    const after = await scrape();
    expect(sample(after, 'mise_task_generation_runs_total', generated)).toBe(before + 1);
    expect(after).toMatch(/^mise_task_generation_runs_total\{status="failed"\} 0$/m);
  });

  it('counts probe readings written and those received twice', async () => {
    const registered = await admin.inject({
      method: 'POST',
      url: '/api/probes',
      payload: { probeUID: 'metrics-probe-1', name: 'Cold room', storeId },
    });
    expect(registered.statusCode, registered.body).toBe(200);
    const secret = registered.json().secret as string;
    const before = await scrape();
    const now = Date.now();
    const readings = [3, 2, 1].map((minutesAgo) => ({
      timestamp: new Date(now - minutesAgo * 60_000).toISOString(),
      temperature: 3.5,
      batteryLevel: 80,
    }));
    const post = (payload: object) =>
      context.app.inject({
        method: 'POST',
        url: '/api/probes/readings/metrics-probe-1',
        headers: { authorization: `Bearer ${secret}` },
        payload,
      });
    expect((await post({ readings })).json()).toEqual({ accepted: 3, duplicates: 0 });
    expect((await post({ readings: readings.slice(0, 1) })).json()).toEqual({
      accepted: 0,
      duplicates: 1,
    });
    const after = await scrape();
    expect(sample(after, 'mise_probe_readings_ingested_total')).toBe(
      sample(before, 'mise_probe_readings_ingested_total') + 3,
    );
    expect(sample(after, 'mise_probe_readings_duplicates_total')).toBe(
      sample(before, 'mise_probe_readings_duplicates_total') + 1,
    );

    // An episode opens on that probe: the gauge reads it at the next scrape.
    const [probe] = await context.db
      .select()
      .from(probes)
      .where(eq(probes.probe_uid, 'metrics-probe-1'));
    expect(sample(after, 'mise_alert_episodes_open', { kind: 'offline' })).toBe(0);
    await context.db.insert(alertEpisodes).values({
      probe_id: probe!.id,
      store_id: storeId,
      kind: 'offline',
      started_at: new Date(now - 3_600_000),
      delay_minutes: 60,
    });
    const withEpisode = await scrape();
    expect(sample(withEpisode, 'mise_alert_episodes_open', { kind: 'offline' })).toBe(1);
    expect(sample(withEpisode, 'mise_alert_episodes_unacknowledged', { kind: 'offline' })).toBe(1);
    expect(withEpisode).toMatch(/^mise_alert_episodes_open\{kind="out_of_range"\} 0$/m);
  });

  it('reads the job queue depth at each scrape', async () => {
    const queue = await startJobQueue(
      context.database,
      [{ name: 'metrics-later', cron: '0 0 1 1 *', handler: async () => {} }],
      { error: () => {} },
    );
    queues.push(queue);
    const state = { queue: 'metrics-later', state: 'created' };
    expect(sample(await scrape(), 'mise_job_queue_jobs', state)).toBe(0);
    await queue.boss.send('metrics-later', {}, { startAfter: 3600 });
    expect(sample(await scrape(), 'mise_job_queue_jobs', state)).toBe(1);
  }, 30_000);

  it('never writes the token in a log line', async () => {
    await context.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(logLines.length).toBeGreaterThan(10);
    expect(logLines.filter((line) => line.includes(token))).toEqual([]);
    expect(logLines.filter((line) => line.includes(token.slice(0, 20)))).toEqual([]);
  });
});
