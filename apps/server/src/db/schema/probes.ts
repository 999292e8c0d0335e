import { sql } from 'drizzle-orm';
import {
  boolean,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { devices, stores } from './organisation';
import { employees } from './tasks';
import { users } from './users';

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
    /** Out of range must last this long before an alert opens (issue 15; default 15 min). */
    alert_delay_minutes: integer('alert_delay_minutes').notNull().default(15),
    /** The sensor provider's tag this probe mirrors (null for a probe registered by hand). */
    provider_tag_id: text('provider_tag_id'),
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

/**
 * Hourly rollup of probe_readings (issue 15): min, max, sum and count of each probe's hour
 * (UTC), added to by ingestion in the same statement as the readings it accepted, so a chart
 * of months or a year reads 8,760 rows a year instead of 105,000.
 */
export const probeReadingsHourly = pgTable(
  'probe_readings_hourly',
  {
    probe_id: uuid('probe_id')
      .notNull()
      .references(() => probes.id, { onDelete: 'cascade' }),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    minimum: real('minimum').notNull(),
    maximum: real('maximum').notNull(),
    total: doublePrecision('total').notNull(),
    count: integer('count').notNull(),
    battery_level: smallint('battery_level'),
  },
  (table) => [primaryKey({ columns: [table.probe_id, table.hour] })],
);

/**
 * Alert episodes (issue 15): one row from the moment a probe's condition (out of range for
 * the delay, offline, low battery) opens until it resolves by itself; at most one open row per
 * (probe, kind). The thresholds in force at opening are kept with it, and the acknowledgement
 * (who, when, the corrective action) is written once. Part of the store's HACCP records.
 */
export const alertEpisodes = pgTable(
  'alert_episodes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    probe_id: uuid('probe_id')
      .notNull()
      .references(() => probes.id, { onDelete: 'cascade' }),
    store_id: uuid('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['out_of_range', 'offline', 'low_battery'] }).notNull(),
    /** When the condition began (the first reading out of range, the last reading heard). */
    started_at: timestamp('started_at', { withTimezone: true }).notNull(),
    /** When the engine opened the episode (started_at + the delay, at the latest tick). */
    opened_at: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    resolved_at: timestamp('resolved_at', { withTimezone: true }),
    minimum_temperature: real('minimum_temperature'),
    maximum_temperature: real('maximum_temperature'),
    delay_minutes: integer('delay_minutes').notNull(),
    /** The reading furthest out of range (or the lowest battery) seen during the episode. */
    worst_value: real('worst_value'),
    last_value: real('last_value'),
    /** 0 owners, 1 the database's managers, 2 the distributor. */
    escalation_level: smallint('escalation_level').notNull().default(0),
    next_escalation_at: timestamp('next_escalation_at', { withTimezone: true }),
    acknowledged_at: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledged_by_user_id: uuid('acknowledged_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    acknowledged_by_employee_id: uuid('acknowledged_by_employee_id').references(
      () => employees.id,
      { onDelete: 'set null' },
    ),
    /** The name at the time, so the record stays attributable. */
    acknowledged_by_name: text('acknowledged_by_name'),
    corrective_action: text('corrective_action'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('alert_episodes_open_idx')
      .on(table.probe_id, table.kind)
      .where(sql`${table.resolved_at} is null`),
    index('alert_episodes_store_started_idx').on(table.store_id, table.started_at),
    index('alert_episodes_probe_started_idx').on(table.probe_id, table.started_at),
    index('alert_episodes_escalation_idx')
      .on(table.next_escalation_at)
      .where(sql`${table.acknowledged_at} is null and ${table.resolved_at} is null`),
  ],
);

/**
 * Every notification of an episode, once per (episode, level, recipient, channel): the unique
 * key makes a second server instance's attempt write nothing and send nothing.
 */
export const alertNotifications = pgTable(
  'alert_notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    episode_id: uuid('episode_id')
      .notNull()
      .references(() => alertEpisodes.id, { onDelete: 'cascade' }),
    level: smallint('level').notNull(),
    /** A user's id, or a device's id for a tablet. */
    recipient: text('recipient').notNull(),
    channel: text('channel', { enum: ['email', 'push', 'tablet'] }).notNull(),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sent_at: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('alert_notifications_once_idx').on(
      table.episode_id,
      table.level,
      table.recipient,
      table.channel,
    ),
  ],
);

/**
 * Web Push subscriptions (VAPID): a back-office user's browser or a paired tablet. A
 * subscription the push service answers 404/410 for is deleted.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    device_id: uuid('device_id').references(() => devices.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    language: text('language'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('push_subscriptions_endpoint_idx').on(table.endpoint),
    index('push_subscriptions_user_idx').on(table.user_id),
    index('push_subscriptions_device_idx').on(table.device_id),
  ],
);
