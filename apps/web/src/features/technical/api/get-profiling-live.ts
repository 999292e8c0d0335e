import { type ProfilingLiveResponse, profilingRefreshMs } from '@mise/shared/operations/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { technicalQueryKeys } from './technical-query-keys';

/** GET /api/profiling/live?instanceId=: the instance's snapshots, oldest first. */
export function getProfilingLive(
  instanceId: string,
  signal?: AbortSignal,
): Promise<ProfilingLiveResponse> {
  return apiRequest<ProfilingLiveResponse>('/profiling/live', { query: { instanceId }, signal });
}

/**
 * Read again every 30 s (spec 002 §9); a failed read ends the polling silently (§7, §8): the
 * chart keeps what it has, nothing is shown.
 */
export function profilingLiveQueryOptions(instanceId: string) {
  return queryOptions({
    queryKey: technicalQueryKeys.profiling(instanceId),
    queryFn: ({ signal }) => getProfilingLive(instanceId, signal),
    staleTime: 0,
    retry: false,
    refetchInterval: (query) => (query.state.status === 'error' ? false : profilingRefreshMs),
  });
}

export function useProfilingLive(instanceId: string) {
  return useQuery(profilingLiveQueryOptions(instanceId));
}
