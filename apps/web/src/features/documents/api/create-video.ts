import type { CreateVideoResponse, createVideoBodySchema } from '@mise/shared/documents/schemas';
import type { z } from 'zod';
import { apiRequest } from '../../../shared/api/api-client';

export type CreateVideoBody = z.input<typeof createVideoBodySchema>;

/**
 * POST /api/documents/videos: with an outside video host, the video's placeholder document and
 * the ticket to send its bytes there; with the local one `{ host: 'local' }` (use the resumable
 * upload). Refusals: 'documents.file-too-big', 'documents.file-exists',
 * 'documents.video-host-failed'…
 */
export function createVideo(body: CreateVideoBody): Promise<CreateVideoResponse> {
  return apiRequest<CreateVideoResponse>('/documents/videos', { method: 'POST', body });
}
