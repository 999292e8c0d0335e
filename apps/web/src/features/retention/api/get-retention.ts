import type { RetentionResponse } from '@mise/shared/records/retention';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

export const retentionQueryKey = (databaseId: string) =>
  ['databases', databaseId, 'retention'] as const;

/** GET /api/databases/:id/retention: per record type the setting, default, minimum and effective. */
export function getRetention(databaseId: string, signal?: AbortSignal): Promise<RetentionResponse> {
  return apiRequest<RetentionResponse>(`/databases/${encodeURIComponent(databaseId)}/retention`, {
    signal,
  });
}

export function retentionQueryOptions(databaseId: string) {
  return queryOptions({
    queryKey: retentionQueryKey(databaseId),
    queryFn: ({ signal }) => getRetention(databaseId, signal),
  });
}

export function useRetention(databaseId: string) {
  return useQuery(retentionQueryOptions(databaseId));
}
