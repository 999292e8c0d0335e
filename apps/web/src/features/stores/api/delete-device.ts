import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { storeQueryKey } from './get-store';
import { storeDevicesQueryKey } from './get-store-devices';

/** DELETE /api/devices/:id */
export function deleteDevice(id: string): Promise<unknown> {
  return apiRequest(`/devices/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useDeleteDevice(storeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDevice,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: storeDevicesQueryKey(storeId) });
      void queryClient.invalidateQueries({ queryKey: storeQueryKey(storeId) });
    },
  });
}
