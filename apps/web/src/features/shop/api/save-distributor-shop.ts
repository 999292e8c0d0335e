import type { DistributorShop, SaveDistributorShopBody } from '@mise/shared/shop/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { ownShopQueryKey } from './get-distributor-shop';

/** PUT /api/distributors/:id/shop: the shop e-mail and every item, in order, with versions. */
export async function saveDistributorShop(
  distributorId: string,
  body: SaveDistributorShopBody,
): Promise<DistributorShop> {
  const { shop } = await apiRequest<{ shop: DistributorShop }>(
    `/distributors/${encodeURIComponent(distributorId)}/shop`,
    { method: 'PUT', body },
  );
  return shop;
}

export function useSaveDistributorShop(distributorId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SaveDistributorShopBody) => saveDistributorShop(distributorId, body),
    onSuccess: (shop) => queryClient.setQueryData(ownShopQueryKey, shop),
  });
}
