import type { HistoryProbes } from '@mise/shared/history/schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { type HistoryProbesRequest, historyQueryKeys } from './history-query-keys';

/**
 * GET /api/stores/:storeId/history/probes?start&end: the alert episodes overlapping the period
 * (newest first) and the bound elements' probe readings per store day (issue 15).
 */
export function getHistoryProbes(
  { storeId, start, end }: HistoryProbesRequest,
  signal?: AbortSignal,
): Promise<HistoryProbes> {
  return apiRequest<HistoryProbes>(`/stores/${encodeURIComponent(storeId)}/history/probes`, {
    query: { start, end },
    signal,
  });
}

export function historyProbesQueryOptions(request: HistoryProbesRequest) {
  return queryOptions({
    queryKey: historyQueryKeys.probes(request),
    queryFn: ({ signal }) => getHistoryProbes(request, signal),
  });
}

/** Null while the screen lacks a store or a valid range: nothing is asked. */
export function useHistoryProbes(request: HistoryProbesRequest | null) {
  return useQuery({
    ...historyProbesQueryOptions(request ?? { storeId: '', start: '', end: '' }),
    enabled: request !== null,
    placeholderData: keepPreviousData,
  });
}
