import type { AllergenKey, ElementLockKey, LabelType } from '@mise/shared/catalogue/constants';
import { defaultElementLocks } from '@mise/shared/catalogue/constants';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { databases, stores } from './organisation';

const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/**
 * Element types (spec 001 §3.3): a database's types, or a store's own ("store side") types.
 * Exactly one owner is set.
 */
export const elementTypes = pgTable(
  'element_types',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    database_id: uuid('database_id').references(() => databases.id, { onDelete: 'cascade' }),
    store_id: uuid('store_id').references(() => stores.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    ...timestamps,
  },
  (table) => [
    index('element_types_database_idx').on(table.database_id),
    index('element_types_store_idx').on(table.store_id),
    check(
      'element_types_one_owner',
      sql`(${table.database_id} is null) <> (${table.store_id} is null)`,
    ),
  ],
);

/** Database elements (spec 001 §3.2): every field set, with the spec's defaults and locks. */
export const databaseElements = pgTable(
  'database_elements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    database_id: uuid('database_id')
      .notNull()
      .references(() => databases.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type_id: uuid('type_id').references(() => elementTypes.id, { onDelete: 'set null' }),
    active: boolean('active').notNull().default(true),
    illustration_url: text('illustration_url'),
    illustration_path: text('illustration_path'),
    allergens: text('allergens')
      .array()
      .$type<AllergenKey[]>()
      .notNull()
      .default(sql`'{}'::text[]`),
    allergen_illustration_url: text('allergen_illustration_url'),
    allergen_illustration_path: text('allergen_illustration_path'),
    minimum_temperature: doublePrecision('minimum_temperature'),
    maximum_temperature: doublePrecision('maximum_temperature'),
    temperature_delivery_item: boolean('temperature_delivery_item').notNull().default(false),
    temperature_require_picture: boolean('temperature_require_picture').notNull().default(false),
    temperature_picture: boolean('temperature_picture').notNull().default(false),
    maximum_polarity: doublePrecision('maximum_polarity').default(25),
    oils_require_picture: boolean('oils_require_picture').notNull().default(false),
    reheating_temperature: doublePrecision('reheating_temperature').default(63),
    reheating_duration: integer('reheating_duration').default(60),
    cooling_temperature: doublePrecision('cooling_temperature').default(10),
    cooling_duration: integer('cooling_duration').default(120),
    temperatures_module_active: boolean('temperatures_module_active').notNull().default(true),
    labels_module_active: boolean('labels_module_active').notNull().default(false),
    traceability_module_active: boolean('traceability_module_active').notNull().default(false),
    oils_module_active: boolean('oils_module_active').notNull().default(false),
    temperature_control_module_active: boolean('temperature_control_module_active')
      .notNull()
      .default(false),
    encyclopedia_extension_active: boolean('encyclopedia_extension_active')
      .notNull()
      .default(false),
    mise_display_active: boolean('mise_display_active').notNull().default(false),
    locks: jsonb('locks')
      .$type<Record<ElementLockKey, boolean>>()
      .notNull()
      .default(defaultElementLocks),
    version: integer('version').notNull().default(0),
    ...timestamps,
  },
  (table) => [
    index('database_elements_database_name_idx').on(table.database_id, table.name),
    index('database_elements_type_idx').on(table.type_id),
  ],
);

/**
 * Store elements (spec 001 §3.2): the same fields, each nullable (null follows the origin),
 * with the database element they override (origin) and the store's probe.
 */
export const storeElements = pgTable(
  'store_elements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    store_id: uuid('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    origin_id: uuid('origin_id').references(() => databaseElements.id, { onDelete: 'set null' }),
    probe_id: text('probe_id'),
    name: text('name'),
    type_id: uuid('type_id').references(() => elementTypes.id, { onDelete: 'set null' }),
    active: boolean('active'),
    illustration_url: text('illustration_url'),
    illustration_path: text('illustration_path'),
    allergens: text('allergens').array().$type<AllergenKey[]>(),
    allergen_illustration_url: text('allergen_illustration_url'),
    allergen_illustration_path: text('allergen_illustration_path'),
    minimum_temperature: doublePrecision('minimum_temperature'),
    maximum_temperature: doublePrecision('maximum_temperature'),
    temperature_delivery_item: boolean('temperature_delivery_item'),
    temperature_require_picture: boolean('temperature_require_picture'),
    temperature_picture: boolean('temperature_picture'),
    maximum_polarity: doublePrecision('maximum_polarity'),
    oils_require_picture: boolean('oils_require_picture'),
    reheating_temperature: doublePrecision('reheating_temperature'),
    reheating_duration: integer('reheating_duration'),
    cooling_temperature: doublePrecision('cooling_temperature'),
    cooling_duration: integer('cooling_duration'),
    temperatures_module_active: boolean('temperatures_module_active'),
    labels_module_active: boolean('labels_module_active'),
    traceability_module_active: boolean('traceability_module_active'),
    oils_module_active: boolean('oils_module_active'),
    temperature_control_module_active: boolean('temperature_control_module_active'),
    encyclopedia_extension_active: boolean('encyclopedia_extension_active'),
    mise_display_active: boolean('mise_display_active'),
    version: integer('version').notNull().default(0),
    ...timestamps,
  },
  (table) => [
    index('store_elements_store_name_idx').on(table.store_id, table.name),
    uniqueIndex('store_elements_store_origin_idx').on(table.store_id, table.origin_id),
    index('store_elements_origin_idx').on(table.origin_id),
    index('store_elements_type_idx').on(table.type_id),
    index('store_elements_probe_idx').on(table.probe_id),
  ],
);

/**
 * Labels of an element (spec 001 §3.4). A database label belongs to a database element; a
 * store label to a store element, and may override a database label (origin): its null
 * fields follow the origin.
 */
export const elementLabels = pgTable(
  'element_labels',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    database_id: uuid('database_id').references(() => databases.id, { onDelete: 'cascade' }),
    store_id: uuid('store_id').references(() => stores.id, { onDelete: 'cascade' }),
    database_element_id: uuid('database_element_id').references(() => databaseElements.id, {
      onDelete: 'cascade',
    }),
    store_element_id: uuid('store_element_id').references(() => storeElements.id, {
      onDelete: 'cascade',
    }),
    origin_id: uuid('origin_id').references((): AnyPgColumn => elementLabels.id, {
      onDelete: 'set null',
    }),
    index: integer('index').notNull().default(0),
    active: boolean('active'),
    name: text('name'),
    type: text('type').$type<LabelType>(),
    expiration_duration: integer('expiration_duration'),
    defrosting_duration: integer('defrosting_duration'),
    expiration_text: text('expiration_text'),
    cumulate_expiration_duration: boolean('cumulate_expiration_duration'),
    show_expiration_hour: boolean('show_expiration_hour'),
    show_expiration_weekday: boolean('show_expiration_weekday'),
    ...timestamps,
  },
  (table) => [
    index('element_labels_database_element_idx').on(table.database_element_id, table.index),
    index('element_labels_store_element_idx').on(table.store_element_id, table.index),
    index('element_labels_database_idx').on(table.database_id),
    index('element_labels_store_idx').on(table.store_id),
    index('element_labels_origin_idx').on(table.origin_id),
    check(
      'element_labels_one_element',
      sql`(${table.database_element_id} is null) <> (${table.store_element_id} is null)`,
    ),
  ],
);

/**
 * Encyclopedia attachments (spec 001 §3.8), stored under
 * databases/{id}/element_attachments/{elementId}/… or stores/{id}/element_attachments/{elementId}/….
 */
export const elementAttachments = pgTable(
  'element_attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    database_id: uuid('database_id').references(() => databases.id, { onDelete: 'cascade' }),
    store_id: uuid('store_id').references(() => stores.id, { onDelete: 'cascade' }),
    database_element_id: uuid('database_element_id').references(() => databaseElements.id, {
      onDelete: 'cascade',
    }),
    store_element_id: uuid('store_element_id').references(() => storeElements.id, {
      onDelete: 'cascade',
    }),
    name: text('name').notNull(),
    type: text('type').$type<'image' | 'video' | 'pdf'>().notNull(),
    content_type: text('content_type').notNull(),
    path: text('path').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    video_id: text('video_id'),
    index: integer('index').notNull().default(0),
    ...timestamps,
  },
  (table) => [
    index('element_attachments_database_element_idx').on(table.database_element_id, table.index),
    index('element_attachments_store_element_idx').on(table.store_element_id, table.index),
    index('element_attachments_database_idx').on(table.database_id),
    index('element_attachments_store_idx').on(table.store_id),
    check(
      'element_attachments_one_element',
      sql`(${table.database_element_id} is null) <> (${table.store_element_id} is null)`,
    ),
  ],
);

/**
 * Storage deletions queued by a save and carried out after it committed (spec: deletions are
 * carried out after save). A row left behind by a crash is retried at the next start.
 */
export const storageDeletions = pgTable('storage_deletions', {
  path: text('path').primaryKey(),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Export (copy) calls (spec 001 §7, issue 19): each answer kept by the caller's idempotency
 * key, so a retried request answers the same and writes nothing twice.
 */
export const catalogueExports = pgTable(
  'catalogue_exports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: uuid('user_id').notNull(),
    idempotency_key: text('idempotency_key').notNull(),
    kind: text('kind', {
      enum: [
        'database-elements',
        'database-task-configurations',
        'store-elements',
        'store-task-configurations',
      ],
    }).notNull(),
    source_id: uuid('source_id').notNull(),
    target_id: uuid('target_id').notNull(),
    /** sha256 of the canonical request body: the same key with another body is refused. */
    request_hash: text('request_hash').notNull(),
    response: jsonb('response').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('catalogue_exports_user_key_idx').on(table.user_id, table.idempotency_key),
  ],
);

/**
 * What each export copied: the source object and its copy at the target (database or store),
 * so a second export of the same object into the same target skips it ('already-exported')
 * while the copy exists.
 */
export const catalogueCopies = pgTable(
  'catalogue_copies',
  {
    kind: text('kind', { enum: ['element', 'task-configuration'] }).notNull(),
    target_owner_id: uuid('target_owner_id').notNull(),
    source_id: uuid('source_id').notNull(),
    copy_id: uuid('copy_id').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('catalogue_copies_source_idx').on(
      table.kind,
      table.target_owner_id,
      table.source_id,
    ),
  ],
);
