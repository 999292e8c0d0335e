import type { StoreSummary } from '@mise/shared/organisation/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

/** The server's largest page of stores. */
const storesPageLimit = 500;

export type ProbeStoreOption = { id: string; name: string };

/**
 * GET /api/stores (inactive included, largest page): the names the probe screens show for
 * a probe's store and offer when registering one.
 */
export async function getProbeStores(signal?: AbortSignal): Promise<ProbeStoreOption[]> {
  const { items } = await apiRequest<{ items: StoreSummary[] }>('/stores', {
    query: { includeInactive: 'true', limit: String(storesPageLimit) },
    signal,
  });
  return items.map((store) => ({ id: store.id, name: store.name }));
}

export function probeStoresQueryOptions() {
  return queryOptions({
    queryKey: ['stores', 'probe-options'] as const,
    queryFn: ({ signal }) => getProbeStores(signal),
  });
}

export function useProbeStores() {
  return useQuery(probeStoresQueryOptions());
}
