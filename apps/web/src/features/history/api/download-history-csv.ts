import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '../../../shared/ui/download-file';
import type { HistoryExportRequest } from './download-history-pdf';
import { exportFileName } from './export-file-name';

/** POST /api/csv/tasks {storeId, start, end, filter, lang}: a row per result line, as CSV. */
export function downloadHistoryCsv({ body, storeName, onProgress }: HistoryExportRequest) {
  return downloadFile({
    path: '/csv/tasks',
    method: 'POST',
    body,
    expectedType: 'text/csv',
    fileName: exportFileName(storeName, body.start, body.end, 'csv'),
    onProgress,
  });
}

export function useDownloadHistoryCsv() {
  return useMutation({ mutationFn: downloadHistoryCsv });
}
