import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { databases, distributors, stores } from './organisation';
import { users } from './users';

/*
 * The document explorer's tree (spec 002 §2, §3; issue 17): folders and files of a database, a
 * distributor or a store, kept here beside the stored objects. `path` is the chain of the
 * item's ancestor folder ids ('/' at the owner's root, '/<a>/<b>/' inside b inside a), so a
 * search "in this folder and below" is one prefix scan.
 */
export const documents = pgTable(
  'documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    owner_kind: text('owner_kind', { enum: ['database', 'distributor', 'store'] }).notNull(),
    /** The owner's id (one of the three below, which carry the foreign keys). */
    owner_id: uuid('owner_id').notNull(),
    database_id: uuid('database_id').references(() => databases.id, { onDelete: 'cascade' }),
    distributor_id: uuid('distributor_id').references(() => distributors.id, {
      onDelete: 'cascade',
    }),
    store_id: uuid('store_id').references(() => stores.id, { onDelete: 'cascade' }),
    parent_id: uuid('parent_id').references((): AnyPgColumn => documents.id, {
      onDelete: 'cascade',
    }),
    path: text('path').notNull().default('/'),
    name: text('name').notNull(),
    type: text('type', { enum: ['file', 'folder'] }).notNull(),
    storage_key: text('storage_key'),
    size: bigint('size', { mode: 'number' }),
    content_type: text('content_type'),
    is_video: boolean('is_video').notNull().default(false),
    /**
     * A video's placeholder metadata (spec 002 §3, §7): its id at the video host and the link
     * it plays from. Null for other files.
     */
    video_id: text('video_id'),
    video_url: text('video_url'),
    locked: boolean('locked').notNull().default(false),
    uploaded_by: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    uploaded_by_name: text('uploaded_by_name'),
    version: integer('version').notNull().default(1),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // One name per folder (case-insensitive): 'documents.file-exists'.
    uniqueIndex('documents_name_idx').on(
      table.owner_id,
      sql`coalesce(${table.parent_id}, '00000000-0000-0000-0000-000000000000'::uuid)`,
      sql`lower(${table.name})`,
    ),
    // A folder's page: folders first, then by name.
    index('documents_list_idx').on(
      table.owner_id,
      table.parent_id,
      sql`(${table.type} = 'file')`,
      sql`lower(${table.name})`,
      table.id,
    ),
    index('documents_path_idx').on(table.owner_id, sql`${table.path} text_pattern_ops`),
  ],
);
