import type { DatabaseSummary } from '@mise/shared/organisation/schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

export const databasesQueryKey = ['databases'] as const;

/** GET /api/databases: the databases the viewer may see. */
export async function getDatabases(
  search: string,
  signal?: AbortSignal,
): Promise<DatabaseSummary[]> {
  const { items } = await apiRequest<{ items: DatabaseSummary[] }>('/databases', {
    query: { search: search.trim() || undefined },
    signal,
  });
  return items;
}

export function databasesQueryOptions(search: string) {
  return queryOptions({
    queryKey: [...databasesQueryKey, 'list', search.trim()],
    queryFn: ({ signal }) => getDatabases(search, signal),
    placeholderData: keepPreviousData,
  });
}

export function useDatabases(search: string) {
  return useQuery(databasesQueryOptions(search));
}
