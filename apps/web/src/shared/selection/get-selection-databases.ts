import type { DatabaseSummary } from '@mise/shared/organisation/schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../api/api-client';

/** GET /api/databases: the databases the viewer may choose in the selection popup. */
export async function getSelectionDatabases(
  search: string,
  signal?: AbortSignal,
): Promise<DatabaseSummary[]> {
  const { items } = await apiRequest<{ items: DatabaseSummary[] }>('/databases', {
    query: { search: search.trim() || undefined },
    signal,
  });
  return items;
}

export function selectionDatabasesQueryOptions(search: string) {
  return queryOptions({
    queryKey: ['databases', 'selection', search.trim()],
    queryFn: ({ signal }) => getSelectionDatabases(search, signal),
    placeholderData: keepPreviousData,
  });
}

export function useSelectionDatabases(search: string, isEnabled: boolean) {
  return useQuery({ ...selectionDatabasesQueryOptions(search), enabled: isEnabled });
}
