import { randomBytes } from 'node:crypto';
import type { CopyResponse } from '@mise/shared/catalogue/bulk';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { databases } from '../../db/schema';
import {
  catalogueCopies,
  databaseElements,
  storeElements,
  storeTaskConfigurations,
  taskConfigurations,
} from '../../db/schema';
import { notFound } from '../../platform/errors';
import type { FileCopy } from '../elements/duplicate-element';
import type { StoreRow } from '../stores/stores.service';

/* Pieces the four export (copy) calls share (spec 001 §7, issue 19). */

export type Executor = Pick<Database, 'select' | 'insert' | 'update' | 'delete'>;
export type DatabaseRow = typeof databases.$inferSelect;
export type CopyKind = 'element' | 'task-configuration';

/** Where a copy goes: a database or a store. */
export type TargetOwner = { level: 'database'; id: string } | { level: 'store'; id: string };

/** What a planned export writes, once its files are copied (`written`: the keys written). */
export type ExportPlan = {
  created: CopyResponse['created'];
  skipped: CopyResponse['skipped'];
  files: FileCopy[];
  write: (
    tx: Executor,
    written: Set<string>,
  ) => Promise<{ created_types: CopyResponse['created_types'] }>;
};

/** The selected ids once each, in the order sent. */
export const uniqueIds = (ids: readonly string[]) => [...new Set(ids)];

/** Names are matched ignoring case, accents' composition and surrounding blanks. */
export const nameKey = (name: string) => name.normalize('NFC').trim().toLocaleLowerCase();

/** Rows in slices small enough for one multi-row INSERT (PostgreSQL's 65,535 parameters). */
export function slices<T>(rows: T[], columnsPerRow: number): T[][] {
  const size = Math.max(1, Math.floor(30_000 / columnsPerRow));
  const result: T[][] = [];
  for (let start = 0; start < rows.length; start += size) {
    result.push(rows.slice(start, start + size));
  }
  return result;
}

/**
 * Selected ids that are not the source's objects: those that designate nothing (deleted
 * meanwhile) are skipped as 'not-found'; one that is another database's or store's object
 * refuses the whole call (404), so an answer never echoes another owner's id.
 */
export async function assertNoForeignIds(
  db: Pick<Database, 'select'>,
  kind: CopyKind,
  ids: string[],
): Promise<void> {
  if (ids.length === 0) return;
  const [first, second] =
    kind === 'element'
      ? [databaseElements, storeElements]
      : [taskConfigurations, storeTaskConfigurations];
  const found = await db
    .select({ id: first.id })
    .from(first)
    .where(inArray(first.id, ids))
    .unionAll(db.select({ id: second.id }).from(second).where(inArray(second.id, ids)))
    .limit(1);
  if (found.length) throw notFound();
}

/** The table a copy of `kind` lives in at the target, with its id and owner columns. */
function copyTable(kind: CopyKind, target: TargetOwner) {
  if (kind === 'element') {
    return target.level === 'database'
      ? { table: databaseElements, id: databaseElements.id, owner: databaseElements.database_id }
      : { table: storeElements, id: storeElements.id, owner: storeElements.store_id };
  }
  return target.level === 'database'
    ? {
        table: taskConfigurations,
        id: taskConfigurations.id,
        owner: taskConfigurations.database_id,
      }
    : {
        table: storeTaskConfigurations,
        id: storeTaskConfigurations.id,
        owner: storeTaskConfigurations.store_id,
      };
}

/**
 * The source ids among `ids` already copied into the target by an earlier export whose copy
 * still exists there ('already-exported'); a copy deleted since does not count.
 */
export async function exportedBefore(
  db: Pick<Database, 'select'>,
  kind: CopyKind,
  target: TargetOwner,
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const copy = copyTable(kind, target);
  const rows = await db
    .select({ source_id: catalogueCopies.source_id })
    .from(catalogueCopies)
    .where(
      and(
        eq(catalogueCopies.kind, kind),
        eq(catalogueCopies.target_owner_id, target.id),
        inArray(catalogueCopies.source_id, ids),
        sql`exists (select 1 from ${copy.table} where ${copy.id} = ${catalogueCopies.copy_id} and ${copy.owner} = ${target.id})`,
      ),
    );
  return new Set(rows.map((row) => row.source_id));
}

/** Records each copy (a copy deleted since is replaced by the new one). */
export async function recordCopies(
  tx: Executor,
  kind: CopyKind,
  target: TargetOwner,
  pairs: { source_id: string; copy_id: string }[],
): Promise<void> {
  for (const slice of slices(pairs, 4)) {
    await tx
      .insert(catalogueCopies)
      .values(slice.map((pair) => ({ kind, target_owner_id: target.id, ...pair })))
      .onConflictDoUpdate({
        target: [catalogueCopies.kind, catalogueCopies.target_owner_id, catalogueCopies.source_id],
        set: { copy_id: sql`excluded.copy_id`, created_at: sql`now()` },
      });
  }
}

/**
 * Types at the target matched by name, or created once per name (listed in created_types).
 * `visible` are the types the target may use; a source type already among them is kept.
 */
export function typeMatcher<Extra>(
  visible: { id: string; name: string }[],
  create: (tx: Executor, name: string, extra: Extra) => Promise<{ id: string; name: string }>,
) {
  const ids = new Set(visible.map((type) => type.id));
  const byName = new Map<string, string>();
  for (const type of [...visible].sort((left, right) => (left.id < right.id ? -1 : 1))) {
    if (!byName.has(nameKey(type.name))) byName.set(nameKey(type.name), type.id);
  }
  const created: CopyResponse['created_types'] = [];
  return {
    created,
    async resolve(
      tx: Executor,
      source: { id: string; name: string; extra: Extra } | null,
    ): Promise<string | null> {
      if (!source) return null;
      if (ids.has(source.id)) return source.id;
      const key = nameKey(source.name);
      const found = byName.get(key);
      if (found) return found;
      const row = await create(tx, source.name.trim(), source.extra);
      byName.set(key, row.id);
      created.push({ id: row.id, name: row.name });
      return row.id;
    },
  };
}

/** The storage folder of a target's action attachments (spec 001 §7). */
export function actionAttachmentsFolder(target: TargetOwner): string {
  return `${target.level === 'database' ? 'databases' : 'stores'}/${target.id}/task_configurations_attachments`;
}

/** A new key in `folder` for a copy of the stored file `path` (same file name). */
export function copiedAttachmentKey(folder: string, path: string): string {
  const name = path.split('/').pop() ?? 'file';
  return `${folder}/${randomBytes(16).toString('hex')}/${name}`;
}

/** A store's database, if any: the rule deciding between an override and an own copy. */
export const isSameDatabase = (source: StoreRow, target: StoreRow) =>
  source.database_id !== null && source.database_id === target.database_id;

/** A picture's URL kept on a copy without its file: only one outside our storage. */
export const externalUrl = (url: string | null) =>
  url && !url.startsWith('/api/files/') ? url : null;

/** A selected store object: its own row (null: not overridden) and its origin, if any. */
export type StoreSelection<Row, Origin> = {
  sourceId: string;
  row: Row | null;
  origin: Origin | null;
};

/**
 * What each selected id designates in a store (spec 001 §7): a store row of the source, or a
 * database object of its database as the store sees it (through its override when there is
 * one). `resolved` keeps the order sent (item null: designates nothing); `items` holds each
 * designated object once, by source id, first seen first.
 */
export function resolveStoreSelection<
  Row extends { id: string; origin_id: string | null },
  Origin extends { id: string },
>(ids: readonly string[], storeRows: readonly Row[], origins: readonly Origin[]) {
  const originById = new Map(origins.map((row) => [row.id, row]));
  const rowById = new Map(storeRows.map((row) => [row.id, row]));
  const overrideOf = new Map<string, Row>();
  for (const row of storeRows) {
    if (row.origin_id && originById.has(row.origin_id)) overrideOf.set(row.origin_id, row);
  }
  const resolve = (id: string): StoreSelection<Row, Origin> | null => {
    const row = rowById.get(id);
    if (row) {
      const origin = row.origin_id ? (originById.get(row.origin_id) ?? null) : null;
      return { sourceId: row.id, row, origin };
    }
    const origin = originById.get(id);
    if (!origin) return null;
    const override = overrideOf.get(origin.id) ?? null;
    return { sourceId: override?.id ?? origin.id, row: override, origin };
  };
  const resolved = ids.map((id) => ({ id, item: resolve(id) }));
  const items = new Map<string, StoreSelection<Row, Origin>>();
  for (const { item } of resolved) {
    if (item && !items.has(item.sourceId)) items.set(item.sourceId, item);
  }
  return { resolved, items };
}

/**
 * The selected store objects already in the target store: copied by an earlier export (under
 * the override's id, or the origin's when not overridden), or, into a store of the same
 * database, an origin the target already overrides.
 */
export async function exportedToStore<Row extends { id: string }, Origin extends { id: string }>(
  db: Pick<Database, 'select'>,
  kind: CopyKind,
  target: { owner: TargetOwner; sameDatabase: boolean },
  items: readonly StoreSelection<Row, Origin>[],
): Promise<(item: StoreSelection<Row, Origin>) => boolean> {
  const withOrigin = items.flatMap((item) => (item.origin ? [item.origin.id] : []));
  const table = kind === 'element' ? storeElements : storeTaskConfigurations;
  const [exported, targetOverrides] = await Promise.all([
    exportedBefore(
      db,
      kind,
      target.owner,
      items.flatMap((item) => [item.row?.id, item.origin?.id].filter((id) => id !== undefined)),
    ),
    target.sameDatabase && withOrigin.length
      ? db
          .select({ origin_id: table.origin_id })
          .from(table)
          .where(and(eq(table.store_id, target.owner.id), inArray(table.origin_id, withOrigin)))
      : Promise.resolve([] as { origin_id: string | null }[]),
  ]);
  const overridden = new Set(targetOverrides.map((row) => row.origin_id));
  return (item) =>
    Boolean(
      (item.row && exported.has(item.row.id)) ||
        (item.origin && exported.has(item.origin.id)) ||
        (target.sameDatabase && item.origin && overridden.has(item.origin.id)),
    );
}
