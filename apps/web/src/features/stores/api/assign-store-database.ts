import type { StoreDetail } from '@mise/shared/organisation/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { storeQueryKey } from './get-store';
import { storesQueryKey } from './get-stores';

/** POST /api/stores/:id/database (400 invalid-database: none chosen, or it has no distributor). */
export async function assignStoreDatabase(
  storeId: string,
  databaseId: string | null,
): Promise<StoreDetail> {
  const { store } = await apiRequest<{ store: StoreDetail }>(
    `/stores/${encodeURIComponent(storeId)}/database`,
    { method: 'POST', body: { databaseId } },
  );
  return store;
}

export function useAssignStoreDatabase(storeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (databaseId: string | null) => assignStoreDatabase(storeId, databaseId),
    onSuccess: (store) => {
      if (store) queryClient.setQueryData(storeQueryKey(storeId), store);
      void queryClient.invalidateQueries({ queryKey: storeQueryKey(storeId) });
      void queryClient.invalidateQueries({ queryKey: [...storesQueryKey, 'list'] });
    },
  });
}
