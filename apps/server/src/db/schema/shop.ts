import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { databases, devices, distributors, stores } from './organisation';
import { employees } from './tasks';
import { users } from './users';

const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/**
 * A distributor's shop items (spec 001 §3.12): ordered by `index`; a null price means the
 * default (100, spec 001 §9).
 */
export const distributorShopItems = pgTable(
  'distributor_shop_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    distributor_id: uuid('distributor_id')
      .notNull()
      .references(() => distributors.id, { onDelete: 'cascade' }),
    active: boolean('active').notNull().default(true),
    name: text('name').notNull().default(''),
    description: text('description').notNull().default(''),
    price: numeric('price', { precision: 10, scale: 2 }),
    illustration_url: text('illustration_url'),
    illustration_path: text('illustration_path'),
    index: integer('index').notNull().default(0),
    version: integer('version').notNull().default(0),
    ...timestamps,
  },
  (table) => [
    index('distributor_shop_items_distributor_idx').on(table.distributor_id, table.index),
  ],
);

/**
 * A database's shop items (spec 001 §3.12): a copy of a distributor item (origin) whose null
 * fields follow the origin, or an item of the database's own (no origin).
 */
export const databaseShopItems = pgTable(
  'database_shop_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    database_id: uuid('database_id')
      .notNull()
      .references(() => databases.id, { onDelete: 'cascade' }),
    origin_id: uuid('origin_id').references(() => distributorShopItems.id, {
      onDelete: 'cascade',
    }),
    active: boolean('active'),
    name: text('name'),
    description: text('description'),
    price: numeric('price', { precision: 10, scale: 2 }),
    illustration_url: text('illustration_url'),
    illustration_path: text('illustration_path'),
    index: integer('index').notNull().default(0),
    version: integer('version').notNull().default(0),
    ...timestamps,
  },
  (table) => [
    index('database_shop_items_database_idx').on(table.database_id, table.index),
    uniqueIndex('database_shop_items_origin_idx').on(table.database_id, table.origin_id),
    index('database_shop_items_origin_only_idx').on(table.origin_id),
  ],
);

export type ShopOrderLine = {
  item_id: string;
  name: string;
  /** Unit price in euros at the time of the order. */
  price: number;
  quantity: number;
};

/**
 * An order a store sent to its distributor's shop (issue 19; the spec does not show it): the
 * lines as priced when ordered, e-mailed to the distributor's shop_email.
 */
export const shopOrders = pgTable(
  'shop_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    distributor_id: uuid('distributor_id')
      .notNull()
      .references(() => distributors.id, { onDelete: 'cascade' }),
    database_id: uuid('database_id')
      .notNull()
      .references(() => databases.id, { onDelete: 'cascade' }),
    store_id: uuid('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    user_id: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    employee_id: uuid('employee_id').references(() => employees.id, { onDelete: 'set null' }),
    device_id: uuid('device_id').references(() => devices.id, { onDelete: 'set null' }),
    idempotency_key: text('idempotency_key'),
    lines: jsonb('lines').$type<ShopOrderLine[]>().notNull(),
    total: numeric('total', { precision: 12, scale: 2 }).notNull(),
    note: text('note').notNull().default(''),
    email_to: text('email_to'),
    /** 'sent' once the e-mail left, 'no-email' when the distributor has no shop_email. */
    status: text('status', { enum: ['pending', 'sent', 'no-email'] })
      .notNull()
      .default('pending'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('shop_orders_distributor_idx').on(table.distributor_id, table.created_at),
    index('shop_orders_store_idx').on(table.store_id, table.created_at),
    uniqueIndex('shop_orders_store_key_idx').on(table.store_id, table.idempotency_key),
    check('shop_orders_total_positive', sql`${table.total} >= 0`),
  ],
);
