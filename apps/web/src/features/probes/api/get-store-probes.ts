import type { Probe } from '@mise/shared/probes/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { storeProbesQueryKey } from './probes-query-keys';

/** GET /api/probes/store/:storeId: the probes of a store the viewer sees. */
export async function getStoreProbes(storeId: string, signal?: AbortSignal): Promise<Probe[]> {
  const { items } = await apiRequest<{ items: Probe[] }>(
    `/probes/store/${encodeURIComponent(storeId)}`,
    { signal },
  );
  return items;
}

export function storeProbesQueryOptions(storeId: string) {
  return queryOptions({
    queryKey: storeProbesQueryKey(storeId),
    queryFn: ({ signal }) => getStoreProbes(storeId, signal),
  });
}

export function useStoreProbes(storeId: string) {
  return useQuery(storeProbesQueryOptions(storeId));
}
