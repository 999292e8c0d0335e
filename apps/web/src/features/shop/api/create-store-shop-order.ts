import type { CreateShopOrderBody, ShopOrder } from '@mise/shared/shop/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { distributorShopOrdersKey } from './get-shop-orders';
import { storeShopOrdersKey } from './get-store-shop-orders';

/**
 * POST /api/stores/:storeId/shop/orders: an order from the back-office. The body carries its
 * idempotency key: the same key sent again (a retry) is recorded and e-mailed once.
 */
export async function createStoreShopOrder(
  storeId: string,
  body: CreateShopOrderBody,
): Promise<ShopOrder> {
  const { order } = await apiRequest<{ order: ShopOrder }>(
    `/stores/${encodeURIComponent(storeId)}/shop/orders`,
    { method: 'POST', body },
  );
  return order;
}

export function useCreateStoreShopOrder(storeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateShopOrderBody) => createStoreShopOrder(storeId, body),
    onSuccess: (order) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: storeShopOrdersKey(storeId) }),
        queryClient.invalidateQueries({ queryKey: distributorShopOrdersKey(order.distributor_id) }),
      ]),
  });
}
