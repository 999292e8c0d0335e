import type { CommunicationStats } from '@mise/shared/communications/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { communicationsQueryKeys } from './communication-query-keys';

/**
 * GET /api/communications/:id/stats: total views, views today, median time spent, the share of
 * the aimed employees who saw it and the views per day.
 */
export function getCommunicationStats(
  communicationId: string,
  signal?: AbortSignal,
): Promise<CommunicationStats> {
  return apiRequest<CommunicationStats>(
    `/communications/${encodeURIComponent(communicationId)}/stats`,
    { signal },
  );
}

export function communicationStatsQueryOptions(communicationId: string) {
  return queryOptions({
    queryKey: communicationsQueryKeys.stats(communicationId),
    queryFn: ({ signal }) => getCommunicationStats(communicationId, signal),
  });
}

export function useCommunicationStats(communicationId: string | null) {
  return useQuery({
    ...communicationStatsQueryOptions(communicationId ?? ''),
    enabled: Boolean(communicationId),
  });
}
