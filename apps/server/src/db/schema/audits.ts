import type { AuditAnswer, AuditSection } from '@mise/shared/audits/schemas';
import { sql } from 'drizzle-orm';
import {
  boolean,
  doublePrecision,
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
import { employees } from './tasks';
import { users } from './users';

/*
 * Audits (spec 002 §3, issue 16). A template's structure is one document (sections →
 * questions → choices, archived items kept), as the spec's model has it; each change of the
 * structure is kept as a numbered version, and a result pins the version it was performed on,
 * so a result of an earlier version reads with the questions its auditor saw.
 */

export const audits = pgTable(
  'audits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    database_id: uuid('database_id')
      .notNull()
      .references(() => databases.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    self_evaluation: boolean('self_evaluation').notNull().default(false),
    published: boolean('published').notNull().default(false),
    publishing_date: timestamp('publishing_date', { withTimezone: true }),
    sections: jsonb('sections').$type<AuditSection[]>().notNull().default([]),
    /** Live sections and questions, kept on save (the list's cards). */
    section_count: integer('section_count').notNull().default(0),
    question_count: integer('question_count').notNull().default(0),
    /** The row's version (a stale save answers 409). */
    version: integer('version').notNull().default(1),
    /** The structure's version (audit_versions), bumped when the sections change. */
    structure_version: integer('structure_version').notNull().default(1),
    created_by: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('audits_database_idx').on(table.database_id, sql`lower(${table.name})`),
    index('audits_database_published_idx')
      .on(table.database_id, table.publishing_date)
      .where(sql`${table.published}`),
  ],
);

/** Every structure an audit had: what its results were performed on. */
export const auditVersions = pgTable(
  'audit_versions',
  {
    audit_id: uuid('audit_id')
      .notNull()
      .references(() => audits.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    database_id: uuid('database_id').notNull(),
    name: text('name').notNull(),
    sections: jsonb('sections').$type<AuditSection[]>().notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.audit_id, table.version] })],
);

/**
 * A result (spec 002 §3 audit_results): performed for a store by a user (back-office) or an
 * employee (tablet self-evaluation). In progress it gathers answers as the auditor goes;
 * submitted it is stamped, scored and never changed again.
 */
export const auditResults = pgTable(
  'audit_results',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    audit_id: uuid('audit_id')
      .notNull()
      .references(() => audits.id, { onDelete: 'cascade' }),
    audit_version: integer('audit_version').notNull(),
    database_id: uuid('database_id').notNull(),
    store_id: uuid('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    source: text('source', { enum: ['web', 'tablet'] }).notNull(),
    auditor_user_id: uuid('auditor_user_id').references(() => users.id, { onDelete: 'set null' }),
    auditor_employee_id: uuid('auditor_employee_id').references(() => employees.id, {
      onDelete: 'set null',
    }),
    /** The auditor's name when the result was made (kept if the account goes). */
    auditor_name: text('auditor_name').notNull(),
    status: text('status', { enum: ['in_progress', 'submitted'] })
      .notNull()
      .default('in_progress'),
    start_date: timestamp('start_date', { withTimezone: true }).notNull().defaultNow(),
    end_date: timestamp('end_date', { withTimezone: true }),
    /** Answers by question id. */
    answers: jsonb('answers').$type<Record<string, AuditAnswer>>().notNull().default({}),
    score: doublePrecision('score'),
    max_score: doublePrecision('max_score'),
    section_scores: jsonb('section_scores')
      .$type<{ section_id: string; score: number; max_score: number }[]>()
      .notNull()
      .default([]),
    /** The stored PDF (rendered once, again only if missing). */
    pdf_key: text('pdf_key'),
    version: integer('version').notNull().default(1),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('audit_results_audit_idx').on(table.audit_id, table.status, table.end_date),
    index('audit_results_store_idx').on(table.store_id, table.audit_id),
    // One result in progress per audit, store and back-office auditor; one per audit and store
    // on the store's tablets (any employee allowed to audit may go on with it).
    uniqueIndex('audit_results_open_user_idx')
      .on(table.audit_id, table.store_id, table.auditor_user_id)
      .where(sql`${table.status} = 'in_progress' and ${table.source} = 'web'`),
    uniqueIndex('audit_results_open_tablet_idx')
      .on(table.audit_id, table.store_id)
      .where(sql`${table.status} = 'in_progress' and ${table.source} = 'tablet'`),
    index('audit_results_auditor_idx')
      .on(table.auditor_user_id, table.updated_at)
      .where(sql`${table.status} = 'in_progress'`),
  ],
);
