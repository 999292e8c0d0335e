import type { AuditResultSummary } from '@mise/shared/audits/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { auditResultsQueryKeys } from './audit-results-query-keys';

/** GET /api/audit-results/in-progress?audit_id=: the caller's results in progress, newest first. */
export async function getInProgressResults(
  auditId: string,
  signal?: AbortSignal,
): Promise<AuditResultSummary[]> {
  const { items } = await apiRequest<{ items: AuditResultSummary[] }>(
    '/audit-results/in-progress',
    { query: { audit_id: auditId }, signal },
  );
  return items;
}

export function inProgressResultsQueryOptions(auditId: string) {
  return queryOptions({
    queryKey: auditResultsQueryKeys.inProgress(auditId),
    queryFn: ({ signal }) => getInProgressResults(auditId, signal),
  });
}

export function useInProgressResults(auditId: string | null) {
  return useQuery({ ...inProgressResultsQueryOptions(auditId ?? ''), enabled: Boolean(auditId) });
}
