import type { AuditAnswerInput, AuditResult } from '@mise/shared/audits/schemas';
import { apiRequest, apiUpload } from '../../../shared/api/api-client';

/** POST /api/audits/:auditId/results {store_id}: starts, or resumes the caller's result there. */
export async function startAuditResult(auditId: string, storeId: string): Promise<AuditResult> {
  const { result } = await apiRequest<{ result: AuditResult }>(
    `/audits/${encodeURIComponent(auditId)}/results`,
    { method: 'POST', body: { store_id: storeId } },
  );
  return result;
}

/** PATCH /api/audit-results/:resultId/answers: each answer replaces that question's. */
export async function saveAnswers(
  resultId: string,
  answers: AuditAnswerInput[],
): Promise<AuditResult> {
  const { result } = await apiRequest<{ result: AuditResult }>(
    `/audit-results/${encodeURIComponent(resultId)}/answers`,
    { method: 'PATCH', body: { answers } },
  );
  return result;
}

/** POST /api/audit-results/:resultId/files (multipart: question_id, then the file). */
export function uploadAnswerFile(
  resultId: string,
  questionId: string,
  file: File,
  onProgress?: (percent: number) => void,
): Promise<{ url: string; name: string }> {
  const formData = new FormData();
  // The server reads the question before the file: the field comes first.
  formData.append('question_id', questionId);
  formData.append('file', file);
  return apiUpload<{ url: string; name: string }>(
    `/audit-results/${encodeURIComponent(resultId)}/files`,
    { formData, onProgress },
  );
}

/** POST /api/audit-results/:resultId/submit: the submitted result with its score. */
export async function submitAuditResult(resultId: string): Promise<AuditResult> {
  const { result } = await apiRequest<{ result: AuditResult }>(
    `/audit-results/${encodeURIComponent(resultId)}/submit`,
    { method: 'POST' },
  );
  return result;
}

/** POST /api/pdf/audit {auditResultPath}: the stored PDF's address (rendered once). */
export async function createAuditPdf(auditResultPath: string): Promise<string> {
  const { url } = await apiRequest<{ url: string }>('/pdf/audit', {
    method: 'POST',
    body: { auditResultPath },
  });
  return url;
}
