import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { DatabaseHandle } from '../db/client';
import { AppError } from './errors';
import { answersUnderPressure, withTimeout } from './health';
import { jobQueueDepths } from './jobs';

/*
 * GET /metrics in Prometheus' text format (issue 20; names and alerts in docs/operations.md).
 * Off unless METRICS_TOKEN is set: then the route answers 404 (never the web app's page) and
 * nothing is measured. Each app has its own registry, so several apps in one process (tests)
 * never clash. Figures read from the database (job queue, alert episodes) are read at scrape
 * time; counters of work done outside requests (task generation, probe readings) arrive
 * through the record* functions below, whatever runs that work (scheduler, job, route).
 */

/** What the modules report; every app with metrics in this process receives it. */
type MetricsSink = {
  taskGenerationRuns(results: readonly { status: GenerationStatus; created: number }[]): void;
  probeReadings(accepted: number, duplicates: number): void;
};
type GenerationStatus = 'generated' | 'skipped' | 'failed';

const sinks = new Set<MetricsSink>();

/** Task generation: one run per (store, day) claimed, skipped or failed. Returns its input. */
export function recordTaskGenerationRuns<
  T extends readonly { status: GenerationStatus; created: number }[],
>(results: T): T {
  for (const sink of sinks) sink.taskGenerationRuns(results);
  return results;
}

/** Probe readings written (accepted) and those already kept (duplicates). */
export function recordProbeReadings(accepted: number, duplicates: number): void {
  for (const sink of sinks) sink.probeReadings(accepted, duplicates);
}

export type MetricsOptions = {
  /** METRICS_TOKEN; unset: /metrics answers 404 and nothing is collected. */
  token: string | undefined;
  database: DatabaseHandle;
  /** Server-sent event subscribers on this instance. */
  subscriberCount?: () => number;
  /** Unresolved alert episodes by kind (the alerts module's indexed count). */
  unresolvedAlertEpisodes?: () => Promise<{ kind: string; open: number; unacknowledged: number }[]>;
};

export type AppMetrics = {
  registry: Registry;
  /** A request refused by load shedding, by the check that refused it (under-pressure's type). */
  recordShed(reason: string): void;
};

/** Seconds; from a cached answer to a PDF or an upload's chunk. */
const latencyBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** A scrape never waits longer than this for a figure the database gives. */
const collectTimeoutMs = 2000;

const sha256 = (value: string) => createHash('sha256').update(value).digest();

function hasToken(authorization: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer (.+)$/.exec(authorization ?? '');
  // Hashes of equal length: the comparison takes the same time whatever the token sent.
  return match !== null && timingSafeEqual(sha256(match[1]!), expected);
}

export function registerMetrics(app: FastifyInstance, options: MetricsOptions): AppMetrics | null {
  const { token } = options;
  if (!token) {
    app.get('/metrics', { schema: { hide: true }, config: answersUnderPressure }, async () => {
      throw new AppError('not-found');
    });
    return null;
  }
  const expected = sha256(token);
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const log = (collector: string, error: unknown) =>
    app.log.warn({ err: error, collector }, 'a metric could not be read');

  const httpLabels = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({
    name: 'mise_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: httpLabels,
    registers,
  });
  const duration = new Histogram({
    name: 'mise_http_request_duration_seconds',
    help: 'Time to answer an HTTP request (server-sent event streams excluded), by route pattern.',
    labelNames: httpLabels,
    buckets: latencyBuckets,
    registers,
  });
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      // The route's pattern (/api/stores/:storeId), never the URL: bounded label values.
      route: request.routeOptions.url ?? '(unmatched)',
      status_code: String(reply.statusCode),
    };
    requests.inc(labels);
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/event-stream')) return;
    duration.observe(labels, reply.elapsedTime / 1000);
  });

  const shed = new Counter({
    name: 'mise_http_requests_shed_total',
    help: 'Requests refused with 503 by load shedding, by the check that refused them.',
    labelNames: ['reason'],
    registers,
  });
  new Gauge({
    name: 'mise_load_shedding_active',
    help: '1 while this instance sheds load (a pressure threshold is passed), else 0.',
    registers,
    collect() {
      this.set(app.hasDecorator('isUnderPressure') && app.isUnderPressure() ? 1 : 0);
    },
  });

  const { database } = options;
  const pool = database.pool;
  const poolGauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read());
      },
    });
  // The embedded PGlite is one connection, always open, with no pool to measure.
  poolGauge('mise_db_pool_max_connections', 'Connections the pool may open.', () =>
    pool ? (pool.options.max ?? 10) : 1,
  );
  poolGauge('mise_db_pool_connections', 'Connections open (busy or idle).', () =>
    pool ? pool.totalCount : 1,
  );
  if (pool) {
    poolGauge(
      'mise_db_pool_idle_connections',
      'Open connections not in use.',
      () => pool.idleCount,
    );
    poolGauge(
      'mise_db_pool_waiting_requests',
      'Queries waiting for a free connection (the pool is exhausted while above 0).',
      () => pool.waitingCount,
    );
  }

  new Gauge({
    name: 'mise_job_queue_jobs',
    help: 'Jobs of the queue (pg-boss) by queue and state: created and retry wait, active run.',
    labelNames: ['queue', 'state'],
    registers,
    async collect() {
      this.reset();
      try {
        const depths = await withTimeout(jobQueueDepths(database), collectTimeoutMs);
        for (const { queue, state, count } of depths) this.set({ queue, state }, count);
      } catch (error) {
        log('mise_job_queue_jobs', error);
      }
    },
  });

  const { unresolvedAlertEpisodes, subscriberCount } = options;
  if (unresolvedAlertEpisodes) {
    let pending: Promise<{ kind: string; open: number; unacknowledged: number }[]> | null = null;
    // One query for both gauges of a scrape.
    const read = () => {
      pending ??= withTimeout(unresolvedAlertEpisodes(), collectTimeoutMs).finally(() => {
        pending = null;
      });
      return pending;
    };
    const episodeGauge = (name: string, help: string, field: 'open' | 'unacknowledged') =>
      new Gauge({
        name,
        help,
        labelNames: ['kind'],
        registers,
        async collect() {
          this.reset();
          try {
            for (const row of await read()) this.set({ kind: row.kind }, row[field]);
          } catch (error) {
            log(name, error);
          }
        },
      });
    episodeGauge(
      'mise_alert_episodes_open',
      'Alert episodes whose condition is still on (not resolved), by kind.',
      'open',
    );
    episodeGauge(
      'mise_alert_episodes_unacknowledged',
      'Alert episodes still on that nobody acknowledged yet, by kind.',
      'unacknowledged',
    );
  }
  if (subscriberCount) {
    new Gauge({
      name: 'mise_sse_subscribers',
      help: 'Live update (server-sent events) subscribers on this instance.',
      registers,
      collect() {
        this.set(subscriberCount());
      },
    });
  }

  const generationRuns = new Counter({
    name: 'mise_task_generation_runs_total',
    help: 'Task generation runs, one per store and day: generated, skipped (already done) or failed.',
    labelNames: ['status'],
    registers,
  });
  const tasksCreated = new Counter({
    name: 'mise_task_generation_tasks_created_total',
    help: 'Tasks created by task generation.',
    registers,
  });
  for (const status of ['generated', 'skipped', 'failed'] as const)
    generationRuns.inc({ status }, 0);
  const readingsIngested = new Counter({
    name: 'mise_probe_readings_ingested_total',
    help: 'Probe readings written (posted by probes or pulled from the sensor provider).',
    registers,
  });
  const readingDuplicates = new Counter({
    name: 'mise_probe_readings_duplicates_total',
    help: 'Probe readings received again and skipped (already kept).',
    registers,
  });
  const sink: MetricsSink = {
    taskGenerationRuns(results) {
      for (const result of results) {
        generationRuns.inc({ status: result.status });
        tasksCreated.inc(result.created);
      }
    },
    probeReadings(accepted, duplicates) {
      readingsIngested.inc(accepted);
      readingDuplicates.inc(duplicates);
    },
  };
  sinks.add(sink);
  app.addHook('onClose', async () => {
    sinks.delete(sink);
  });

  app.get(
    '/metrics',
    { schema: { hide: true }, config: answersUnderPressure, logLevel: 'warn' },
    async (request, reply) => {
      if (!hasToken(request.headers.authorization, expected)) {
        throw new AppError('auth/unauthenticated');
      }
      const text = await registry.metrics();
      return reply.header('cache-control', 'no-store').type(registry.contentType).send(text);
    },
  );
  return {
    registry,
    recordShed(reason) {
      shed.inc({ reason });
    },
  };
}
