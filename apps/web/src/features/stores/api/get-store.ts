import type { StoreDetail } from '@mise/shared/organisation/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { storesQueryKey } from './get-stores';

export const storeQueryKey = (id: string) => [...storesQueryKey, 'detail', id] as const;

/** GET /api/stores/:id */
export async function getStore(id: string, signal?: AbortSignal): Promise<StoreDetail> {
  const { store } = await apiRequest<{ store: StoreDetail }>(`/stores/${encodeURIComponent(id)}`, {
    signal,
  });
  return store;
}

export function storeQueryOptions(id: string) {
  return queryOptions({
    queryKey: storeQueryKey(id),
    queryFn: ({ signal }) => getStore(id, signal),
  });
}

export function useStore(id: string | null) {
  return useQuery({ ...storeQueryOptions(id ?? ''), enabled: Boolean(id) });
}
