import type { InspectorLink } from '@mise/shared/records/links';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { inspectorQueryKeys } from './inspector-query-keys';

/** GET /api/stores/:storeId/inspector-links: the store's links, newest first, never a token. */
export async function getInspectorLinks(
  storeId: string,
  signal?: AbortSignal,
): Promise<InspectorLink[]> {
  const { items } = await apiRequest<{ items: InspectorLink[] }>(
    `/stores/${encodeURIComponent(storeId)}/inspector-links`,
    { signal },
  );
  return items;
}

export function inspectorLinksQueryOptions(storeId: string) {
  return queryOptions({
    queryKey: inspectorQueryKeys.links(storeId),
    queryFn: ({ signal }) => getInspectorLinks(storeId, signal),
  });
}

export function useInspectorLinks(storeId: string) {
  return useQuery(inspectorLinksQueryOptions(storeId));
}
