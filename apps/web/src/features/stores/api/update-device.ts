import type { Device, UpdateDeviceBody } from '@mise/shared/organisation/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { storeDevicesQueryKey } from './get-store-devices';

export type { UpdateDeviceBody };

/** PATCH /api/devices/:id with the version read. */
export async function updateDevice(id: string, body: UpdateDeviceBody): Promise<Device> {
  const { device } = await apiRequest<{ device: Device }>(`/devices/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body,
  });
  return device;
}

export function useUpdateDevice(storeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateDeviceBody }) => updateDevice(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: storeDevicesQueryKey(storeId) }),
  });
}
