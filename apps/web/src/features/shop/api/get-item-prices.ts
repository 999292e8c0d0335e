import type { ShopItemPrices } from '@mise/shared/shop/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

export const itemPricesQueryKey = (distributorId: string, itemId: string) =>
  ['distributors', distributorId, 'shop', 'items', itemId, 'prices'] as const;

const pricesPath = (distributorId: string, itemId: string) =>
  `/distributors/${encodeURIComponent(distributorId)}/shop/items/${encodeURIComponent(itemId)}/prices`;

/** GET …/items/:itemId/prices: every database of the distributor with its copy's price. */
export function getItemPrices(
  distributorId: string,
  itemId: string,
  signal?: AbortSignal,
): Promise<ShopItemPrices> {
  return apiRequest<ShopItemPrices>(pricesPath(distributorId, itemId), { signal });
}

export function itemPricesQueryOptions(distributorId: string, itemId: string) {
  return queryOptions({
    queryKey: itemPricesQueryKey(distributorId, itemId),
    queryFn: ({ signal }) => getItemPrices(distributorId, itemId, signal),
  });
}

export function useItemPrices(distributorId: string, itemId: string | null) {
  return useQuery({
    ...itemPricesQueryOptions(distributorId, itemId ?? ''),
    enabled: itemId !== null,
  });
}

export { pricesPath };
