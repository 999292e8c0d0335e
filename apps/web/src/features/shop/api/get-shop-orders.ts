import type { ShopOrderList } from '@mise/shared/shop/schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

/** Every page of a distributor's orders (to invalidate them all after an order). */
export const distributorShopOrdersKey = (distributorId: string) =>
  ['distributors', distributorId, 'shop', 'orders'] as const;

export const shopOrdersQueryKey = (distributorId: string, offset: number, limit: number) =>
  [...distributorShopOrdersKey(distributorId), { offset, limit }] as const;

/** GET /api/distributors/:id/shop/orders: the stores' orders, newest first, one page. */
export function getShopOrders(
  distributorId: string,
  page: { offset: number; limit: number },
  signal?: AbortSignal,
): Promise<ShopOrderList> {
  return apiRequest<ShopOrderList>(
    `/distributors/${encodeURIComponent(distributorId)}/shop/orders`,
    {
      query: page,
      signal,
    },
  );
}

export function shopOrdersQueryOptions(distributorId: string, offset: number, limit: number) {
  return queryOptions({
    queryKey: shopOrdersQueryKey(distributorId, offset, limit),
    queryFn: ({ signal }) => getShopOrders(distributorId, { offset, limit }, signal),
    placeholderData: keepPreviousData,
  });
}

export function useShopOrders(distributorId: string, offset: number, limit: number) {
  return useQuery(shopOrdersQueryOptions(distributorId, offset, limit));
}
