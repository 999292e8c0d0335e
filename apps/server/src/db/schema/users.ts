import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { databases, distributors } from './organisation';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    active: boolean('active').notNull().default(true),
    email: text('email').notNull(),
    password_hash: text('password_hash').notNull(),
    name: text('name').notNull().default(''),
    surname: text('surname').notNull().default(''),
    phone_number: text('phone_number').notNull().default(''),
    role: text('role', { enum: ['admin', 'distributor', 'manager', 'customer'] }).notNull(),
    /** The distributor a distributor-role account belongs to. */
    distributor_id: uuid('distributor_id').references(() => distributors.id),
    /** The database a manager account was created for (first managed database). */
    database_id: uuid('database_id').references(() => databases.id),
    illustration_url: text('illustration_url'),
    /** The interface language last chosen (fr, en, de, pl): e-mails and pushes use it. */
    language: text('language'),
    notification_tokens: text('notification_tokens').array().notNull().default(sql`'{}'::text[]`),
    manager_store_tags: uuid('manager_store_tags').array().notNull().default(sql`'{}'::uuid[]`),
    new_password_required: boolean('new_password_required').notNull().default(false),
    password_changed_at: timestamp('password_changed_at', { withTimezone: true }),
    version: integer('version').notNull().default(0),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('users_email_idx').on(table.email),
    index('users_distributor_idx').on(table.distributor_id),
    index('users_role_idx').on(table.role),
    index('users_name_idx').on(table.name, table.surname),
  ],
);
