import type { Quiz, TargetInput } from '@mise/shared/communications/schemas';
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { databases, devices, stores } from './organisation';
import { employees } from './tasks';
import { users } from './users';

/*
 * Communications (spec 002 §3, issue 18): an announcement of a database with an attachment and
 * an optional quiz, aimed at stores, store groups and employee roles, running from 00:00:00 of
 * its first day to 23:59:59 of its last in the database's zone.
 */
export const communications = pgTable(
  'communications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    database_id: uuid('database_id')
      .notNull()
      .references(() => databases.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    start_day: text('start_day').notNull(),
    end_day: text('end_day').notNull(),
    /** The zone the days were read in (the database's first store's, Europe/Paris without). */
    time_zone: text('time_zone').notNull(),
    start_at: timestamp('start_at', { withTimezone: true }).notNull(),
    end_at: timestamp('end_at', { withTimezone: true }).notNull(),
    attachment_name: text('attachment_name'),
    attachment_path: text('attachment_path'),
    attachment_content_type: text('attachment_content_type'),
    quiz: jsonb('quiz').$type<Quiz>().notNull().default({ questions: [] }),
    target: jsonb('target').$type<TargetInput>().notNull(),
    created_by: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    created_by_name: text('created_by_name'),
    version: integer('version').notNull().default(1),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('communications_database_idx').on(table.database_id, table.start_at),
    // The tablet's and the home panel's "running now".
    index('communications_running_idx')
      .on(table.database_id, table.end_at, table.start_at)
      .where(sql`${table.active}`),
  ],
);

/**
 * An employee's reading of a communication (spec 002 §3 communication result): one row per
 * employee and communication, the store where it was read, the time spent, the skips and the
 * completion (stamped once, by the server).
 */
export const communicationResults = pgTable(
  'communication_results',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    communication_id: uuid('communication_id')
      .notNull()
      .references(() => communications.id, { onDelete: 'cascade' }),
    database_id: uuid('database_id').notNull(),
    store_id: uuid('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    employee_id: uuid('employee_id')
      .notNull()
      .references(() => employees.id, { onDelete: 'cascade' }),
    skipped_count: integer('skipped_count').notNull().default(0),
    /** Seconds the attachment was open and visible, summed over the readings. */
    time_spent: integer('time_spent').notNull().default(0),
    completed_at: timestamp('completed_at', { withTimezone: true }),
    answers: jsonb('answers').$type<Record<string, string[]>>(),
    first_seen_at: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('communication_results_employee_idx').on(table.communication_id, table.employee_id),
    // Statistics: per store, and completions by day.
    index('communication_results_store_idx').on(
      table.communication_id,
      table.store_id,
      table.completed_at,
    ),
    // An employee's completed communications (spec 000 Employee completed_communications).
    index('communication_results_by_employee_idx').on(table.employee_id, table.completed_at),
    index('communication_results_completed_idx')
      .on(table.communication_id, table.completed_at)
      .where(sql`${table.completed_at} is not null`),
  ],
);

/**
 * Each step a tablet sent (view, skip, complete) by its idempotency key: a retried request
 * finds its key and changes nothing twice.
 */
export const communicationResultSteps = pgTable(
  'communication_result_steps',
  {
    store_id: uuid('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    idempotency_key: text('idempotency_key').notNull(),
    result_id: uuid('result_id')
      .notNull()
      .references(() => communicationResults.id, { onDelete: 'cascade' }),
    device_id: uuid('device_id').references(() => devices.id, { onDelete: 'set null' }),
    action: text('action', { enum: ['view', 'skip', 'complete'] }).notNull(),
    time_spent: integer('time_spent').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('communication_result_steps_key_idx').on(table.store_id, table.idempotency_key),
    index('communication_result_steps_result_idx').on(table.result_id),
  ],
);
