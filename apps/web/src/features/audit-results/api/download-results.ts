import { downloadFile } from '../../../shared/ui/download-file';

/** GET /api/audits/:auditId/results.csv?ids=: the chosen results as CSV (downloaded). */
export function downloadResultsCsv(
  auditId: string,
  resultIds: readonly string[],
  fileName: string,
) {
  const ids = encodeURIComponent(resultIds.join(','));
  return downloadFile({
    path: `/audits/${encodeURIComponent(auditId)}/results.csv?ids=${ids}`,
    expectedType: 'text/csv',
    fileName,
  });
}

/** Hands a stored file (a /api/files/... address) to the browser as a download. */
export function downloadStoredFile(url: string, fileName: string): void {
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}
