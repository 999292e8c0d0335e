import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { stores } from './organisation';

/**
 * Temperature probes (spec 000 §3 Probe, issue 15). A probe belongs to at most one store
 * (store_id; removeOwnership clears it). Its secret (the Bearer of its postUrl) is kept as its
 * SHA-256 only, like device tokens. last_* follow the newest reading ever received.
 */
export const probes = pgTable(
  'probes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    probe_uid: text('probe_uid').notNull().unique(),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    store_id: uuid('store_id').references(() => stores.id, { onDelete: 'set null' }),
    battery_level: smallint('battery_level'),
    minimum_temperature: real('minimum_temperature'),
    maximum_temperature: real('maximum_temperature'),
    critical_threshold: real('critical_threshold'),
    notify_temperature: real('notify_temperature'),
    /** Seconds (spec 000 §3); entered in minutes. */
    posting_interval: integer('posting_interval').notNull().default(300),
    push_notification: boolean('push_notification').notNull().default(false),
    last_temperature: real('last_temperature'),
    last_temperature_timestamp: timestamp('last_temperature_timestamp', { withTimezone: true }),
    secret_hash: text('secret_hash').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('probes_store_id_idx').on(table.store_id)],
);

/**
 * Readings, the fastest-growing table: PARTITIONED BY RANGE ("timestamp"), one partition a
 * month plus a DEFAULT one (hand-written in migration 0016, created ahead by
 * probes.service ensureProbeReadingPartitions). The primary key (probe, time) accepts a
 * reading once and serves the per-probe range reads. Never updated: HACCP records.
 */
export const probeReadings = pgTable(
  'probe_readings',
  {
    probe_id: uuid('probe_id')
      .notNull()
      .references(() => probes.id),
    timestamp: timestamp('timestamp', { withTimezone: true }).notNull(),
    temperature: real('temperature').notNull(),
    battery_level: smallint('battery_level'),
  },
  (table) => [primaryKey({ columns: [table.probe_id, table.timestamp] })],
);
