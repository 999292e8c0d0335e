import type { StoreShop } from '@mise/shared/shop/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

export const storeShopQueryKey = (storeId: string) => ['stores', storeId, 'shop'] as const;

/** GET /api/stores/:storeId/shop: the items the store may order (whoever may order for it). */
export function getStoreShop(storeId: string, signal?: AbortSignal): Promise<StoreShop> {
  return apiRequest<StoreShop>(`/stores/${encodeURIComponent(storeId)}/shop`, { signal });
}

export function storeShopQueryOptions(storeId: string) {
  return queryOptions({
    queryKey: storeShopQueryKey(storeId),
    queryFn: ({ signal }) => getStoreShop(storeId, signal),
  });
}

export function useStoreShop(storeId: string, isEnabled = true) {
  return useQuery({ ...storeShopQueryOptions(storeId), enabled: isEnabled });
}
