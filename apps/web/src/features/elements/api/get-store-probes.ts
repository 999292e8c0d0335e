import type { Probe } from '@mise/shared/probes/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

/**
 * The key the probes feature gives GET /api/probes/store/:storeId: the same request answers
 * the same list, so the editor's select shares that cache and follows the probes screens'
 * invalidations (a probe renamed, removed from the store) without importing that feature.
 */
export const storeProbeOptionsQueryKey = (storeId: string) => ['probes', 'store', storeId] as const;

/** GET /api/probes/store/:storeId: the probes an element of the store may be bound to. */
export async function getStoreProbeOptions(storeId: string, signal?: AbortSignal) {
  const { items } = await apiRequest<{ items: Probe[] }>(
    `/probes/store/${encodeURIComponent(storeId)}`,
    { signal },
  );
  return items;
}

export function storeProbeOptionsQueryOptions(storeId: string) {
  return queryOptions({
    queryKey: storeProbeOptionsQueryKey(storeId),
    queryFn: ({ signal }) => getStoreProbeOptions(storeId, signal),
  });
}

export function useStoreProbeOptions(storeId: string, isEnabled = true) {
  return useQuery({ ...storeProbeOptionsQueryOptions(storeId), enabled: isEnabled });
}
