import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { databaseElements, elementAttachments, probes, storeElements } from '../../db/schema';

/** A 1×1 PNG. */
export const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A small valid-looking PDF (the magic bytes are what the server checks). */
export const pdf = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

/** A multipart/form-data body with one file. */
export function multipart(file: { data: Buffer; filename: string; contentType: string }) {
  const boundary = `----elements-${randomBytes(6).toString('hex')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), file.data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export const pngUpload = () =>
  multipart({ data: png, filename: 'picture.png', contentType: 'image/png' });
export const pdfUpload = (filename = 'Fiche technique.pdf') =>
  multipart({ data: pdf, filename, contentType: 'application/pdf' });

/** `?version=N` with the element's current version (uploads and renames need the one read). */
export async function versionQuery(
  db: Database,
  level: 'database' | 'store',
  id: string,
): Promise<string> {
  const table = level === 'database' ? databaseElements : storeElements;
  const [row] = await db.select({ version: table.version }).from(table).where(eq(table.id, id));
  return `?version=${row?.version ?? 0}`;
}

/** `?version=N` of the element an attachment belongs to. */
export async function attachmentVersionQuery(db: Database, attachmentId: string): Promise<string> {
  const [row] = await db
    .select()
    .from(elementAttachments)
    .where(eq(elementAttachments.id, attachmentId));
  if (!row) return '?version=0';
  return row.database_element_id
    ? versionQuery(db, 'database', row.database_element_id)
    : versionQuery(db, 'store', row.store_element_id!);
}

let probeSequence = 0;

/** A probe of a store (or of none), with a unique probeUID unless one is given. */
export async function buildProbe(
  db: Database,
  values: Partial<typeof probes.$inferInsert> & { store_id: string | null },
) {
  probeSequence += 1;
  const uid = `test-probe-${randomBytes(4).toString('hex')}-${probeSequence}`;
  const [row] = await db
    .insert(probes)
    .values({
      probe_uid: uid,
      name: `Probe ${probeSequence}`,
      secret_hash: `hash-${uid}`,
      ...values,
    })
    .returning();
  return row!;
}
