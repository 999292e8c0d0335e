import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { storeQueryKey } from './get-store';

/** DELETE /api/stores/:id/owners/:userId */
export function removeStoreOwner(storeId: string, userId: string): Promise<unknown> {
  return apiRequest(`/stores/${encodeURIComponent(storeId)}/owners/${encodeURIComponent(userId)}`, {
    method: 'DELETE',
  });
}

export function useRemoveStoreOwner(storeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => removeStoreOwner(storeId, userId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: storeQueryKey(storeId) }),
  });
}
