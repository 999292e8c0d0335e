import { z } from 'zod';
import { idSchema } from '../auth/schemas';

/*
 * The admin technical screen (spec 002 §2, §3, §7, §9; issue 20): the live server instances,
 * their profiling snapshots and their recent output. Admin only.
 */

/** Each instance samples its CPU and memory use this often (5 snapshots = one chart point). */
export const profilingSampleMs = 6_000;
/** Snapshots kept per instance: one hour at profilingSampleMs. */
export const profilingWindowSize = 600;
/** The admin screen polls the output this often (spec 002 §9). */
export const outputPollMs = 1_000;
/** The profiling chart refreshes this often (spec 002 §9). */
export const profilingRefreshMs = 30_000;
/** Snapshots averaged into one chart point (spec 002 §9). */
export const profilingGroupSize = 5;
/** Output lines kept per instance (the ring). */
export const outputRingSize = 1_000;
/** An instance is live when its heartbeat is younger than this. */
export const instanceLiveMs = 30_000;

/** GET /api/profiling/instances: the instances seen in the last day, live ones first. */
export const serverInstanceSchema = z.object({
  id: idSchema,
  host: z.string(),
  version: z.string(),
  pid: z.number().int(),
  started_at: z.string(),
  last_seen_at: z.string(),
  is_live: z.boolean(),
  /** The instance that answered this request. */
  is_current: z.boolean(),
});
export type ServerInstance = z.infer<typeof serverInstanceSchema>;
export const serverInstancesResponseSchema = z.object({ items: z.array(serverInstanceSchema) });

/** Profiling snapshot (spec 002 §3). */
export const profilingSnapshotSchema = z.object({
  cpuUsagePercent: z.number(),
  memoryUsagePercent: z.number(),
  timestamp: z.string(),
});
export type ProfilingSnapshot = z.infer<typeof profilingSnapshotSchema>;

/** GET /api/profiling/live?instanceId= (default: the instance answering). */
export const profilingLiveQuerySchema = z.strictObject({ instanceId: idSchema.optional() });
export const profilingLiveResponseSchema = z.object({
  instance_id: idSchema,
  /** Oldest first, at most profilingWindowSize. */
  items: z.array(profilingSnapshotSchema),
});
export type ProfilingLiveResponse = z.infer<typeof profilingLiveResponseSchema>;

export const outputLevels = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
export type OutputLevel = (typeof outputLevels)[number];

/** GET /api/profiling/output?instanceId=&after=&level= */
export const profilingOutputQuerySchema = z.strictObject({
  instanceId: idSchema.optional(),
  /** Only lines after this sequence number (the previous answer's `last_seq`). */
  after: z.coerce.number().int().min(0).optional(),
  /** Only lines at this level or above. */
  level: z.enum(outputLevels).optional(),
});
export const outputLineSchema = z.object({
  /** Increasing per instance, from its start. */
  seq: z.number().int(),
  time: z.string(),
  level: z.enum(outputLevels),
  msg: z.string(),
  /** The whole structured line as JSON, secrets redacted. */
  line: z.string(),
});
export type OutputLine = z.infer<typeof outputLineSchema>;
export const profilingOutputResponseSchema = z.object({
  instance_id: idSchema,
  items: z.array(outputLineSchema),
  /** The last sequence number this instance wrote (send it as `after` next time). */
  last_seq: z.number().int(),
});
export type ProfilingOutputResponse = z.infer<typeof profilingOutputResponseSchema>;
