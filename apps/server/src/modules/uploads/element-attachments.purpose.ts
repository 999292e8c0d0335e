import { attachmentContentTypes } from '@mise/shared/catalogue/constants';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { elementAttachments } from '../../db/schema';
import type { AppDeps } from '../../platform/deps';
import { AppError, forbidden, notFound } from '../../platform/errors';
import { addAttachment } from '../elements/element-files.service';
import {
  assertUnlocked,
  type ElementRef,
  findStoreElement,
  findWritableDatabaseElement,
  ownerPrefix,
} from '../elements/elements.service';
import { attachmentNameOf, hasSignatureOf } from '../files/uploads';
import type { UploadCaller, UploadPurpose, UploadPurposes } from './purposes';

/**
 * The attachment id of an upload: a UUID made from the upload id, so a completion that runs
 * twice (a retried last request, a restart in between) finds the attachment it already added.
 */
export function attachmentIdOf(uploadId: string): string {
  const hex = uploadId.toLowerCase();
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The element an upload is for, writable by the caller with its attachments unlocked. */
async function findWritableElement(
  deps: AppDeps,
  caller: UploadCaller,
  level: 'database' | 'store',
  owner: string,
): Promise<ElementRef> {
  if (!z.uuid().safeParse(owner).success) throw notFound();
  // Attachments are edited in the back-office; a tablet only reads them.
  if (caller.kind !== 'user') throw forbidden();
  const ref =
    level === 'database'
      ? await findWritableDatabaseElement(deps.db, caller.scope, owner)
      : await findStoreElement(deps.db, caller.scope, owner, { isWrite: true });
  assertUnlocked(ref, ['attachments']);
  return ref;
}

/**
 * Encyclopedia attachments (spec 001 §3.8) through the resumable path: Upload-Metadata
 * `owner` is the element id. Checked again at completion (the element may have been deleted or
 * locked meanwhile); appended at the end of the element's attachments, as the plain upload.
 */
function elementAttachmentPurpose(level: 'database' | 'store'): UploadPurpose {
  return {
    contentTypes: Object.keys(attachmentContentTypes),
    async authorize(deps, caller, upload) {
      await findWritableElement(deps, caller, level, upload.owner);
    },
    async complete(deps, caller, upload) {
      const id = attachmentIdOf(upload.id);
      const [existing] = await deps.db
        .select({ id: elementAttachments.id })
        .from(elementAttachments)
        .where(eq(elementAttachments.id, id));
      if (existing) return { attachmentId: id, elementId: upload.owner };
      const allowed = attachmentContentTypes[upload.filetype];
      if (!allowed || !hasSignatureOf(upload.filetype, await upload.head(16))) {
        throw new AppError('file/unsupported-type');
      }
      // The element's version moves with each write: one read, one append; a write that
      // slipped in between (409) is retried on the new version.
      for (let attempt = 1; ; attempt++) {
        const ref = await findWritableElement(deps, caller, level, upload.owner);
        const key = `${ownerPrefix(ref)}/element_attachments/${ref.row.id}/${id}.${allowed.extension}`;
        const { size } = await upload.moveTo(key);
        try {
          await addAttachment(
            deps,
            ref,
            {
              id,
              key,
              name: attachmentNameOf(upload.filename),
              type: allowed.type,
              contentType: upload.filetype,
              size,
            },
            ref.row.version,
          );
          return { attachmentId: id, elementId: ref.row.id };
        } catch (error) {
          const isStale = error instanceof AppError && error.code === 'conflict/stale-version';
          if (!isStale || attempt >= 3) throw error;
        }
      }
    },
  };
}

export function registerElementAttachmentPurposes(purposes: UploadPurposes): void {
  purposes
    .register('database-element-attachment', elementAttachmentPurpose('database'))
    .register('store-element-attachment', elementAttachmentPurpose('store'));
}
