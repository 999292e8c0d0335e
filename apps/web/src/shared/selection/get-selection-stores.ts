import type { StoreSummary } from '@mise/shared/organisation/schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../api/api-client';

/** GET /api/stores: the stores the viewer may choose in the selection popup. */
export async function getSelectionStores(
  search: string,
  signal?: AbortSignal,
): Promise<StoreSummary[]> {
  const { items } = await apiRequest<{ items: StoreSummary[] }>('/stores', {
    query: { search: search.trim() || undefined },
    signal,
  });
  return items;
}

export function selectionStoresQueryOptions(search: string) {
  return queryOptions({
    queryKey: ['stores', 'selection', search.trim()],
    queryFn: ({ signal }) => getSelectionStores(search, signal),
    placeholderData: keepPreviousData,
  });
}

export function useSelectionStores(search: string, isEnabled: boolean) {
  return useQuery({ ...selectionStoresQueryOptions(search), enabled: isEnabled });
}
