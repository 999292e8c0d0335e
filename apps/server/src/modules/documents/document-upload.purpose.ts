import { maxDocumentBytes, parseDocumentUploadOwner } from '@mise/shared/documents/schemas';
import { eq } from 'drizzle-orm';
import { documents } from '../../db/schema';
import { AppError, forbidden } from '../../platform/errors';
import type { VideoHost } from '../../platform/integrations/video-host';
import { hasSignatureOf, plainFileName } from '../files/uploads';
import { attachmentIdOf } from '../uploads/element-attachments.purpose';
import type { UploadCaller, UploadDeclaration, UploadPurpose } from '../uploads/purposes';
import { assertNameFree, cleanName, recordFile, writableFolder } from './documents.service';

/** Types a browser may show inline when the bytes match (others are sent as downloads). */
const inlineTypes = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'video/mp4',
  'video/webm',
  'video/quicktime',
]);

/** A video's stored name ends with its checked type's extension, which its file address serves. */
const videoExtensions: Record<string, string> = {
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'video/quicktime': 'mov',
};

/** The storage area of an owner's documents (and the video host's path of a video). */
export const areaOf = {
  database: 'databases',
  distributor: 'distributors',
  store: 'stores',
} as const;

async function target(
  deps: Parameters<UploadPurpose['authorize']>[0],
  caller: UploadCaller,
  upload: UploadDeclaration,
) {
  // Documents are managed in the back-office.
  if (caller.kind !== 'user') throw forbidden();
  const parsed = parseDocumentUploadOwner(upload.owner);
  if (!parsed)
    throw new AppError('validation/invalid-input', 'owner: <kind>:<id>:<folder id or root>.');
  if (upload.size > maxDocumentBytes) throw new AppError('documents.file-too-big');
  const name = cleanName(upload.filename);
  const { folder } = await writableFolder(deps.db, caller.scope, parsed.owner, parsed.parentId);
  return { ...parsed, folder, name, user: caller.user };
}

/** The local host's id and link of a video stored at `key`; null from an outside host. */
async function localVideoOf(
  videoHost: VideoHost,
  name: string,
  key: string,
): Promise<{ id: string; url: string } | null> {
  if (videoHost.kind !== 'local') return null;
  const ticket = await videoHost.uploadToken({ name, path: key });
  const url = ticket ? await videoHost.downloadLink(ticket.videoId) : null;
  return ticket && url ? { id: ticket.videoId, url } : null;
}

/**
 * Documents (issue 17) through the resumable path: Upload-Metadata `owner` names the owner and
 * the folder (documentUploadOwner). Refused at creation when the caller may not write there,
 * the folder is locked or the name is taken ('documents.file-exists'); checked again when the
 * last byte arrives. The document's id comes from the upload's, so a completion run twice finds
 * the file it recorded.
 */
export const documentUploadPurpose: UploadPurpose = {
  contentTypes: null,
  async authorize(deps, caller, upload) {
    const found = await target(deps, caller, upload);
    await assertNameFree(deps.db, found.owner, found.folder?.id ?? null, found.name);
  },
  async complete(deps, caller, upload) {
    const id = attachmentIdOf(upload.id);
    const [existing] = await deps.db
      .select({ id: documents.id })
      .from(documents)
      .where(eq(documents.id, id));
    if (existing) return { documentId: id };
    const found = await target(deps, caller, upload);
    await assertNameFree(deps.db, found.owner, found.folder?.id ?? null, found.name);
    // A type shown inline must be what its bytes say; anything else is a download.
    const declared = upload.filetype.toLowerCase();
    const contentType =
      inlineTypes.has(declared) && hasSignatureOf(declared, await upload.head(16))
        ? declared
        : 'application/octet-stream';
    const videoExtension = Object.hasOwn(videoExtensions, contentType)
      ? videoExtensions[contentType]
      : undefined;
    const extension =
      videoExtension ?? (found.name.includes('.') ? found.name.split('.').pop()! : '');
    const key = `${areaOf[found.owner.kind]}/${found.owner.id}/documents/${id}/${plainFileName(found.name, extension)}`;
    const { size } = await upload.moveTo(key);
    // A video's placeholder metadata (spec 002 §3): the local video host keeps the bytes our
    // resumable path just stored and names them. With an outside host the explorer sends videos
    // there (POST /api/documents/videos, document-videos.ts); one that still came this way (an
    // API client) stays ours and plays from the document's own address, as if the host failed.
    const video = videoExtension
      ? await localVideoOf(deps.integrations.videoHost, found.name, key).catch(() => null)
      : null;
    try {
      await recordFile(
        deps.db,
        {
          id,
          owner: found.owner,
          folder: found.folder,
          name: found.name,
          key,
          size,
          contentType,
          video,
          user: {
            id: found.user.id,
            name: `${found.user.name} ${found.user.surname}`.trim() || found.user.email,
          },
        },
        deps.now(),
      );
    } catch (error) {
      await deps.storage.delete(key);
      throw error;
    }
    return { documentId: id };
  },
};
