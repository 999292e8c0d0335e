import type { StoreSummary } from '@mise/shared/organisation/schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { auditResultsQueryKeys } from './audit-results-query-keys';

/** How many stores the picker lists at once (refine the search past it). */
export const auditStoresLimit = 100;

/**
 * GET /api/stores?databaseId=&search=: the active stores of the audit's database in the
 * caller's scope, by name (one page, and the match count).
 */
export async function getAuditStores(
  databaseId: string,
  search: string,
  signal?: AbortSignal,
): Promise<{ items: StoreSummary[]; total: number }> {
  return apiRequest<{ items: StoreSummary[]; total: number }>('/stores', {
    query: {
      databaseId,
      search: search.trim() || undefined,
      limit: String(auditStoresLimit),
    },
    signal,
  });
}

export function auditStoresQueryOptions(databaseId: string, search: string) {
  return queryOptions({
    queryKey: auditResultsQueryKeys.stores(databaseId, search.trim()),
    queryFn: ({ signal }) => getAuditStores(databaseId, search, signal),
    placeholderData: keepPreviousData,
  });
}

export function useAuditStores(databaseId: string | null, search: string) {
  return useQuery({
    ...auditStoresQueryOptions(databaseId ?? '', search),
    enabled: Boolean(databaseId),
  });
}
