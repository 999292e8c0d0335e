import type { StoreDetail, UpdateStoreBody } from '@mise/shared/organisation/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { storeQueryKey } from './get-store';
import { storesQueryKey } from './get-stores';

/** PATCH /api/stores/:id with the version read. */
export async function updateStore(id: string, body: UpdateStoreBody): Promise<StoreDetail> {
  const { store } = await apiRequest<{ store: StoreDetail }>(`/stores/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body,
  });
  return store;
}

export function useUpdateStore(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateStoreBody) => updateStore(id, body),
    onSuccess: (store) => {
      queryClient.setQueryData(storeQueryKey(id), store);
      void queryClient.invalidateQueries({ queryKey: [...storesQueryKey, 'list'] });
    },
  });
}
