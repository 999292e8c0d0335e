import type { StoreDetail } from '@mise/shared/organisation/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { storeQueryKey } from './get-store';

/** POST /api/stores/:id/pairing-key: a new key; the old one stops pairing tablets. */
export function regeneratePairingKey(storeId: string): Promise<{ pairing_key: string }> {
  return apiRequest(`/stores/${encodeURIComponent(storeId)}/pairing-key`, { method: 'POST' });
}

export function useRegeneratePairingKey(storeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => regeneratePairingKey(storeId),
    onSuccess: ({ pairing_key }) =>
      queryClient.setQueryData<StoreDetail>(storeQueryKey(storeId), (store) =>
        store ? { ...store, pairing_key } : store,
      ),
  });
}
