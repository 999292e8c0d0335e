import type { HistoryStore } from '@mise/shared/history/schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { historyQueryKeys } from './history-query-keys';

/** GET /api/history/stores?search=: the active, licensed stores the user may see in history. */
export async function getHistoryStores(
  search: string,
  signal?: AbortSignal,
): Promise<HistoryStore[]> {
  const { items } = await apiRequest<{ items: HistoryStore[] }>('/history/stores', {
    query: { search: search.trim() || undefined },
    signal,
  });
  return items;
}

export function historyStoresQueryOptions(search: string) {
  const term = search.trim();
  return queryOptions({
    queryKey: historyQueryKeys.stores(term),
    queryFn: ({ signal }) => getHistoryStores(term, signal),
    staleTime: 60_000,
  });
}

export function useHistoryStores(search: string) {
  return useQuery({ ...historyStoresQueryOptions(search), placeholderData: keepPreviousData });
}
