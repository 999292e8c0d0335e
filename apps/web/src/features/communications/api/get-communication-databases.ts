import type { DatabaseSummary } from '@mise/shared/organisation/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { communicationsQueryKeys } from './communication-query-keys';

/** GET /api/databases: the databases of the list's dropdown (those the caller sees). */
export async function getCommunicationDatabases(signal?: AbortSignal): Promise<DatabaseSummary[]> {
  const { items } = await apiRequest<{ items: DatabaseSummary[] }>('/databases', { signal });
  return items;
}

export function communicationDatabasesQueryOptions() {
  return queryOptions({
    queryKey: communicationsQueryKeys.databases,
    queryFn: ({ signal }) => getCommunicationDatabases(signal),
  });
}

export function useCommunicationDatabases() {
  return useQuery(communicationDatabasesQueryOptions());
}
