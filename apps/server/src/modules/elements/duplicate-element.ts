import { randomBytes, randomUUID } from 'node:crypto';
import { copySuffix } from '@mise/shared/catalogue/constants';
import {
  databaseElements,
  elementAttachments,
  elementLabels,
  storeElements,
} from '../../db/schema';
import type { Scope } from '../../platform/scope';
import { copyStoredFile, type Storage } from '../../platform/storage';
import { type AttachmentRow, attachmentsOf } from './attachments';
import {
  type DatabaseElementRow,
  effectivePath,
  extensionOf,
  fieldsOf,
  locksOf,
  type StoreElementRow,
} from './element-values';
import {
  attachmentOwner,
  type DatabaseElementRef,
  type Deps,
  findStoreElement,
  findWritableDatabaseElement,
  loadStoreParts,
  ownerPrefix,
  type StoreElementRef,
} from './elements.service';
import { labelCopies, labelsOfDatabaseElement, presentDatabaseLabels } from './labels';

/* ---------- Duplicates (and the catalogue exports, which copy the same way) ---------- */

export type FileCopy = { from: string; to: string };

/** Files copied at once by copyFiles (an export may copy thousands). */
const fileCopyConcurrency = 8;

/**
 * Copies stored files to their new keys (never shared), a few at a time: answers the keys
 * written (a missing source is left out); on a failure the copies already made are deleted.
 */
export async function copyFiles(storage: Storage, copies: FileCopy[]): Promise<Set<string>> {
  const done = new Set<string>();
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (!failure && next < copies.length) {
      const copy = copies[next++]!;
      try {
        if (await copyStoredFile(storage, copy.from, copy.to)) done.add(copy.to);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(fileCopyConcurrency, copies.length) }, () => worker()),
  );
  if (failure) {
    await Promise.all([...done].map((key) => storage.delete(key).catch(() => {})));
    throw (failure as { error: unknown }).error;
  }
  return done;
}

/** The stored files an element's copy starts from: its pictures and encyclopedia attachments. */
export type ElementFiles = {
  illustrationPath: string | null;
  allergenIllustrationPath: string | null;
  attachments: AttachmentRow[];
};

/**
 * Plans the file copies of a copied element under the new element's folders of its owner
 * (`prefix`: databases/{id} or stores/{id}, spec 001 §7).
 */
export function planElementFileCopies(prefix: string, newId: string, source: ElementFiles) {
  const copies: FileCopy[] = [];
  const picture = (path: string | null, isAllergen: boolean) => {
    if (!path) return { url: null, path: null };
    const folder = `${prefix}/element_pictures/${newId}${isAllergen ? '/allergen_illustration' : ''}`;
    const to = `${folder}/${randomBytes(8).toString('hex')}.${extensionOf(path)}`;
    copies.push({ from: path, to });
    return { url: `/api/files/${to}`, path: to };
  };
  const illustration = picture(source.illustrationPath, false);
  const allergen = picture(source.allergenIllustrationPath, true);
  const attachments = source.attachments.map((attachment, position) => {
    const id = randomUUID();
    const to = `${prefix}/element_attachments/${newId}/${id}.${extensionOf(attachment.path)}`;
    copies.push({ from: attachment.path, to });
    return {
      id,
      name: attachment.name,
      type: attachment.type,
      content_type: attachment.content_type,
      path: to,
      size: attachment.size,
      video_id: attachment.video_id,
      index: position,
    };
  });
  return { copies, illustration, allergen, attachments };
}

/**
 * A store element's effective files (row null: a database element the store has not
 * overridden): pictures from the store or its origin by the inheritance states, the origin's
 * attachments and the store's own unless the origin locks them.
 */
export function storeElementFiles(
  row: Pick<StoreElementRow, 'illustration_path' | 'allergen_illustration_path'> | null,
  origin: Pick<DatabaseElementRow, 'illustration_path' | 'allergen_illustration_path'> | null,
  parts: Pick<Awaited<ReturnType<typeof loadStoreParts>>, 'effective' | 'attachmentRows'>,
): ElementFiles {
  const states = parts.effective.states;
  return {
    illustrationPath: effectivePath(
      states.illustration_url,
      { path: row?.illustration_path ?? null },
      origin ? { path: origin.illustration_path } : null,
    ),
    allergenIllustrationPath: effectivePath(
      states.allergen_illustration_url,
      { path: row?.allergen_illustration_path ?? null },
      origin ? { path: origin.allergen_illustration_path } : null,
    ),
    attachments: parts.attachmentRows.map((item) => item.row),
  };
}

/** POST /api/databaseElements/:id/duplicate: same values, locks, labels, files copied. */
export async function duplicateDatabaseElement(
  deps: Deps,
  scope: Scope,
  id: string,
): Promise<DatabaseElementRef> {
  const { db, storage } = deps;
  const ref = await findWritableDatabaseElement(db, scope, id);
  const [labels, attachments] = await Promise.all([
    labelsOfDatabaseElement(db, [ref.row.id]),
    attachmentsOf(db, attachmentOwner(ref)),
  ]);
  const newId = randomUUID();
  const plan = planElementFileCopies(ownerPrefix(ref), newId, {
    illustrationPath: ref.row.illustration_path,
    allergenIllustrationPath: ref.row.allergen_illustration_path,
    attachments,
  });
  await copyFiles(storage, plan.copies);
  try {
    const row = await db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(databaseElements)
        .values({
          ...(fieldsOf(ref.row) as Partial<typeof databaseElements.$inferInsert>),
          id: newId,
          database_id: ref.database.id,
          name: `${ref.row.name}${copySuffix}`,
          illustration_url: plan.illustration.url,
          illustration_path: plan.illustration.path,
          allergen_illustration_url: plan.allergen.url,
          allergen_illustration_path: plan.allergen.path,
          locks: locksOf(ref.row),
        })
        .returning();
      const copies = labelCopies(presentDatabaseLabels(labels));
      if (copies.length) {
        await tx.insert(elementLabels).values(
          copies.map((label) => ({
            ...label,
            database_id: ref.database.id,
            database_element_id: newId,
          })),
        );
      }
      if (plan.attachments.length) {
        await tx.insert(elementAttachments).values(
          plan.attachments.map((attachment) => ({
            ...attachment,
            database_id: ref.database.id,
            database_element_id: newId,
          })),
        );
      }
      return inserted!;
    });
    return { ...ref, row };
  } catch (error) {
    await Promise.all(plan.copies.map((copy) => storage.delete(copy.to).catch(() => {})));
    throw error;
  }
}

/**
 * POST /api/storeElements/:id/duplicate: an element of the store's own (no origin) with the
 * effective values, labels and attachments (inherited ones included), files copied.
 */
export async function duplicateStoreElement(
  deps: Deps,
  scope: Scope,
  id: string,
): Promise<StoreElementRef> {
  const { db, storage } = deps;
  const ref = await findStoreElement(db, scope, id, { isWrite: true });
  const parts = await loadStoreParts(db, ref.row, ref.origin);
  const newId = randomUUID();
  const plan = planElementFileCopies(
    ownerPrefix(ref),
    newId,
    storeElementFiles(ref.row, ref.origin, parts),
  );
  await copyFiles(storage, plan.copies);
  try {
    const row = await db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(storeElements)
        .values({
          ...(fieldsOf(parts.effective.values) as Partial<typeof storeElements.$inferInsert>),
          id: newId,
          store_id: ref.store.id,
          origin_id: null,
          name: `${parts.effective.values.name}${copySuffix}`,
          illustration_url: plan.illustration.url,
          illustration_path: plan.illustration.path,
          allergen_illustration_url: plan.allergen.url,
          allergen_illustration_path: plan.allergen.path,
        })
        .returning();
      const copies = labelCopies(parts.labels);
      if (copies.length) {
        await tx
          .insert(elementLabels)
          .values(
            copies.map((label) => ({ ...label, store_id: ref.store.id, store_element_id: newId })),
          );
      }
      if (plan.attachments.length) {
        await tx.insert(elementAttachments).values(
          plan.attachments.map((attachment) => ({
            ...attachment,
            store_id: ref.store.id,
            store_element_id: newId,
          })),
        );
      }
      return inserted!;
    });
    return { level: 'store', row, store: ref.store, origin: null };
  } catch (error) {
    await Promise.all(plan.copies.map((copy) => storage.delete(copy.to).catch(() => {})));
    throw error;
  }
}
