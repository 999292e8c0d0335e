import type { StoreHome } from '@mise/shared/history/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { homeQueryKeys } from './home-query-keys';

/**
 * GET /api/stores/:storeId/home: the store's score over the last 30 days, today's tasks by
 * tab and the equipment temperatures (both null for managers), and its hidden modules.
 */
export function getStoreHome(storeId: string, signal?: AbortSignal): Promise<StoreHome> {
  return apiRequest<StoreHome>(`/stores/${encodeURIComponent(storeId)}/home`, { signal });
}

export function storeHomeQueryOptions(storeId: string) {
  return queryOptions({
    queryKey: homeQueryKeys.store(storeId),
    queryFn: ({ signal }) => getStoreHome(storeId, signal),
  });
}

export function useStoreHome(storeId: string) {
  return useQuery(storeHomeQueryOptions(storeId));
}
