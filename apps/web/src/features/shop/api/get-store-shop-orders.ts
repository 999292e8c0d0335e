import type { ShopOrderList } from '@mise/shared/shop/schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

export const storeShopOrdersKey = (storeId: string) =>
  ['stores', storeId, 'shop', 'orders'] as const;

/** GET /api/stores/:storeId/shop/orders: the store's orders, newest first, one page. */
export function getStoreShopOrders(
  storeId: string,
  page: { offset: number; limit: number },
  signal?: AbortSignal,
): Promise<ShopOrderList> {
  return apiRequest<ShopOrderList>(`/stores/${encodeURIComponent(storeId)}/shop/orders`, {
    query: page,
    signal,
  });
}

export function storeShopOrdersQueryOptions(storeId: string, offset: number, limit: number) {
  return queryOptions({
    queryKey: [...storeShopOrdersKey(storeId), { offset, limit }] as const,
    queryFn: ({ signal }) => getStoreShopOrders(storeId, { offset, limit }, signal),
    placeholderData: keepPreviousData,
  });
}

export function useStoreShopOrders(storeId: string, offset: number, limit: number) {
  return useQuery(storeShopOrdersQueryOptions(storeId, offset, limit));
}
