import type { Probe } from '@mise/shared/probes/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { probeListQueryKey } from './probes-query-keys';

/** GET /api/probes (admin): every probe, with its working status at answer time. */
export async function getProbes(signal?: AbortSignal): Promise<Probe[]> {
  const { items } = await apiRequest<{ items: Probe[] }>('/probes', { signal });
  return items;
}

export function probesQueryOptions() {
  return queryOptions({
    queryKey: probeListQueryKey,
    queryFn: ({ signal }) => getProbes(signal),
  });
}

export function useProbes() {
  return useQuery(probesQueryOptions());
}
