import type { SensorTags } from '@mise/shared/organisation/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

export type { SensorTags };

/** GET /api/koovea/tags?storeId=: the provider's probes (tags), sorted by name. */
export function getSensorTags(storeId: string, signal?: AbortSignal): Promise<SensorTags> {
  return apiRequest('/koovea/tags', { query: { storeId }, signal });
}

export function sensorTagsQueryOptions(storeId: string) {
  return queryOptions({
    queryKey: ['sensor', 'tags', storeId],
    queryFn: ({ signal }) => getSensorTags(storeId, signal),
  });
}

export function useSensorTags(storeId: string, isEnabled: boolean) {
  return useQuery({ ...sensorTagsQueryOptions(storeId), enabled: isEnabled });
}
