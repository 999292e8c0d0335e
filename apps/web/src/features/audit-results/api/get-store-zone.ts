import type { StoreDetail } from '@mise/shared/organisation/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { auditResultsQueryKeys } from './audit-results-query-keys';

/**
 * GET /api/stores/:storeId, for its time zone only: a date answer's limit (only future, only
 * past) is the store's today, as the server checks it.
 */
export async function getStoreZone(storeId: string, signal?: AbortSignal): Promise<string> {
  const { store } = await apiRequest<{ store: StoreDetail }>(
    `/stores/${encodeURIComponent(storeId)}`,
    { signal },
  );
  return store.timezone_name;
}

export function storeZoneQueryOptions(storeId: string) {
  return queryOptions({
    queryKey: auditResultsQueryKeys.storeZone(storeId),
    queryFn: ({ signal }) => getStoreZone(storeId, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The store's zone name; undefined while unknown (the browser's clock stands in). */
export function useStoreZone(storeId: string | null): string | undefined {
  const query = useQuery({ ...storeZoneQueryOptions(storeId ?? ''), enabled: Boolean(storeId) });
  return query.data;
}
