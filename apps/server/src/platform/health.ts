import { getHeapStatistics } from 'node:v8';
import underPressure from '@fastify/under-pressure';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Config } from '../config';
import type { DatabaseHandle } from '../db/client';
import { isMigrating, migrationLockKey } from '../db/migrate';
import { AppError } from './errors';

/*
 * Readiness and load shedding (issue 20). GET /api/health (app.ts) is liveness: the process
 * answers. GET /api/ready tells the load balancer whether to send traffic here: not while a
 * migration runs (in this process, or in any instance: the migrator's advisory lock is held)
 * and not while the database does not answer. Under load the server refuses requests early
 * with 503 'server/overloaded' (@fastify/under-pressure) rather than falling over; health,
 * readiness and /metrics keep answering so the operator sees why.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** @fastify/under-pressure's per-route handler (answersUnderPressure lets the route run). */
    pressureHandler?: (
      request: FastifyRequest,
      reply: FastifyReply,
      type: string,
      value: number | undefined,
    ) => Promise<void> | void;
  }
}

/** Route config of the answers that stay up under load: health, readiness, metrics. */
export const answersUnderPressure = { pressureHandler: () => undefined };

/** A readiness check answers within this, or counts as the database not answering. */
export const readinessTimeoutMs = 2000;
/** The Retry-After of a shed request, in seconds. */
export const overloadRetryAfterSeconds = 10;

/** Rejects when `promise` takes longer than `ms` (the work itself is not cancelled). */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export type NotReadyReason = 'migrating' | 'database-unreachable';
export type Readiness = { isReady: true } | { isReady: false; reason: NotReadyReason };

/**
 * Whether any session of this database holds the migrator's advisory lock (pg_advisory_lock
 * of one bigint key: classid is its high 32 bits, objid its low 32 bits, objsubid 1). One
 * query that also proves the database answers. PGlite is this process only: `select 1`.
 */
async function isMigrationLockHeld(database: DatabaseHandle): Promise<boolean> {
  if (database.driver === 'pglite') {
    await database.db.execute(sql`select 1`);
    return false;
  }
  const key = BigInt(migrationLockKey);
  const result = (await database.db.execute(sql`
    select exists (
      select 1 from pg_locks
       where locktype = 'advisory' and granted
         and database = (select oid from pg_database where datname = current_database())
         and classid = ${Number(key >> 32n)}::oid and objid = ${Number(key & 0xffffffffn)}::oid
         and objsubid = 1
    ) as "isHeld"`)) as unknown as { rows: { isHeld: boolean }[] };
  return result.rows[0]?.isHeld === true;
}

export async function checkReadiness(
  database: DatabaseHandle,
  timeoutMs = readinessTimeoutMs,
): Promise<Readiness> {
  if (isMigrating()) return { isReady: false, reason: 'migrating' };
  try {
    if (await withTimeout(isMigrationLockHeld(database), timeoutMs)) {
      return { isReady: false, reason: 'migrating' };
    }
  } catch {
    return { isReady: false, reason: 'database-unreachable' };
  }
  return { isReady: true };
}

export function registerReadiness(app: FastifyInstance, database: DatabaseHandle): void {
  app.get(
    '/api/ready',
    {
      config: answersUnderPressure,
      // Load balancers ask every few seconds: only failures are worth a log line.
      logLevel: 'warn',
      schema: {
        tags: ['health'],
        response: {
          200: z.object({ status: z.literal('ready') }),
          503: z.object({
            status: z.literal('not-ready'),
            reason: z.enum(['migrating', 'database-unreachable']),
          }),
        },
      },
    },
    async (request, reply) => {
      const readiness = await checkReadiness(database);
      if (readiness.isReady) return { status: 'ready' as const };
      request.log.warn({ reason: readiness.reason }, 'not ready');
      return reply.status(503).send({ status: 'not-ready' as const, reason: readiness.reason });
    },
  );
}

export type LoadSheddingThresholds = {
  /** Mean event-loop delay over a sample (1 s), in ms; 0: not checked. */
  maxEventLoopDelayMs: number;
  /** V8 heap in use, in bytes; 0: not checked. */
  maxHeapUsedBytes: number;
  /** Resident memory of the process, in bytes; 0: not checked. */
  maxRssBytes: number;
};

const megabyte = 1024 * 1024;

/** The configured thresholds, or their defaults (all off under NODE_ENV=test). */
export function loadSheddingThresholds(
  config: Pick<
    Config,
    | 'NODE_ENV'
    | 'LOAD_SHEDDING_MAX_EVENT_LOOP_DELAY_MS'
    | 'LOAD_SHEDDING_MAX_HEAP_USED_MB'
    | 'LOAD_SHEDDING_MAX_RSS_MB'
  >,
): LoadSheddingThresholds {
  const isTest = config.NODE_ENV === 'test';
  const heapMb = config.LOAD_SHEDDING_MAX_HEAP_USED_MB;
  return {
    maxEventLoopDelayMs: config.LOAD_SHEDDING_MAX_EVENT_LOOP_DELAY_MS ?? (isTest ? 0 : 1000),
    maxHeapUsedBytes:
      heapMb !== undefined
        ? heapMb * megabyte
        : isTest
          ? 0
          : Math.floor(getHeapStatistics().heap_size_limit * 0.9),
    maxRssBytes: (config.LOAD_SHEDDING_MAX_RSS_MB ?? 0) * megabyte,
  };
}

/**
 * Load shedding: while a threshold is passed (sampled every second), every request but the
 * ones configured with answersUnderPressure answers 503 'server/overloaded' with Retry-After,
 * before any work (authentication, database) is done for it. Register before the routes.
 */
export async function registerLoadShedding(
  app: FastifyInstance,
  config: Parameters<typeof loadSheddingThresholds>[0],
  options: { onShed?: (reason: string) => void } = {},
): Promise<LoadSheddingThresholds> {
  const thresholds = loadSheddingThresholds(config);
  // Every check off (tests): no sampling timers at all.
  if (Object.values(thresholds).every((threshold) => threshold === 0)) return thresholds;
  let lastWarningAt = 0;
  await app.register(underPressure, {
    maxEventLoopDelay: thresholds.maxEventLoopDelayMs,
    maxHeapUsedBytes: thresholds.maxHeapUsedBytes,
    maxRssBytes: thresholds.maxRssBytes,
    retryAfter: overloadRetryAfterSeconds,
    pressureHandler: async (request, reply, type, value) => {
      options.onShed?.(type);
      // One line every 10 s at most while shedding: a log storm would add to the load.
      if (Date.now() - lastWarningAt > 10_000) {
        lastWarningAt = Date.now();
        request.log.warn({ type, value, thresholds }, 'overloaded: shedding load');
      }
      reply.header('retry-after', String(overloadRetryAfterSeconds));
      throw new AppError('server/overloaded');
    },
  });
  return thresholds;
}
