import type { Quiz, TargetInput } from '@mise/shared/communications/schemas';
import type { TrainingLanguage, TrainingType } from '@mise/shared/trainings/rules';
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
import { databases, devices, distributors, stores } from './organisation';
import { employees } from './tasks';
import { users } from './users';

/** A section as stored: its attachment's storage key and content type. */
export type StoredTrainingSection = {
  id: string;
  title: string;
  attachment: { name: string; path: string; content_type: string } | null;
  quiz: Quiz;
};

/** Spec 002 §3 training_categories: named per owner (source and type), made on demand. */
export const trainingCategories = pgTable(
  'training_categories',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    type: text('type').$type<TrainingType>().notNull(),
    /** The owner's id (null for global categories). */
    source: uuid('source'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('training_categories_name_idx').on(
      table.type,
      sql`coalesce(${table.source}, '00000000-0000-0000-0000-000000000000'::uuid)`,
      sql`lower(${table.name})`,
    ),
  ],
);

/**
 * Trainings (spec 002 §3, issue 18): global, or owned by a distributor, a database or a store
 * (`source`, with the matching foreign key so an owner's removal takes its trainings).
 */
export const trainings = pgTable(
  'trainings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(false),
    lang: text('lang').$type<TrainingLanguage>().notNull().default('fr'),
    type: text('type').$type<TrainingType>().notNull(),
    source: uuid('source'),
    distributor_id: uuid('distributor_id').references(() => distributors.id, {
      onDelete: 'cascade',
    }),
    database_id: uuid('database_id').references(() => databases.id, { onDelete: 'cascade' }),
    store_id: uuid('store_id').references(() => stores.id, { onDelete: 'cascade' }),
    required: boolean('required').notNull().default(false),
    category_id: uuid('category_id').references(() => trainingCategories.id, {
      onDelete: 'set null',
    }),
    sections: jsonb('sections').$type<StoredTrainingSection[]>().notNull().default([]),
    target: jsonb('target').$type<TargetInput>().notNull(),
    created_by: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    created_by_name: text('created_by_name'),
    version: integer('version').notNull().default(1),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('trainings_type_source_idx').on(table.type, table.source, sql`lower(${table.name})`),
    index('trainings_database_idx').on(table.database_id),
    index('trainings_distributor_idx').on(table.distributor_id),
    index('trainings_store_idx').on(table.store_id),
  ],
);

/** Spec 002 §3 training result: one per employee and training. */
export const trainingResults = pgTable(
  'training_results',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    training_id: uuid('training_id')
      .notNull()
      .references(() => trainings.id, { onDelete: 'cascade' }),
    store_id: uuid('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    store_database: uuid('store_database'),
    store_distributor: uuid('store_distributor'),
    employee_id: uuid('employee_id')
      .notNull()
      .references(() => employees.id, { onDelete: 'cascade' }),
    skipped_count: integer('skipped_count').notNull().default(0),
    time_spent: integer('time_spent').notNull().default(0),
    completed_at: timestamp('completed_at', { withTimezone: true }),
    answers: jsonb('answers').$type<Record<string, Record<string, string[]>>>(),
    first_seen_at: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('training_results_employee_idx').on(table.training_id, table.employee_id),
    index('training_results_store_idx').on(table.training_id, table.store_id, table.completed_at),
    index('training_results_completed_idx')
      .on(table.training_id, table.completed_at)
      .where(sql`${table.completed_at} is not null`),
  ],
);

/** Each tablet step by its idempotency key (see communication_result_steps). */
export const trainingResultSteps = pgTable(
  'training_result_steps',
  {
    store_id: uuid('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    idempotency_key: text('idempotency_key').notNull(),
    result_id: uuid('result_id')
      .notNull()
      .references(() => trainingResults.id, { onDelete: 'cascade' }),
    device_id: uuid('device_id').references(() => devices.id, { onDelete: 'set null' }),
    action: text('action', { enum: ['view', 'skip', 'complete'] }).notNull(),
    time_spent: integer('time_spent').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('training_result_steps_key_idx').on(table.store_id, table.idempotency_key),
    index('training_result_steps_result_idx').on(table.result_id),
  ],
);
