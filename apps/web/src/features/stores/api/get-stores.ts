import type { StoreSummary } from '@mise/shared/organisation/schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

export type StoresFilter = { search: string; isInactiveIncluded: boolean };

export const storesQueryKey = ['stores'] as const;

/** GET /api/stores: the stores the viewer may see. */
export async function getStores(
  filter: StoresFilter,
  signal?: AbortSignal,
): Promise<StoreSummary[]> {
  const { items } = await apiRequest<{ items: StoreSummary[] }>('/stores', {
    query: {
      search: filter.search.trim() || undefined,
      includeInactive: filter.isInactiveIncluded ? 'true' : 'false',
    },
    signal,
  });
  return items;
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
