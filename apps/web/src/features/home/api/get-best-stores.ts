import type { BestStore } from '@mise/shared/history/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { homeQueryKeys } from './home-query-keys';

/**
 * GET /api/home/best-stores?databaseId=: the top 5 stores by score, best first, stores
 * without a score skipped; the selected database's stores only when one is given.
 */
export function getBestStores(
  databaseId: string | null,
  signal?: AbortSignal,
): Promise<{ items: BestStore[] }> {
  return apiRequest<{ items: BestStore[] }>('/home/best-stores', {
    query: { databaseId },
    signal,
  });
}

export function bestStoresQueryOptions(databaseId: string | null) {
  return queryOptions({
    queryKey: homeQueryKeys.bestStores(databaseId),
    queryFn: ({ signal }) => getBestStores(databaseId, signal),
  });
}

export function useBestStores(databaseId: string | null) {
  return useQuery(bestStoresQueryOptions(databaseId));
}
