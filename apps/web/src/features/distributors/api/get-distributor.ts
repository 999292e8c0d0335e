import type { Distributor } from '@mise/shared/organisation/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { distributorsQueryKey } from './get-distributors';

export const distributorQueryKey = (id: string) => [...distributorsQueryKey, 'detail', id] as const;

/** GET /api/distributors/:id */
export async function getDistributor(id: string, signal?: AbortSignal): Promise<Distributor> {
  const { distributor } = await apiRequest<{ distributor: Distributor }>(
    `/distributors/${encodeURIComponent(id)}`,
    { signal },
  );
  return distributor;
}

export function distributorQueryOptions(id: string) {
  return queryOptions({
    queryKey: distributorQueryKey(id),
    queryFn: ({ signal }) => getDistributor(id, signal),
  });
}

export function useDistributor(id: string | null) {
  return useQuery({ ...distributorQueryOptions(id ?? ''), enabled: Boolean(id) });
}
