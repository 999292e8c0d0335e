import type { HistoryExportBody } from '@mise/shared/history/schemas';
import { useMutation } from '@tanstack/react-query';
import { type DownloadProgress, downloadFile } from '../../../shared/ui/download-file';
import { exportFileName } from './export-file-name';

export type HistoryExportRequest = {
  body: HistoryExportBody;
  storeName: string;
  onProgress?: (progress: DownloadProgress) => void;
};

/** POST /api/pdf/tasks {storeId, start, end, filter, lang}: every tab of the range as a PDF. */
export function downloadHistoryPdf({ body, storeName, onProgress }: HistoryExportRequest) {
  return downloadFile({
    path: '/pdf/tasks',
    method: 'POST',
    body,
    expectedType: 'application/pdf',
    fileName: exportFileName(storeName, body.start, body.end, 'pdf'),
    onProgress,
  });
}

export function useDownloadHistoryPdf() {
  return useMutation({ mutationFn: downloadHistoryPdf });
}
