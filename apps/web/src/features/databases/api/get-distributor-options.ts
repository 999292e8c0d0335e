import type { DistributorOption } from '@mise/shared/organisation/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

/** GET /api/distributors (the distributor picker of databases). */
export async function getDistributorOptions(signal?: AbortSignal): Promise<DistributorOption[]> {
  const { items } = await apiRequest<{ items: DistributorOption[] }>('/distributors', { signal });
  return items;
}

export function distributorOptionsQueryOptions() {
  return queryOptions({
    queryKey: ['distributors', 'options'],
    queryFn: ({ signal }) => getDistributorOptions(signal),
    staleTime: 60_000,
  });
}

export function useDistributorOptions(isEnabled: boolean) {
  return useQuery({ ...distributorOptionsQueryOptions(), enabled: isEnabled });
}
