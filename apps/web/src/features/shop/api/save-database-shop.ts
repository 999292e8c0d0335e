import type { DatabaseShop, SaveDatabaseShopBody } from '@mise/shared/shop/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { databaseShopQueryKey } from './get-database-shop';

/** PUT /api/databases/:id/shop: the database's items in order (distributor and admin only). */
export async function saveDatabaseShop(
  databaseId: string,
  body: SaveDatabaseShopBody,
): Promise<DatabaseShop> {
  const { shop } = await apiRequest<{ shop: DatabaseShop }>(
    `/databases/${encodeURIComponent(databaseId)}/shop`,
    { method: 'PUT', body },
  );
  return shop;
}

export function useSaveDatabaseShop(databaseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SaveDatabaseShopBody) => saveDatabaseShop(databaseId, body),
    onSuccess: (shop) => queryClient.setQueryData(databaseShopQueryKey(databaseId), shop),
  });
}
