import { sql } from 'drizzle-orm';
import {
  boolean,
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
import { databases, devices, stores } from './organisation';
import { employees } from './tasks';
import { users } from './users';

/*
 * People (spec 001 §3.9–§3.11, spec 000 §3): employee roles and store tags of a database,
 * and punch cards. A punch card is a row per entry (the spec's per-employee-per-year document
 * of store → day → entries), indexed by store and day so a year of a store reads in one query.
 */

/** Employee roles of a database (spec 001 §3.10): never deleted, only deactivated. */
export const employeeRoles = pgTable(
  'employee_roles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    database_id: uuid('database_id')
      .notNull()
      .references(() => databases.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    features_permissions: jsonb('features_permissions')
      .$type<Record<string, boolean>>()
      .notNull()
      .default({}),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('employee_roles_database_idx').on(table.database_id, table.name)],
);

/** Store tags of a database (spec 001 §3.9): a removed tag is only marked inactive. */
export const storeTags = pgTable(
  'store_tags',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    database_id: uuid('database_id')
      .notNull()
      .references(() => databases.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('store_tags_database_idx').on(table.database_id),
    // Two active tags of a database never share a name (case-insensitive).
    uniqueIndex('store_tags_active_name_idx')
      .on(table.database_id, sql`lower(${table.name})`)
      .where(sql`${table.active}`),
  ],
);

/** Which stores carry which tag (the spec's store.tags list). */
export const storeTagLinks = pgTable(
  'store_tag_links',
  {
    tag_id: uuid('tag_id')
      .notNull()
      .references(() => storeTags.id, { onDelete: 'cascade' }),
    store_id: uuid('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
  },
  (table) => [
    primaryKey({ columns: [table.tag_id, table.store_id] }),
    index('store_tag_links_store_idx').on(table.store_id),
  ],
);

/**
 * Punch entries (spec 000 §3, §4). `timestamp` is the clock time and never changes;
 * `timestamp_modified` is a manager's correction and wins. A deleted entry keeps its row
 * (`deleted_at`): the original clock time is never lost. `day` is the store's calendar day of
 * the effective time.
 */
export const punchEntries = pgTable(
  'punch_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    store_id: uuid('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    employee_id: uuid('employee_id')
      .notNull()
      .references(() => employees.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    is_in: boolean('is_in').notNull(),
    timestamp: timestamp('timestamp', { withTimezone: true }).notNull(),
    timestamp_modified: timestamp('timestamp_modified', { withTimezone: true }),
    incoherent: boolean('incoherent').notNull().default(false),
    source: text('source').$type<'device' | 'back-office'>().notNull(),
    device_id: uuid('device_id').references(() => devices.id, { onDelete: 'set null' }),
    selfie_path: text('selfie_path'),
    /** A tablet's retry key: the same key applies once per store. */
    idempotency_key: text('idempotency_key'),
    request_hash: text('request_hash'),
    deleted_at: timestamp('deleted_at', { withTimezone: true }),
    version: integer('version').notNull().default(0),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('punch_entries_store_day_idx').on(table.store_id, table.day),
    index('punch_entries_employee_day_idx').on(table.employee_id, table.day),
    uniqueIndex('punch_entries_store_key_idx').on(table.store_id, table.idempotency_key),
  ],
);

/** Every change of a punch entry: who, when, from what to what (HACCP-style records). */
export const punchEntryRevisions = pgTable(
  'punch_entry_revisions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    entry_id: uuid('entry_id')
      .notNull()
      .references(() => punchEntries.id, { onDelete: 'cascade' }),
    store_id: uuid('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    action: text('action').$type<'create' | 'update' | 'delete'>().notNull(),
    before: jsonb('before').$type<Record<string, unknown> | null>(),
    after: jsonb('after').$type<Record<string, unknown> | null>(),
    user_id: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    employee_id: uuid('employee_id'),
    device_id: uuid('device_id'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('punch_entry_revisions_entry_idx').on(table.entry_id, table.created_at),
    // The records verifier lists a store's revisions of a period (issue 21).
    index('punch_entry_revisions_store_time_idx').on(table.store_id, table.created_at),
  ],
);
