import type { ElementType } from '@mise/shared/catalogue/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { type ElementLevel, elementTypesQueryKey, ownerPath } from './element-query-keys';

/**
 * GET /api/databases/:databaseId/elementTypes or /api/stores/:storeId/elementTypes (the
 * database's types and the store's own, store_side ones).
 */
export async function getElementTypes(
  level: ElementLevel,
  ownerId: string,
  signal?: AbortSignal,
): Promise<ElementType[]> {
  const { items } = await apiRequest<{ items: ElementType[] }>(
    `${ownerPath(level, ownerId)}/elementTypes`,
    { signal },
  );
  return items;
}

export function elementTypesQueryOptions(level: ElementLevel, ownerId: string) {
  return queryOptions({
    queryKey: elementTypesQueryKey(level, ownerId),
    queryFn: ({ signal }) => getElementTypes(level, ownerId, signal),
  });
}

export function useElementTypes(level: ElementLevel, ownerId: string | null) {
  return useQuery({ ...elementTypesQueryOptions(level, ownerId ?? ''), enabled: Boolean(ownerId) });
}
