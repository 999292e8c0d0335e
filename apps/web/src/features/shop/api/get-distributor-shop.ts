import type { DistributorShop } from '@mise/shared/shop/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

export const ownShopQueryKey = ['shop'] as const;

/** GET /api/shop: the signed-in distributor's shop (spec 001 §2.10), inactive items included. */
export async function getOwnShop(signal?: AbortSignal): Promise<DistributorShop> {
  const { shop } = await apiRequest<{ shop: DistributorShop }>('/shop', { signal });
  return shop;
}

export function ownShopQueryOptions() {
  return queryOptions({
    queryKey: ownShopQueryKey,
    queryFn: ({ signal }) => getOwnShop(signal),
  });
}

export function useOwnShop() {
  return useQuery(ownShopQueryOptions());
}
