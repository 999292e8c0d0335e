import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { databaseElements, elementAttachments, storeElements } from '../../db/schema';
import { AppError, notFound } from '../../platform/errors';
import type { Scope } from '../../platform/scope';
import { findDatabaseInScope } from '../databases/databases.service';
import { deleteQueuedFiles, queueStorageDeletions } from '../files/storage-deletions';
import { findStoreInScope } from '../stores/stores.service';
import { type AttachmentRow, nextAttachmentIndex } from './attachments';
import {
  assertUnlocked,
  attachmentOwner,
  type Deps,
  type ElementRef,
  findStoreElement,
  findWritableDatabaseElement,
  ownerPrefix,
} from './elements.service';

/* Files of an element (spec 001 §2.5, §3.8, §7): pictures and encyclopedia attachments. */

/* ---------- Images ---------- */

export type ImageKind = 'illustration' | 'allergen';
const imageColumns = {
  illustration: { url: 'illustration_url', path: 'illustration_path' },
  allergen: { url: 'allergen_illustration_url', path: 'allergen_illustration_path' },
} as const;

/** Key of a new element picture (spec 001 §7). */
export function pictureKey(ref: ElementRef, kind: ImageKind, extension: string): string {
  const folder = `${ownerPrefix(ref)}/element_pictures/${ref.row.id}`;
  const name = `${randomBytes(8).toString('hex')}.${extension}`;
  return kind === 'allergen' ? `${folder}/allergen_illustration/${name}` : `${folder}/${name}`;
}

/**
 * Sets an uploaded picture on the element read at `version` (409 and the new file deleted
 * otherwise); the previous file is queued and removed after commit.
 */
export async function setPicture(
  deps: Deps,
  ref: ElementRef,
  kind: ImageKind,
  key: string,
  version: number,
): Promise<void> {
  const { db } = deps;
  const columns = imageColumns[kind];
  const table = ref.level === 'database' ? databaseElements : storeElements;
  const previous: string[] = [];
  try {
    await db.transaction(async (tx) => {
      const [current] = await tx
        .select({ path: table[columns.path], version: table.version })
        .from(table)
        .where(eq(table.id, ref.row.id))
        .for('update');
      if (!current) throw notFound();
      if (current.version !== version) throw new AppError('conflict/stale-version');
      if (current.path) previous.push(current.path);
      await bumpVersion(tx, ref, version, {
        [columns.url]: `/api/files/${key}`,
        [columns.path]: key,
      });
      await queueStorageDeletions(tx, previous);
    });
  } catch (error) {
    await deps.storage.delete(key).catch(() => {});
    throw error;
  }
  await deleteQueuedFiles(db, deps.storage, previous);
}

/**
 * Moves the element's version from `version` (the one the caller read) with the given
 * columns; a stale version answers 409 conflict/stale-version (the transaction rolls back).
 */
async function bumpVersion(
  tx: Pick<Database, 'update'>,
  ref: ElementRef,
  version: number,
  columns: Record<string, unknown> = {},
): Promise<void> {
  const table = ref.level === 'database' ? databaseElements : storeElements;
  const updated = await tx
    .update(table)
    .set({ ...columns, version: sql`${table.version} + 1`, updated_at: new Date() })
    .where(and(eq(table.id, ref.row.id), eq(table.version, version)))
    .returning({ id: table.id });
  if (updated.length === 0) throw new AppError('conflict/stale-version');
}

/* ---------- Attachments ---------- */

/** Appends an uploaded attachment (already stored under `key`) at the end of the element's. */
export async function addAttachment(
  deps: Deps,
  ref: ElementRef,
  attachment: {
    id: string;
    key: string;
    name: string;
    type: AttachmentRow['type'];
    contentType: string;
    size: number;
  },
  version: number,
): Promise<void> {
  const owner = attachmentOwner(ref);
  try {
    await deps.db.transaction(async (tx) => {
      await bumpVersion(tx, ref, version);
      const index = await nextAttachmentIndex(tx, owner);
      await tx.insert(elementAttachments).values({
        id: attachment.id,
        database_id: owner.level === 'database' ? owner.databaseId : null,
        store_id: owner.level === 'store' ? owner.storeId : null,
        database_element_id: owner.level === 'database' ? owner.elementId : null,
        store_element_id: owner.level === 'store' ? owner.elementId : null,
        name: attachment.name,
        type: attachment.type,
        content_type: attachment.contentType,
        path: attachment.key,
        size: attachment.size,
        index,
      });
    });
  } catch (error) {
    await deps.storage.delete(attachment.key).catch(() => {});
    throw error;
  }
}

async function findAttachmentRow(db: Database, id: string): Promise<AttachmentRow> {
  const [row] = await db.select().from(elementAttachments).where(eq(elementAttachments.id, id));
  if (!row) throw notFound();
  return row;
}

/** The element an attachment belongs to, for a write (permissions and locks checked). */
export async function findAttachmentForWrite(
  db: Database,
  scope: Scope,
  id: string,
): Promise<{ attachment: AttachmentRow; ref: ElementRef }> {
  const attachment = await findAttachmentRow(db, id);
  const ref = attachment.database_element_id
    ? await findWritableDatabaseElement(db, scope, attachment.database_element_id)
    : await findStoreElement(db, scope, attachment.store_element_id!, { isWrite: true });
  assertUnlocked(ref, ['attachments']);
  return { attachment, ref };
}

/** PATCH /api/elementAttachments/:id?version=N {name}: N is the element's version read. */
export async function renameAttachment(
  db: Database,
  scope: Scope,
  id: string,
  name: string,
  version: number,
): Promise<ElementRef> {
  const { ref } = await findAttachmentForWrite(db, scope, id);
  await db.transaction(async (tx) => {
    await bumpVersion(tx, ref, version);
    await tx
      .update(elementAttachments)
      .set({ name, updated_at: new Date() })
      .where(eq(elementAttachments.id, id));
  });
  return ref;
}

/** An attachment the caller may read: its database or store in the scope (404 otherwise). */
export async function findReadableAttachment(
  db: Database,
  scope: Scope,
  id: string,
): Promise<AttachmentRow> {
  const attachment = await findAttachmentRow(db, id);
  if (attachment.database_id) await findDatabaseInScope(db, scope, attachment.database_id);
  else if (attachment.store_id) await findStoreInScope(db, scope, attachment.store_id);
  else throw notFound();
  return attachment;
}
