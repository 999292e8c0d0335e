import {
  instanceLiveMs,
  type ProfilingSnapshot,
  profilingWindowSize,
  type ServerInstance,
} from '@mise/shared/operations/schemas';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { serverInstanceReplies, serverInstances, serverProfilingSnapshots } from '../../db/schema';
import type { ProcessSample } from './process-sampler';

/*
 * The server instances' heartbeats and profiling snapshots in PostgreSQL (issue 20). Heartbeats
 * and liveness use the database's clock (now()), so the instances' own clocks never disagree.
 */

/** Instances not seen for this long are forgotten (their snapshots with them). */
export const instanceRetention = '1 day';
/** Relayed answers nobody read (the asker gave up) are deleted after this. */
export const replyRetention = '1 minute';

export type InstanceIdentity = {
  id: string;
  host: string;
  version: string;
  pid: number;
  startedAt: Date;
};

/** Writes the instance's row (again: a pruned or restored row comes back) and its heartbeat. */
export async function recordHeartbeat(db: Database, identity: InstanceIdentity): Promise<void> {
  await db
    .insert(serverInstances)
    .values({
      id: identity.id,
      host: identity.host,
      version: identity.version,
      pid: identity.pid,
      started_at: identity.startedAt,
      last_seen_at: sql`now()`,
    })
    .onConflictDoUpdate({
      target: serverInstances.id,
      set: { last_seen_at: sql`now()`, stopped_at: null },
    });
}

export async function recordStopped(db: Database, instanceId: string): Promise<void> {
  await db
    .update(serverInstances)
    .set({ stopped_at: sql`now()` })
    .where(eq(serverInstances.id, instanceId));
}

/** Forgets instances not seen for a day and relayed answers left unread. */
export async function pruneInstances(db: Database): Promise<void> {
  await db
    .delete(serverInstances)
    .where(sql`${serverInstances.last_seen_at} < now() - ${instanceRetention}::interval`);
  await db
    .delete(serverInstanceReplies)
    .where(sql`${serverInstanceReplies.created_at} < now() - ${replyRetention}::interval`);
}

/** Stores one snapshot and drops this instance's snapshots beyond the window. */
export async function recordSnapshot(
  db: Database,
  instanceId: string,
  sample: ProcessSample,
  takenAt: Date,
  windowSize = profilingWindowSize,
): Promise<void> {
  await db
    .insert(serverProfilingSnapshots)
    .values({
      instance_id: instanceId,
      taken_at: takenAt,
      cpu_usage_percent: sample.cpuUsagePercent,
      memory_usage_percent: sample.memoryUsagePercent,
    })
    .onConflictDoNothing();
  await db.execute(sql`
    delete from ${serverProfilingSnapshots}
    where ${serverProfilingSnapshots.instance_id} = ${instanceId}
      and ${serverProfilingSnapshots.taken_at} < (
        select taken_at from ${serverProfilingSnapshots}
        where instance_id = ${instanceId}
        order by taken_at desc
        offset ${windowSize - 1} limit 1
      )`);
}

const isLive = sql<boolean>`(${serverInstances.stopped_at} is null and ${serverInstances.last_seen_at} > now() - ${instanceLiveMs}::int * interval '1 millisecond')`;

type InstanceRow = Omit<ServerInstance, 'is_current'> & { stopped_at: string | null };

const instanceColumns = {
  id: serverInstances.id,
  host: serverInstances.host,
  version: serverInstances.version,
  pid: serverInstances.pid,
  started_at: serverInstances.started_at,
  last_seen_at: serverInstances.last_seen_at,
  stopped_at: serverInstances.stopped_at,
  is_live: isLive,
};

function presentInstance(row: {
  id: string;
  host: string;
  version: string;
  pid: number;
  started_at: Date;
  last_seen_at: Date;
  stopped_at: Date | null;
  is_live: boolean;
}): InstanceRow {
  return {
    ...row,
    started_at: row.started_at.toISOString(),
    last_seen_at: row.last_seen_at.toISOString(),
    stopped_at: row.stopped_at?.toISOString() ?? null,
  };
}

/** The instances seen in the last day: live ones first, then the most recently seen. */
export async function listInstances(db: Database, currentId: string): Promise<ServerInstance[]> {
  const rows = await db
    .select(instanceColumns)
    .from(serverInstances)
    .where(sql`${serverInstances.last_seen_at} >= now() - ${instanceRetention}::interval`)
    .orderBy(desc(isLive), desc(serverInstances.last_seen_at), desc(serverInstances.started_at));
  return rows.map((row) => {
    const { stopped_at: _stoppedAt, ...instance } = presentInstance(row);
    return { ...instance, is_current: row.id === currentId };
  });
}

export async function findInstance(db: Database, id: string): Promise<InstanceRow | null> {
  const [row] = await db
    .select(instanceColumns)
    .from(serverInstances)
    .where(eq(serverInstances.id, id));
  return row ? presentInstance(row) : null;
}

/** The instance's snapshots, oldest first, at most the window. */
export async function listSnapshots(
  db: Database,
  instanceId: string,
  windowSize = profilingWindowSize,
): Promise<ProfilingSnapshot[]> {
  const rows = await db
    .select({
      taken_at: serverProfilingSnapshots.taken_at,
      cpu: serverProfilingSnapshots.cpu_usage_percent,
      memory: serverProfilingSnapshots.memory_usage_percent,
    })
    .from(serverProfilingSnapshots)
    .where(and(eq(serverProfilingSnapshots.instance_id, instanceId)))
    .orderBy(desc(serverProfilingSnapshots.taken_at))
    .limit(windowSize);
  return rows.reverse().map((row) => ({
    cpuUsagePercent: row.cpu,
    memoryUsagePercent: row.memory,
    timestamp: row.taken_at.toISOString(),
  }));
}
