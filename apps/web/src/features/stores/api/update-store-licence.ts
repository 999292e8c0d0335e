import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { storesQueryKey } from './get-stores';

/** POST /api/stores/updateLicence (502 licence/monitoring-failed when the monitoring server refuses). */
export function updateStoreLicence(body: {
  storeId: string;
  activated: boolean;
}): Promise<{ status: 'ok' }> {
  return apiRequest('/stores/updateLicence', { method: 'POST', body });
}

export function useUpdateStoreLicence(storeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (activated: boolean) => updateStoreLicence({ storeId, activated }),
    // The detail is refreshed by the save that follows (spec 000 §5: licence first, then the rest).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...storesQueryKey, 'list'] }),
  });
}
