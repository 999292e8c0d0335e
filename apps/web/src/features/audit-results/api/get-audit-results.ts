import type { AuditResultSummary } from '@mise/shared/audits/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { auditResultsQueryKeys } from './audit-results-query-keys';

/** GET /api/audits/:auditId/results: the submitted results, newest first (admin and manager). */
export async function getAuditResults(
  auditId: string,
  signal?: AbortSignal,
): Promise<AuditResultSummary[]> {
  const { items } = await apiRequest<{ items: AuditResultSummary[] }>(
    `/audits/${encodeURIComponent(auditId)}/results`,
    { signal },
  );
  return items;
}

export function auditResultsQueryOptions(auditId: string) {
  return queryOptions({
    queryKey: auditResultsQueryKeys.results(auditId),
    queryFn: ({ signal }) => getAuditResults(auditId, signal),
  });
}

export function useAuditResults(auditId: string | null) {
  return useQuery({ ...auditResultsQueryOptions(auditId ?? ''), enabled: Boolean(auditId) });
}
