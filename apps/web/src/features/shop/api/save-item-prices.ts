import type { SaveShopItemPricesBody, ShopItemPrices } from '@mise/shared/shop/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { itemPricesQueryKey, pricesPath } from './get-item-prices';

/** PUT …/items/:itemId/prices (apply): a price per database, null to reset it. */
export function saveItemPrices(
  distributorId: string,
  itemId: string,
  body: SaveShopItemPricesBody,
): Promise<ShopItemPrices> {
  return apiRequest<ShopItemPrices>(pricesPath(distributorId, itemId), { method: 'PUT', body });
}

export function useSaveItemPrices(distributorId: string, itemId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SaveShopItemPricesBody) => saveItemPrices(distributorId, itemId, body),
    onSuccess: (prices) => {
      queryClient.setQueryData(itemPricesQueryKey(distributorId, itemId), prices);
      // Databases' shops show the new prices on their next read.
      void queryClient.invalidateQueries({ queryKey: ['databases'] });
    },
  });
}
