import type { InspectorPack } from '@mise/shared/records/pack';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { historyQueryKeys } from './history-query-keys';

/** GET /api/stores/:storeId/inspector-packs: the store's packs, newest first. */
export async function getInspectorPacks(
  storeId: string,
  signal?: AbortSignal,
): Promise<InspectorPack[]> {
  const answer = await apiRequest<{ items: InspectorPack[] }>(
    `/stores/${encodeURIComponent(storeId)}/inspector-packs`,
    { signal },
  );
  return answer.items;
}

export function inspectorPacksQueryOptions(storeId: string) {
  return queryOptions({
    queryKey: historyQueryKeys.inspectorPacks(storeId),
    queryFn: ({ signal }) => getInspectorPacks(storeId, signal),
  });
}

/** Null while no store is chosen or the dialog is closed: nothing is asked. */
export function useInspectorPacks(storeId: string | null) {
  return useQuery({ ...inspectorPacksQueryOptions(storeId ?? ''), enabled: storeId !== null });
}
