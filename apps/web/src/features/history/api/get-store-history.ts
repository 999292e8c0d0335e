import type { HistoryResponse } from '@mise/shared/history/schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { historyQueryKeys, type StoreHistoryRequest } from './history-query-keys';

/**
 * GET /api/stores/:storeId/history?start&end&module&filter: one tab's tasks over the range
 * (at most 31 days, else 400 'date-range-too-long').
 */
export function getStoreHistory(
  { storeId, start, end, module, filter }: StoreHistoryRequest,
  signal?: AbortSignal,
): Promise<HistoryResponse> {
  return apiRequest<HistoryResponse>(`/stores/${encodeURIComponent(storeId)}/history`, {
    query: { start, end, module, filter },
    signal,
  });
}

export function storeHistoryQueryOptions(request: StoreHistoryRequest) {
  return queryOptions({
    queryKey: historyQueryKeys.storeHistory(request),
    queryFn: ({ signal }) => getStoreHistory(request, signal),
  });
}

/** Null while the screen lacks a store or a valid range: nothing is asked. */
export function useStoreHistory(request: StoreHistoryRequest | null) {
  return useQuery({
    ...storeHistoryQueryOptions(
      request ?? { storeId: '', start: '', end: '', module: 'temperatures', filter: 'completed' },
    ),
    enabled: request !== null,
    placeholderData: keepPreviousData,
  });
}
