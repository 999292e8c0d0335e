import type { DatabaseShop } from '@mise/shared/shop/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

export const databaseShopQueryKey = (databaseId: string) =>
  ['databases', databaseId, 'shop'] as const;

/** GET /api/databases/:id/shop: the distributor's items merged with the database's copies. */
export async function getDatabaseShop(
  databaseId: string,
  signal?: AbortSignal,
): Promise<DatabaseShop> {
  const { shop } = await apiRequest<{ shop: DatabaseShop }>(
    `/databases/${encodeURIComponent(databaseId)}/shop`,
    { signal },
  );
  return shop;
}

export function databaseShopQueryOptions(databaseId: string) {
  return queryOptions({
    queryKey: databaseShopQueryKey(databaseId),
    queryFn: ({ signal }) => getDatabaseShop(databaseId, signal),
  });
}

export function useDatabaseShop(databaseId: string) {
  return useQuery(databaseShopQueryOptions(databaseId));
}
