import type { AuditResult } from '@mise/shared/audits/schemas';
import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { auditResultsQueryKeys } from './audit-results-query-keys';

/** GET /api/audit-results/:resultId: a result with its structure, answers and section scores. */
export async function getAuditResult(resultId: string, signal?: AbortSignal): Promise<AuditResult> {
  const { result } = await apiRequest<{ result: AuditResult }>(
    `/audit-results/${encodeURIComponent(resultId)}`,
    { signal },
  );
  return result;
}

export function auditResultQueryOptions(resultId: string) {
  return queryOptions({
    queryKey: auditResultsQueryKeys.result(resultId),
    queryFn: ({ signal }) => getAuditResult(resultId, signal),
  });
}

export function useAuditResult(resultId: string | null) {
  return useQuery({ ...auditResultQueryOptions(resultId ?? ''), enabled: Boolean(resultId) });
}

/**
 * Several results at once (the results screen's selection), in the order of `resultIds`: the
 * loaded ones (a stable list while none changes), whether any is loading, the first error.
 */
export function useAuditResultList(resultIds: readonly string[]) {
  return useQueries({
    queries: resultIds.map((resultId) => auditResultQueryOptions(resultId)),
    combine: (queries) => ({
      results: queries
        .map((query) => query.data)
        .filter((data): data is AuditResult => data !== undefined),
      isPending: queries.some((query) => query.isPending),
      error: queries.find((query) => query.isError)?.error ?? null,
    }),
  });
}
