import type { DatabaseDetail } from '@mise/shared/organisation/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { databasesQueryKey } from './get-databases';

export const databaseQueryKey = (id: string) => [...databasesQueryKey, 'detail', id] as const;

/** GET /api/databases/:id */
export async function getDatabase(id: string, signal?: AbortSignal): Promise<DatabaseDetail> {
  const { database } = await apiRequest<{ database: DatabaseDetail }>(
    `/databases/${encodeURIComponent(id)}`,
    { signal },
  );
  return database;
}

export function databaseQueryOptions(id: string) {
  return queryOptions({
    queryKey: databaseQueryKey(id),
    queryFn: ({ signal }) => getDatabase(id, signal),
  });
}

export function useDatabase(id: string | null) {
  return useQuery({ ...databaseQueryOptions(id ?? ''), enabled: Boolean(id) });
}
