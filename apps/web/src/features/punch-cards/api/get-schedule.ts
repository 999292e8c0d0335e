import type { Schedule } from '@mise/shared/people/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { punchCardsQueryKeys } from './punch-cards-query-keys';

/**
 * GET /api/stores/:storeId/schedule: the store's active employees with today's clock-ins and
 * clock-outs (the server's today on the store's calendar) and their selfies.
 */
export function getSchedule(storeId: string, signal?: AbortSignal): Promise<Schedule> {
  return apiRequest<Schedule>(`/stores/${encodeURIComponent(storeId)}/schedule`, { signal });
}

export function scheduleQueryOptions(storeId: string) {
  return queryOptions({
    queryKey: punchCardsQueryKeys.schedule(storeId),
    queryFn: ({ signal }) => getSchedule(storeId, signal),
  });
}

export function useSchedule(storeId: string) {
  return useQuery(scheduleQueryOptions(storeId));
}
