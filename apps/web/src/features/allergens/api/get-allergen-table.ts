import type { AllergenTable } from '@mise/shared/catalogue/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

/** The allergens screen shows one database's or one store's elements. */
export type AllergenSource = { databaseId: string } | { storeId: string };

export const allergenTableQueryKey = (source: AllergenSource) => ['allergens', source] as const;

/** GET /api/allergens?databaseId= | storeId=: the title and the elements grouped by type. */
export async function getAllergenTable(
  source: AllergenSource,
  signal?: AbortSignal,
): Promise<AllergenTable> {
  return apiRequest<AllergenTable>('/allergens', { query: { ...source }, signal });
}

export function allergenTableQueryOptions(source: AllergenSource) {
  return queryOptions({
    queryKey: allergenTableQueryKey(source),
    queryFn: ({ signal }) => getAllergenTable(source, signal),
    // Element writes live in another feature: each visit reads the table afresh.
    staleTime: 0,
  });
}

export function useAllergenTable(source: AllergenSource | null) {
  return useQuery({
    ...allergenTableQueryOptions(source ?? { databaseId: '' }),
    enabled: source !== null,
  });
}
