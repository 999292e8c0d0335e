import { sql } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import type { DatabaseHandle } from '../db/client';

/*
 * The job queue (ARCHITECTURE.md "jobs"): pg-boss 10 (the last major on Node 20) in the
 * database's own `pgboss` schema. Recurring work is a cron schedule: pg-boss sends each
 * scheduled job once whatever the number of server instances, and one worker fetches it
 * (SKIP LOCKED), so a tick runs exactly once; jobs are rows, so a restart loses nothing.
 * On PostgreSQL pg-boss keeps a small pool of its own; on the embedded PGlite it runs its SQL
 * through the one PGlite connection (pg-boss's `db` adapter).
 */

export type RecurringJob = {
  name: string;
  /** A 5-field cron expression (UTC). */
  cron: string;
  handler: () => Promise<void>;
};

export type JobQueue = {
  boss: PgBoss;
  stop(): Promise<void>;
};

type Logger = { error(object: object, message: string): void };

/** pg-boss's tables live in their own schema. */
const jobQueueSchema = 'pgboss';

function bossOptions(database: DatabaseHandle): PgBoss.ConstructorOptions {
  const common = { schema: jobQueueSchema, application_name: 'mise-jobs' };
  if (database.pool) {
    const { connectionString } = database.pool.options as { connectionString?: string };
    return { ...common, connectionString, max: 3 };
  }
  const pglite = database.pglite;
  if (!pglite) throw new Error('job queue: no database connection');
  return {
    ...common,
    db: {
      async executeSql(text: string, values?: unknown[]) {
        // pg-boss sends its migrations as several statements without parameters (the simple
        // protocol on node-postgres): PGlite's exec runs those, query the parameterised ones.
        if (values && values.length > 0) return pglite.query(text, values);
        const results = await pglite.exec(text);
        return results.at(-1) ?? { rows: [] };
      },
    },
  };
}

/**
 * Starts the queue and its recurring jobs (one queue a job, one job at a time a queue: a tick
 * never overlaps the previous one). Returns a stop that waits for the jobs in progress.
 */
export async function startJobQueue(
  database: DatabaseHandle,
  jobs: RecurringJob[],
  log: Logger,
): Promise<JobQueue> {
  const boss = new PgBoss({ ...bossOptions(database), supervise: true, schedule: true });
  boss.on('error', (error) => log.error({ err: error }, 'job queue error'));
  await boss.start();
  for (const job of jobs) {
    await boss.createQueue(job.name, {
      name: job.name,
      policy: 'stately',
      retryLimit: 0,
      expireInSeconds: 10 * 60,
    });
    await boss.schedule(job.name, job.cron, {}, { tz: 'UTC' });
    await boss.work(job.name, { pollingIntervalSeconds: 2, batchSize: 1 }, async () => {
      try {
        await job.handler();
      } catch (error) {
        log.error({ err: error, job: job.name }, 'job failed');
        throw error;
      }
    });
  }
  return {
    boss,
    stop: () => boss.stop({ graceful: true, wait: true, timeout: 30_000 }),
  };
}

export type JobQueueDepth = { queue: string; state: 'created' | 'retry' | 'active'; count: number };

/**
 * The jobs waiting (created, retry) and running (active) per queue, read from pg-boss's own
 * table (the same count as its getQueueSize, all queues in one query; /metrics reads it at each
 * scrape, on any instance, whether or not its queue is started). Empty before pg-boss ever ran.
 */
export async function jobQueueDepths(database: DatabaseHandle): Promise<JobQueueDepth[]> {
  const exists = (await database.db.execute(
    sql`select to_regclass(${`${jobQueueSchema}.job`}) is not null as "isPresent"`,
  )) as unknown as { rows: { isPresent: boolean }[] };
  if (!exists.rows[0]?.isPresent) return [];
  const result = (await database.db.execute(sql`
    select name as queue, state::text as state, count(*)::int as count
      from ${sql.identifier(jobQueueSchema)}.job
     where state in ('created', 'retry', 'active')
     group by name, state`)) as unknown as { rows: JobQueueDepth[] };
  return result.rows.map((row) => ({ ...row, count: Number(row.count) }));
}
