import type { Attachment } from '@mise/shared/catalogue/schemas';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { elementAttachments } from '../../db/schema';
import { AppError } from '../../platform/errors';

export type AttachmentRow = typeof elementAttachments.$inferSelect;
type Executor = Pick<Database, 'select' | 'insert' | 'update' | 'delete'>;

/** Whose attachments: a database element's or a store element's. */
export type AttachmentOwner =
  | { level: 'database'; elementId: string; databaseId: string }
  | { level: 'store'; elementId: string; storeId: string };

export const ownerColumn = (owner: AttachmentOwner) =>
  owner.level === 'database'
    ? eq(elementAttachments.database_element_id, owner.elementId)
    : eq(elementAttachments.store_element_id, owner.elementId);

export function attachmentsOf(db: Pick<Database, 'select'>, owner: AttachmentOwner) {
  return db
    .select()
    .from(elementAttachments)
    .where(ownerColumn(owner))
    .orderBy(asc(elementAttachments.index), asc(elementAttachments.id));
}

export function attachmentsOfDatabaseElements(db: Pick<Database, 'select'>, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([] as AttachmentRow[]);
  return db
    .select()
    .from(elementAttachments)
    .where(inArray(elementAttachments.database_element_id, ids))
    .orderBy(asc(elementAttachments.index), asc(elementAttachments.id));
}

export function attachmentsOfStoreElements(db: Pick<Database, 'select'>, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([] as AttachmentRow[]);
  return db
    .select()
    .from(elementAttachments)
    .where(inArray(elementAttachments.store_element_id, ids))
    .orderBy(asc(elementAttachments.index), asc(elementAttachments.id));
}

export const fileUrl = (path: string) => `/api/files/${path}`;

export function presentAttachment(row: AttachmentRow, isInherited: boolean): Attachment {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    url: fileUrl(row.path),
    size: row.size,
    index: row.index,
    video_id: row.video_id,
    inherited: isInherited,
  };
}

/**
 * The element PATCH's `attachments`: order and names of the element's own attachments; those
 * left out are deleted. Answers the storage paths to delete once the transaction commits.
 */
export async function saveAttachmentOrder(
  tx: Executor,
  owner: AttachmentOwner,
  list: { id: string; name: string }[],
): Promise<string[]> {
  const existing = await tx
    .select({ id: elementAttachments.id, path: elementAttachments.path })
    .from(elementAttachments)
    .where(ownerColumn(owner));
  const byId = new Map(existing.map((row) => [row.id, row]));
  const seen = new Set<string>();
  for (const [position, item] of list.entries()) {
    if (!byId.has(item.id) || seen.has(item.id)) {
      throw new AppError('attachment/unknown-attachment', undefined, [
        { path: `attachments.${position}`, message: 'Unknown attachment.' },
      ]);
    }
    seen.add(item.id);
  }
  const removed = existing.filter((row) => !seen.has(row.id));
  if (removed.length) {
    await tx.delete(elementAttachments).where(
      inArray(
        elementAttachments.id,
        removed.map((row) => row.id),
      ),
    );
  }
  const now = new Date();
  for (const [position, item] of list.entries()) {
    await tx
      .update(elementAttachments)
      .set({ name: item.name, index: position, updated_at: now })
      .where(and(eq(elementAttachments.id, item.id), ownerColumn(owner)));
  }
  return removed.map((row) => row.path);
}

/** The index after the element's last attachment (appended at the end). */
export async function nextAttachmentIndex(tx: Executor, owner: AttachmentOwner): Promise<number> {
  const [row] = await tx
    .select({ next: sql<number>`coalesce(max(${elementAttachments.index}) + 1, 0)::int` })
    .from(elementAttachments)
    .where(ownerColumn(owner));
  return row?.next ?? 0;
}

/** RFC 6266 / RFC 5987 Content-Disposition of a download, with an ASCII fallback name. */
export function contentDisposition(name: string, extension: string): string {
  const withExtension = name.toLowerCase().endsWith(`.${extension}`)
    ? name
    : `${name}.${extension}`;
  const fallback = withExtension
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(withExtension).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
