import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { databaseElements, elementLabels, storeElements } from '../../db/schema';
import { queueStorageDeletions } from '../files/storage-deletions';
import { effectiveStoreValues, fieldsOf } from './element-values';
import {
  labelCopies,
  labelsOfDatabaseElement,
  labelsOfStoreElement,
  presentStoreLabels,
} from './labels';

type Executor = Pick<Database, 'select' | 'insert' | 'update' | 'delete'>;

/**
 * A store leaves its database (stores.service assignDatabase, same transaction): each of its
 * overrides of that database's elements becomes an element of the store's own holding the
 * effective values (origin_id null), so nothing points into a database the store no longer
 * follows. Effective labels are copied as the store's own. Pictures and attachments inherited
 * from the origin are not carried over (their files live in the old database's storage and
 * the store loses access to it); the store's own pictures and attachments stay.
 * Answers how many elements were detached.
 */
export async function detachStoreOverrides(
  tx: Executor,
  store: { id: string; database_id: string | null },
): Promise<number> {
  if (!store.database_id) return 0;
  const rows = await tx
    .select({ element: storeElements, origin: databaseElements })
    .from(storeElements)
    .innerJoin(databaseElements, eq(databaseElements.id, storeElements.origin_id))
    .where(
      and(
        eq(storeElements.store_id, store.id),
        eq(databaseElements.database_id, store.database_id),
      ),
    );
  if (rows.length === 0) return 0;
  const originLabels = await labelsOfDatabaseElement(
    tx,
    rows.map((row) => row.origin.id),
  );
  const queued: string[] = [];
  const now = new Date();
  for (const { element, origin } of rows) {
    const effective = effectiveStoreValues(element, origin);
    const picture = (state: string, url: string | null, path: string | null) => {
      if (state === 'overridden') return { url, path };
      if (path) queued.push(path);
      return { url: null, path: null };
    };
    const illustration = picture(
      effective.states.illustration_url,
      element.illustration_url,
      element.illustration_path,
    );
    const allergen = picture(
      effective.states.allergen_illustration_url,
      element.allergen_illustration_url,
      element.allergen_illustration_path,
    );
    await tx
      .update(storeElements)
      .set({
        ...(fieldsOf(effective.values) as Partial<typeof storeElements.$inferInsert>),
        illustration_url: illustration.url,
        illustration_path: illustration.path,
        allergen_illustration_url: allergen.url,
        allergen_illustration_path: allergen.path,
        origin_id: null,
        version: sql`${storeElements.version} + 1`,
        updated_at: now,
      })
      .where(eq(storeElements.id, element.id));
    const ownLabels = await labelsOfStoreElement(tx, element.id);
    const labels = presentStoreLabels(
      ownLabels,
      originLabels.filter((label) => label.database_element_id === origin.id),
      effective.locks.labels,
    );
    if (ownLabels.length) {
      await tx.delete(elementLabels).where(
        inArray(
          elementLabels.id,
          ownLabels.map((label) => label.id),
        ),
      );
    }
    const copies = labelCopies(labels);
    if (copies.length) {
      await tx
        .insert(elementLabels)
        .values(
          copies.map((label) => ({ ...label, store_id: store.id, store_element_id: element.id })),
        );
    }
  }
  await queueStorageDeletions(tx, queued);
  return rows.length;
}
