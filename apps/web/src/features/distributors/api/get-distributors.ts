import type { DistributorSummary } from '@mise/shared/organisation/schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

export type DistributorsFilter = { search: string; isInactiveIncluded: boolean };

export const distributorsQueryKey = ['distributors'] as const;

/** GET /api/distributors: the distributors the viewer may see. */
export async function getDistributors(
  filter: DistributorsFilter,
  signal?: AbortSignal,
): Promise<DistributorSummary[]> {
  const { items } = await apiRequest<{ items: DistributorSummary[] }>('/distributors', {
    query: {
      search: filter.search.trim() || undefined,
      includeInactive: filter.isInactiveIncluded ? 'true' : 'false',
    },
    signal,
  });
  return items;
}

export function distributorsQueryOptions(filter: DistributorsFilter) {
  return queryOptions({
    queryKey: [...distributorsQueryKey, 'list', filter],
    queryFn: ({ signal }) => getDistributors(filter, signal),
    placeholderData: keepPreviousData,
  });
}

export function useDistributors(filter: DistributorsFilter) {
  return useQuery(distributorsQueryOptions(filter));
}
