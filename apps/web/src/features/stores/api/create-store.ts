import type { CreateStoreBody, StoreDetail } from '@mise/shared/organisation/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { storesQueryKey } from './get-stores';

/** POST /api/stores (admin, distributor); 409 form.store.invalid.exists on a duplicate. */
export async function createStore(body: CreateStoreBody): Promise<StoreDetail> {
  const { store } = await apiRequest<{ store: StoreDetail }>('/stores', { method: 'POST', body });
  return store;
}

export function useCreateStore() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createStore,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...storesQueryKey, 'list'] }),
  });
}
