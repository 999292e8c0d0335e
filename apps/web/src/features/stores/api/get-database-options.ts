import type { DatabaseOption } from '@mise/shared/organisation/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

/** GET /api/databases (the database pickers of stores). */
export async function getDatabaseOptions(signal?: AbortSignal): Promise<DatabaseOption[]> {
  const { items } = await apiRequest<{ items: DatabaseOption[] }>('/databases', { signal });
  return items;
}

export function databaseOptionsQueryOptions() {
  return queryOptions({
    queryKey: ['databases', 'options'],
    queryFn: ({ signal }) => getDatabaseOptions(signal),
    staleTime: 60_000,
  });
}

export function useDatabaseOptions(isEnabled: boolean) {
  return useQuery({ ...databaseOptionsQueryOptions(), enabled: isEnabled });
}
