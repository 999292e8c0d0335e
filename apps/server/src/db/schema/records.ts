import {
  bigint,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { databases, stores } from './organisation';
import { users } from './users';

/*
 * Records an inspector trusts (issue 21): a per-store hash chain over every HACCP record
 * revision, its daily checkpoints, the inspector pack and read-only inspector links, and the
 * retention of records per database.
 */

/**
 * One entry per HACCP record revision, appended in the transaction that writes the revision:
 * `record_hash` is the sha256 of the revision's canonical JSON, `entry_hash` the sha256 of the
 * entry itself (store, seq, kind, record, record_hash, prev_hash, time), `prev_hash` the
 * previous entry's `entry_hash` (64 zeros for the first).
 */
export const recordChainEntries = pgTable(
  'record_chain_entries',
  {
    store_id: uuid('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    kind: text('kind').notNull(),
    /** The record revision covered (for a day's probe readings: `<probe id>:<day>`). */
    record_id: text('record_id').notNull(),
    record_hash: text('record_hash').notNull(),
    prev_hash: text('prev_hash').notNull(),
    entry_hash: text('entry_hash').notNull(),
    /** Extra facts the verifier needs (a tombstone's range and signature); null for most. */
    details: jsonb('details').$type<Record<string, unknown>>(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.store_id, table.seq] }),
    index('record_chain_entries_record_idx').on(table.store_id, table.kind, table.record_id),
    index('record_chain_entries_time_idx').on(table.store_id, table.created_at),
  ],
);

/** The chain's head per store: locked FOR UPDATE by each append (one writer per store). */
export const recordChainHeads = pgTable('record_chain_heads', {
  store_id: uuid('store_id')
    .primaryKey()
    .references(() => stores.id, { onDelete: 'cascade' }),
  seq: bigint('seq', { mode: 'number' }).notNull().default(0),
  head_hash: text('head_hash').notNull(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The chain's head at the end of each store day, kept and publishable (e-mail, store page). */
export const recordChainCheckpoints = pgTable(
  'record_chain_checkpoints',
  {
    store_id: uuid('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    head_hash: text('head_hash').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    published_at: timestamp('published_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.store_id, table.day] })],
);

/** An inspector pack (ZIP) of one store and period, built as a job. */
export const inspectorPacks = pgTable(
  'inspector_packs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    store_id: uuid('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    period_start: date('period_start', { mode: 'string' }).notNull(),
    period_end: date('period_end', { mode: 'string' }).notNull(),
    status: text('status').$type<'queued' | 'running' | 'done' | 'failed'>().notNull(),
    /** 0 to 100. */
    progress: integer('progress').notNull().default(0),
    file_path: text('file_path'),
    file_size: bigint('file_size', { mode: 'number' }),
    manifest: jsonb('manifest').$type<Record<string, unknown>>(),
    error: text('error'),
    created_by: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** Built for an inspector link (no account). */
    inspector_link_id: uuid('inspector_link_id'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finished_at: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [index('inspector_packs_store_idx').on(table.store_id, table.created_at)],
);

/** A read-only link for an inspector: one store, one period, expiring (at most 7 days). */
export const inspectorLinks = pgTable(
  'inspector_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    store_id: uuid('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    /** sha256 of the link's secret token (the token itself is never stored). */
    token_hash: text('token_hash').notNull(),
    label: text('label').notNull().default(''),
    period_start: date('period_start', { mode: 'string' }).notNull(),
    period_end: date('period_end', { mode: 'string' }).notNull(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    created_by: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
    revoked_by: uuid('revoked_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    uniqueIndex('inspector_links_token_idx').on(table.token_hash),
    index('inspector_links_store_idx').on(table.store_id, table.created_at),
  ],
);

/** Each use of an inspector link (logged at each request). */
export const inspectorLinkUses = pgTable(
  'inspector_link_uses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    link_id: uuid('link_id')
      .notNull()
      .references(() => inspectorLinks.id, { onDelete: 'cascade' }),
    used_at: timestamp('used_at', { withTimezone: true }).notNull().defaultNow(),
    ip: text('ip'),
    user_agent: text('user_agent'),
    /** What was opened (a route pattern, never the token). */
    action: text('action').notNull(),
  },
  (table) => [index('inspector_link_uses_link_idx').on(table.link_id, table.used_at)],
);

/**
 * Retention per record type of a database, in months (null: the documented default); never
 * below the legal minimum the application enforces.
 */
export const retentionSettings = pgTable('retention_settings', {
  database_id: uuid('database_id')
    .primaryKey()
    .references(() => databases.id, { onDelete: 'cascade' }),
  task_results_months: integer('task_results_months'),
  punch_cards_months: integer('punch_cards_months'),
  probe_readings_months: integer('probe_readings_months'),
  audit_results_months: integer('audit_results_months'),
  documents_months: integer('documents_months'),
  updated_by: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
