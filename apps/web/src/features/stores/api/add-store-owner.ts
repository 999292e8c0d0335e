import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { storeQueryKey } from './get-store';

export type AddOwnerStatus = 'not-elligible' | 'invited' | 'ok';

/** POST /api/stores/addOwner */
export function addStoreOwner(body: {
  email: string;
  storeId: string;
}): Promise<{ status: AddOwnerStatus }> {
  return apiRequest('/stores/addOwner', { method: 'POST', body });
}

export function useAddStoreOwner(storeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => addStoreOwner({ email, storeId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: storeQueryKey(storeId) }),
  });
}
