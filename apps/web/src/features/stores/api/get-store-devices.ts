import type { Device } from '@mise/shared/organisation/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

export const storeDevicesQueryKey = (storeId: string) => ['stores', 'devices', storeId] as const;

/** GET /api/stores/:id/devices */
export async function getStoreDevices(storeId: string, signal?: AbortSignal): Promise<Device[]> {
  const { items } = await apiRequest<{ items: Device[] }>(
    `/stores/${encodeURIComponent(storeId)}/devices`,
    { signal },
  );
  return items;
}

export function storeDevicesQueryOptions(storeId: string) {
  return queryOptions({
    queryKey: storeDevicesQueryKey(storeId),
    queryFn: ({ signal }) => getStoreDevices(storeId, signal),
  });
}

export function useStoreDevices(storeId: string) {
  return useQuery(storeDevicesQueryOptions(storeId));
}
