import { profilingRefreshMs, type ServerInstance } from '@mise/shared/operations/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { technicalQueryKeys } from './technical-query-keys';

/** GET /api/profiling/instances: the instances seen in the last day, live ones first. */
export async function getServerInstances(signal?: AbortSignal): Promise<ServerInstance[]> {
  const { items } = await apiRequest<{ items: ServerInstance[] }>('/profiling/instances', {
    signal,
  });
  return items;
}

/**
 * Read again with the chart (heartbeats move): also after a failure, so the unable-to-connect
 * message goes once the API answers again.
 */
export function serverInstancesQueryOptions() {
  return queryOptions({
    queryKey: technicalQueryKeys.instances(),
    queryFn: ({ signal }) => getServerInstances(signal),
    staleTime: 0,
    retry: 1,
    refetchInterval: profilingRefreshMs,
  });
}

export function useServerInstances() {
  return useQuery(serverInstancesQueryOptions());
}
