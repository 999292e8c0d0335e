import type { punchCardsPdfBodySchema } from '@mise/shared/people/schemas';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { type DownloadProgress, downloadFile } from '../../../shared/ui/download-file';

export type PunchCardsPdfRequest = {
  body: z.input<typeof punchCardsPdfBodySchema>;
  onProgress?: (progress: DownloadProgress) => void;
};

export const punchCardsPdfFileName = 'punch_cards.pdf';

/** POST /api/pdf/punch_cards {storeId, start, end, lang}: the range's punch cards as a PDF. */
export function downloadPunchCardsPdf({ body, onProgress }: PunchCardsPdfRequest) {
  return downloadFile({
    path: '/pdf/punch_cards',
    method: 'POST',
    body,
    expectedType: 'application/pdf',
    fileName: punchCardsPdfFileName,
    onProgress,
  });
}

export function useDownloadPunchCardsPdf() {
  return useMutation({ mutationFn: downloadPunchCardsPdf });
}
