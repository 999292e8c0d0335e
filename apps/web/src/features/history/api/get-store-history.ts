import type { HistoryResponse } from '@mise/shared/history/schemas';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { historyQueryKeys, type StoreHistoryRequest } from './history-query-keys';

/**
 * GET /api/stores/:storeId/history?start&end&module&filter&search&cursor: one page of a tab's
 * tasks over the range, newest first (at most 31 days, else 400 'date-range-too-long').
 */
export function getStoreHistory(
  { storeId, start, end, module, filter, search }: StoreHistoryRequest,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<HistoryResponse> {
  const query: Record<string, string> = { start, end, module, filter };
  if (search) query.search = search;
  if (cursor) query.cursor = cursor;
  return apiRequest<HistoryResponse>(`/stores/${encodeURIComponent(storeId)}/history`, {
    query,
    signal,
  });
}

export function storeHistoryQueryOptions(request: StoreHistoryRequest) {
  return infiniteQueryOptions({
    queryKey: historyQueryKeys.storeHistory(request),
    queryFn: ({ signal, pageParam }) => getStoreHistory(request, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.next_cursor,
  });
}

/** Null while the screen lacks a store or a valid range: nothing is asked. "Show more" pages on. */
export function useStoreHistory(request: StoreHistoryRequest | null) {
  return useInfiniteQuery({
    ...storeHistoryQueryOptions(
      request ?? {
        storeId: '',
        start: '',
        end: '',
        module: 'temperatures',
        filter: 'completed',
        search: '',
      },
    ),
    enabled: request !== null,
    placeholderData: keepPreviousData,
  });
}
