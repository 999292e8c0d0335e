import { randomUUID } from 'node:crypto';
import type { StoreTag } from '@mise/shared/people/schemas';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { stores, storeTagLinks, storeTags } from '../../db/schema';
import { AppError, forbidden, notFound } from '../../platform/errors';
import { type Scope, storeFilter } from '../../platform/scope';
import { findDatabaseInScope } from '../databases/databases.service';
import { canEditDatabasePeople } from './roles.service';

export type SaveTagsInput = {
  tags: { id?: string; name: string; active: boolean; store_ids: string[] }[];
};

/** Links are inserted by chunks: two parameters a row, well under PostgreSQL's 65,535. */
const linkChunk = 10_000;

/** Stores of the database the caller sees (stores_database_idx), by name. */
function visibleStoresOf(db: Database, scope: Scope, databaseId: string) {
  return db
    .select({ id: stores.id, name: stores.name, city: stores.city })
    .from(stores)
    .where(and(eq(stores.database_id, databaseId), storeFilter(scope)))
    .orderBy(asc(stores.name), asc(stores.id));
}

/**
 * GET /api/databases/:databaseId/storeTags: the database's tags (active and inactive) with
 * their stores, and the database's stores for the editor's two lists. Stores are those the
 * caller sees: a customer reads only its own stores, in the tags as in the lists.
 */
export async function getTags(db: Database, scope: Scope, databaseId: string) {
  const database = await findDatabaseInScope(db, scope, databaseId);
  const [tagRows, storeRows] = await Promise.all([
    db
      .select({ id: storeTags.id, name: storeTags.name, active: storeTags.active })
      .from(storeTags)
      .where(eq(storeTags.database_id, database.id))
      .orderBy(asc(storeTags.name), asc(storeTags.id)),
    visibleStoresOf(db, scope, database.id),
  ]);
  const visible = new Set(storeRows.map((store) => store.id));
  const linkRows = tagRows.length
    ? await db
        .select({ tag_id: storeTagLinks.tag_id, store_id: storeTagLinks.store_id })
        .from(storeTagLinks)
        .where(
          inArray(
            storeTagLinks.tag_id,
            tagRows.map((tag) => tag.id),
          ),
        )
    : [];
  const storesOfTag = new Map<string, string[]>();
  for (const link of linkRows) {
    if (!visible.has(link.store_id)) continue;
    const list = storesOfTag.get(link.tag_id) ?? [];
    list.push(link.store_id);
    storesOfTag.set(link.tag_id, list);
  }
  const order = new Map(storeRows.map((store, index) => [store.id, index]));
  const items: StoreTag[] = tagRows.map((tag) => ({
    ...tag,
    store_ids: (storesOfTag.get(tag.id) ?? []).sort((a, b) => order.get(a)! - order.get(b)!),
  }));
  return { items, stores: storeRows, editable: canEditDatabasePeople(scope) };
}

function isUniqueViolation(error: unknown): boolean {
  const candidates = [error, (error as { cause?: unknown })?.cause];
  return candidates.some((item) => (item as { code?: string })?.code === '23505');
}

const nameKey = (name: string) => name.trim().toLowerCase();

/**
 * PUT /api/databases/:databaseId/storeTags: writes every tag given and replaces its store
 * links, in one transaction. Names are required ('store-tag/invalid-name') and unique among
 * the database's active tags ignoring case ('store-tag/duplicate-name', 409; the partial
 * unique index store_tags_active_name_idx catches a concurrent save the same way); a store
 * must be a store of the database ('store-tag/unknown-store'); an id that is not a tag of the
 * database → 404. Tags not given are left as they are; a removed tag is sent inactive.
 */
export async function saveTags(
  db: Database,
  scope: Scope,
  databaseId: string,
  body: SaveTagsInput,
) {
  const database = await findDatabaseInScope(db, scope, databaseId);
  if (!canEditDatabasePeople(scope)) throw forbidden();

  const givenIds = body.tags.flatMap((tag) => (tag.id ? [tag.id] : []));
  if (new Set(givenIds).size !== givenIds.length) {
    throw new AppError('validation/invalid-input', 'A tag is given twice.');
  }
  for (const tag of body.tags) {
    if (tag.name.trim() === '') throw new AppError('store-tag/invalid-name');
  }

  const [allTags, storeRows] = await Promise.all([
    db
      .select({ id: storeTags.id, name: storeTags.name, active: storeTags.active })
      .from(storeTags)
      .where(eq(storeTags.database_id, database.id)),
    visibleStoresOf(db, scope, database.id),
  ]);
  const known = new Set(allTags.map((tag) => tag.id));
  if (givenIds.some((id) => !known.has(id))) throw notFound();

  // Active names once saved: the tags given as sent, the others as stored.
  const given = new Set(givenIds);
  const activeNames = [
    ...allTags.filter((tag) => tag.active && !given.has(tag.id)).map((tag) => tag.name),
    ...body.tags.filter((tag) => tag.active).map((tag) => tag.name),
  ].map(nameKey);
  if (new Set(activeNames).size !== activeNames.length) {
    throw new AppError('store-tag/duplicate-name');
  }

  const storeIds = new Set(storeRows.map((store) => store.id));
  for (const tag of body.tags) {
    if (tag.store_ids.some((id) => !storeIds.has(id)))
      throw new AppError('store-tag/unknown-store');
  }

  const now = new Date();
  try {
    await db.transaction(async (tx) => {
      if (givenIds.length) {
        // Out of the unique index first, so two tags may swap names within one save.
        await tx
          .update(storeTags)
          .set({ active: false })
          .where(and(eq(storeTags.database_id, database.id), inArray(storeTags.id, givenIds)));
      }
      const links: { tag_id: string; store_id: string }[] = [];
      for (const tag of body.tags) {
        if (!tag.id) continue;
        await tx
          .update(storeTags)
          .set({ name: tag.name.trim(), active: tag.active, updated_at: now })
          .where(eq(storeTags.id, tag.id));
        for (const storeId of new Set(tag.store_ids))
          links.push({ tag_id: tag.id, store_id: storeId });
      }
      const created = body.tags
        .filter((tag) => !tag.id)
        .map((tag) => ({ ...tag, id: randomUUID() }));
      if (created.length) {
        await tx.insert(storeTags).values(
          created.map((tag) => ({
            id: tag.id,
            database_id: database.id,
            name: tag.name.trim(),
            active: tag.active,
          })),
        );
        for (const tag of created) {
          for (const storeId of new Set(tag.store_ids))
            links.push({ tag_id: tag.id, store_id: storeId });
        }
      }
      if (givenIds.length && storeIds.size) {
        // Only links to stores the caller sees are replaced.
        await tx.delete(storeTagLinks).where(
          and(
            inArray(storeTagLinks.tag_id, givenIds),
            inArray(
              storeTagLinks.store_id,
              tx
                .select({ id: stores.id })
                .from(stores)
                .where(and(eq(stores.database_id, database.id), storeFilter(scope))),
            ),
          ),
        );
      }
      for (let start = 0; start < links.length; start += linkChunk) {
        await tx
          .insert(storeTagLinks)
          .values(links.slice(start, start + linkChunk))
          .onConflictDoNothing();
      }
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('store-tag/duplicate-name');
    throw error;
  }
  return getTags(db, scope, database.id);
}
