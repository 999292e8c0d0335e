import { randomUUID } from 'node:crypto';
import {
  type CreateVideoResponse,
  type DocumentOwner,
  maxDocumentBytes,
} from '@mise/shared/documents/schemas';
import type { Database } from '../../db/client';
import { AppError } from '../../platform/errors';
import type { VideoHost, VideoHostLog } from '../../platform/integrations/video-host';
import type { Scope } from '../../platform/scope';
import { plainFileName } from '../files/uploads';
import { areaOf } from './document-upload.purpose';
import {
  assertNameFree,
  cleanName,
  findItem,
  presentAll,
  recordFile,
  writableFolder,
} from './documents.service';

/** A video's type as the browser names it (video/mp4, video/quicktime, video/x-matroska…). */
const videoTypePattern = /^video\/[a-z0-9][a-z0-9.+-]{0,60}$/;

/**
 * POST /api/documents/videos (spec 002 §3, §7, §8; issue 17): a video uploaded in the explorer
 * while an outside video host is configured. The checks of a document upload come first (write
 * rights and lock, 'documents.file-too-big', 'documents.invalid-name', 'documents.file-exists'),
 * before anything is asked of the host. Then the host's upload ticket, and at once the video's
 * placeholder document (isVideo, video_id, video_url when the host already gives a link; no
 * stored object): the schema has no pending state, so the row exists while the browser sends
 * the bytes to the host, and the browser deletes it when the upload is cancelled or refused.
 * No ticket: 'documents.video-host-failed' and no row. With the local host nothing is recorded:
 * the answer tells the browser to use the resumable upload like any file.
 */
export async function createHostedVideo(
  db: Database,
  services: { videoHost: VideoHost; log: VideoHostLog },
  scope: Scope,
  body: {
    owner: DocumentOwner;
    parent_id: string | null;
    name: string;
    size: number;
    content_type: string;
  },
  user: { id: string; name: string },
  now: Date,
): Promise<CreateVideoResponse> {
  const { folder } = await writableFolder(db, scope, body.owner, body.parent_id);
  if (body.size > maxDocumentBytes) throw new AppError('documents.file-too-big');
  const contentType = body.content_type.toLowerCase();
  if (!videoTypePattern.test(contentType)) throw new AppError('file/unsupported-type');
  const name = cleanName(body.name);
  await assertNameFree(db, body.owner, folder?.id ?? null, name);
  const { videoHost, log } = services;
  if (videoHost.kind === 'local') return { host: 'local' };

  const id = randomUUID();
  const extension = name.includes('.') ? name.split('.').pop()! : '';
  const path = `${areaOf[body.owner.kind]}/${body.owner.id}/documents/${id}/${plainFileName(name, extension)}`;
  const ticket = await videoHost.uploadToken({ name, path }).catch(() => null);
  if (!ticket) throw new AppError('documents.video-host-failed');
  // A fresh video may have no link yet: its url is then the document's own address, which
  // asks the host for the link when the video is opened.
  const url = await videoHost.downloadLink(ticket.videoId).catch(() => null);
  try {
    await recordFile(
      db,
      {
        id,
        owner: body.owner,
        folder,
        name,
        key: null,
        size: body.size,
        contentType,
        video: { id: ticket.videoId, url },
        user,
      },
      now,
    );
  } catch (error) {
    // The name was taken meanwhile (or the row failed): the host's empty video goes too.
    const isRemoved = await videoHost.remove(ticket.videoId).catch(() => false);
    if (!isRemoved) log({ videoId: ticket.videoId }, 'video removal failed');
    throw error;
  }
  const { row, root } = await findItem(db, scope, id);
  const [item] = await presentAll(db, [row], root);
  return {
    host: 'http',
    item: item!,
    ticket: {
      endpoint: ticket.endpoint,
      metadata: ticket.metadata,
      headers: ticket.headers,
      retryDelays: [...ticket.retryDelays],
    },
  };
}
