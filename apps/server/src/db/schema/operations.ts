import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

/*
 * Running Mise as several stateless instances (issue 20, docs/operations.md): each instance
 * records a heartbeat, samples its own CPU and memory use, and answers questions about itself
 * (its recent output) for whichever instance the admin's request reached.
 */

/** One row per server process: written at start, refreshed every heartbeat (a few seconds). */
export const serverInstances = pgTable(
  'server_instances',
  {
    id: uuid('id').primaryKey(),
    host: text('host').notNull(),
    version: text('version').notNull(),
    pid: integer('pid').notNull(),
    started_at: timestamp('started_at', { withTimezone: true }).notNull(),
    last_seen_at: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    /** Set by a clean shutdown; a live instance has none. */
    stopped_at: timestamp('stopped_at', { withTimezone: true }),
  },
  (table) => [index('server_instances_last_seen_idx').on(table.last_seen_at)],
);

/** Profiling snapshots (spec 002 §3): a bounded window per instance, older rows pruned. */
export const serverProfilingSnapshots = pgTable(
  'server_profiling_snapshots',
  {
    instance_id: uuid('instance_id')
      .notNull()
      .references(() => serverInstances.id, { onDelete: 'cascade' }),
    taken_at: timestamp('taken_at', { withTimezone: true }).notNull(),
    cpu_usage_percent: real('cpu_usage_percent').notNull(),
    memory_usage_percent: real('memory_usage_percent').notNull(),
  },
  (table) => [primaryKey({ columns: [table.instance_id, table.taken_at] })],
);

/**
 * An instance's answer to a question relayed over LISTEN/NOTIFY (a NOTIFY payload is limited to
 * 8,000 bytes): the asking instance reads the row once notified, then deletes it.
 */
export const serverInstanceReplies = pgTable(
  'server_instance_replies',
  {
    id: uuid('id').primaryKey(),
    instance_id: uuid('instance_id').notNull(),
    body: jsonb('body').$type<unknown>().notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('server_instance_replies_created_idx').on(table.created_at)],
);
