import type { StoreOption } from '@mise/shared/organisation/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

/** GET /api/stores (picker of the New-account dialog; already scoped by the server). */
export async function getStoreOptions(signal?: AbortSignal): Promise<StoreOption[]> {
  const { items } = await apiRequest<{ items: StoreOption[] }>('/stores', { signal });
  return items;
}

export function storeOptionsQueryOptions() {
  return queryOptions({
    queryKey: ['stores', 'options'],
    queryFn: ({ signal }) => getStoreOptions(signal),
    staleTime: 60_000,
  });
}

export function useStoreOptions(isEnabled: boolean) {
  return useQuery({ ...storeOptionsQueryOptions(), enabled: isEnabled });
}
