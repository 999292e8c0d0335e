import type { StoreSummary } from '@mise/shared/organisation/schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

export type StoresFilter = { search: string; isInactiveIncluded: boolean; limit?: number };

export const storesQueryKey = ['stores'] as const;

/** GET /api/stores: one page (by name) of the stores the viewer may see, and the match count. */
export async function getStores(
  filter: StoresFilter,
  signal?: AbortSignal,
): Promise<{ items: StoreSummary[]; total: number }> {
  return apiRequest<{ items: StoreSummary[]; total: number }>('/stores', {
    query: {
      search: filter.search.trim() || undefined,
      includeInactive: filter.isInactiveIncluded ? 'true' : 'false',
      limit: filter.limit === undefined ? undefined : String(filter.limit),
    },
    signal,
  });
}

export function storesQueryOptions(filter: StoresFilter) {
  return queryOptions({
    queryKey: [...storesQueryKey, 'list', filter],
    queryFn: ({ signal }) => getStores(filter, signal),
    placeholderData: keepPreviousData,
  });
}

export function useStores(filter: StoresFilter) {
  return useQuery(storesQueryOptions(filter));
}
