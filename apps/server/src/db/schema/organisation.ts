import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';

const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const distributors = pgTable(
  'distributors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    active: boolean('active').notNull().default(true),
    name: text('name').notNull(),
    address: text('address').notNull().default(''),
    postal_code: text('postal_code').notNull().default(''),
    city: text('city').notNull().default(''),
    phone: text('phone').notNull().default(''),
    email: text('email').notNull().default(''),
    countries: text('countries').array().notNull().default(sql`'{}'::text[]`),
    logo: text('logo'),
    shop_email: text('shop_email'),
    billing_cycle: integer('billing_cycle').notNull().default(1),
    contacts: jsonb('contacts')
      .$type<{ name: string; role: string; email: string; phone: string }[]>()
      .notNull()
      .default([]),
    licence_price: numeric('licence_price', { precision: 10, scale: 2 }).notNull().default('19'),
    version: integer('version').notNull().default(0),
    ...timestamps,
  },
  (table) => [index('distributors_name_idx').on(table.name)],
);

export const databases = pgTable(
  'databases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    distributor_id: uuid('distributor_id').references(() => distributors.id),
    illustration_url: text('illustration_url'),
    hidden: boolean('hidden').notNull().default(false),
    store_access: boolean('store_access').notNull().default(false),
    hidden_modules: text('hidden_modules').array().notNull().default(sql`'{}'::text[]`),
    hidden_extensions: text('hidden_extensions').array().notNull().default(sql`'{}'::text[]`),
    licence_price: numeric('licence_price', { precision: 10, scale: 2 }),
    screen_saver_url: text('screen_saver_url'),
    /** Minutes before an unacknowledged probe alert goes to the next level (issue 15). */
    alert_escalation_minutes: integer('alert_escalation_minutes').notNull().default(30),
    version: integer('version').notNull().default(0),
    ...timestamps,
  },
  (table) => [index('databases_distributor_idx').on(table.distributor_id)],
);

export const stores = pgTable(
  'stores',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    address: text('address').notNull(),
    postal_code: text('postal_code').notNull(),
    city: text('city').notNull(),
    country: text('country').notNull().default('FR'),
    distributor_id: uuid('distributor_id').references(() => distributors.id),
    database_id: uuid('database_id').references(() => databases.id),
    active: boolean('active').notNull().default(true),
    illustration_url: text('illustration_url'),
    score: integer('score'),
    mise_licence: boolean('mise_licence').notNull().default(false),
    licence_price: numeric('licence_price', { precision: 10, scale: 2 }),
    timezone: numeric('timezone', { precision: 4, scale: 2 }).notNull().default('1'),
    timezone_name: text('timezone_name').notNull().default('Europe/Paris'),
    task_generation_hour: integer('task_generation_hour').notNull().default(0),
    hidden_modules: text('hidden_modules').array().notNull().default(sql`'{}'::text[]`),
    hidden_extensions: text('hidden_extensions').array().notNull().default(sql`'{}'::text[]`),
    slow_internet_mode: boolean('slow_internet_mode').notNull().default(false),
    audio_task_reminders: boolean('audio_task_reminders').notNull().default(false),
    pattern: boolean('pattern').notNull().default(false),
    utc_timezone: text('utc_timezone'),
    sensor_sticker_id: text('sensor_sticker_id'),
    licence_activation_history: jsonb('licence_activation_history')
      .$type<{ timestamp: string; activated: boolean }[]>()
      .notNull()
      .default([]),
    manager_owned: boolean('manager_owned').notNull().default(false),
    maximum_devices: integer('maximum_devices').notNull().default(1),
    week_start: integer('week_start').notNull().default(0),
    demonstration_store: boolean('demonstration_store').notNull().default(false),
    pairing_key: text('pairing_key'),
    version: integer('version').notNull().default(0),
    ...timestamps,
  },
  (table) => [
    index('stores_distributor_idx').on(table.distributor_id),
    index('stores_database_idx').on(table.database_id),
    index('stores_name_idx').on(table.name),
    uniqueIndex('stores_pairing_key_idx').on(table.pairing_key),
  ],
);

/** Store owners (spec: users.stores). */
export const storeOwners = pgTable(
  'store_owners',
  {
    store_id: uuid('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.store_id, table.user_id] }),
    index('store_owners_user_idx').on(table.user_id),
  ],
);

/** Database managers (spec: databases.managers / users.manager_databases). */
export const databaseManagers = pgTable(
  'database_managers',
  {
    database_id: uuid('database_id')
      .notNull()
      .references(() => databases.id, { onDelete: 'cascade' }),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.database_id, table.user_id] }),
    index('database_managers_user_idx').on(table.user_id),
  ],
);

/** Tablets of a store (spec 000 §3 "Device"); the device token is stored hashed. */
export const devices = pgTable(
  'devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    store_id: uuid('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    device_id: text('device_id').notNull(),
    device_model: text('device_model').notNull().default(''),
    name: text('name').notNull().default(''),
    app_version: text('app_version').notNull().default(''),
    os_version: text('os_version').notNull().default(''),
    token_hash: text('token_hash').notNull().unique(),
    linked_user: uuid('linked_user'),
    calendar_types_order: jsonb('calendar_types_order').$type<string[]>().notNull().default([]),
    dark_mode: boolean('dark_mode').notNull().default(false),
    slow_internet_mode: boolean('slow_internet_mode').notNull().default(false),
    audio_task_reminders: boolean('audio_task_reminders').notNull().default(false),
    show_unscheduled_tasks: boolean('show_unscheduled_tasks').notNull().default(false),
    rotation_lock: boolean('rotation_lock').notNull().default(false),
    prevent_screen_lock: boolean('prevent_screen_lock').notNull().default(true),
    creation_timestamp: timestamp('creation_timestamp', { withTimezone: true })
      .notNull()
      .defaultNow(),
    last_connexion: timestamp('last_connexion', { withTimezone: true }),
    version: integer('version').notNull().default(0),
  },
  (table) => [
    index('devices_store_idx').on(table.store_id),
    uniqueIndex('devices_store_device_idx').on(table.store_id, table.device_id),
  ],
);

/**
 * Sensor-provider (Koovea) credentials, set by a distributor or by a store. Never sent to
 * clients: the API only says whether a connection exists and who set it.
 */
export const sensorCredentials = pgTable(
  'sensor_credentials',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    distributor_id: uuid('distributor_id').references(() => distributors.id, {
      onDelete: 'cascade',
    }),
    store_id: uuid('store_id').references(() => stores.id, { onDelete: 'cascade' }),
    account: text('account').notNull(),
    password_hash: text('password_hash').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('sensor_credentials_distributor_idx').on(table.distributor_id),
    uniqueIndex('sensor_credentials_store_idx').on(table.store_id),
  ],
);

/** Owner invitations sent to e-mails with no account: applied when that e-mail registers. */
/**
 * A pending manager of a database: an existing manager account outside the adding
 * distributor's tenant, who must accept the mailed link before the link is made.
 */
export const databaseInvitations = pgTable(
  'database_invitations',
  {
    database_id: uuid('database_id')
      .notNull()
      .references(() => databases.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    invited_by: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    /** SHA-256 of the single-use token mailed in the invitation link. */
    token_hash: text('token_hash').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.database_id, table.email] }),
    index('database_invitations_token_idx').on(table.token_hash),
  ],
);

export const storeInvitations = pgTable(
  'store_invitations',
  {
    store_id: uuid('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    invited_by: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    /** SHA-256 of the single-use token mailed in the invitation link. */
    token_hash: text('token_hash'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.store_id, table.email] }),
    index('store_invitations_email_idx').on(table.email),
    index('store_invitations_token_idx').on(table.token_hash),
  ],
);
