import type { SensorSession } from '@mise/shared/organisation/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

export type { SensorSession };

/** GET /api/koovea/session?storeId=: who connected the sensor provider, and the hubs (stickers). */
export function getSensorSession(storeId: string, signal?: AbortSignal): Promise<SensorSession> {
  return apiRequest('/koovea/session', { query: { storeId }, signal });
}

export function sensorSessionQueryOptions(storeId: string) {
  return queryOptions({
    queryKey: ['sensor', 'session', storeId],
    queryFn: ({ signal }) => getSensorSession(storeId, signal),
  });
}

export function useSensorSession(storeId: string, isEnabled: boolean) {
  return useQuery({ ...sensorSessionQueryOptions(storeId), enabled: isEnabled });
}
