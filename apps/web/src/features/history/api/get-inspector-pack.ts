import { type InspectorPack, inspectorPackPollMs } from '@mise/shared/records/pack';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { apiRequest } from '../../../shared/api/api-client';
import { historyQueryKeys } from './history-query-keys';

export type InspectorPackRequest = { storeId: string; packId: string };

const isBuilding = (pack: InspectorPack | undefined) =>
  pack?.status === 'queued' || pack?.status === 'running';

/** GET /api/stores/:storeId/inspector-packs/:id: its status, progress and, once done, manifest. */
export async function getInspectorPack(
  { storeId, packId }: InspectorPackRequest,
  signal?: AbortSignal,
): Promise<InspectorPack> {
  const answer = await apiRequest<{ pack: InspectorPack }>(
    `/stores/${encodeURIComponent(storeId)}/inspector-packs/${encodeURIComponent(packId)}`,
    { signal },
  );
  return answer.pack;
}

export function inspectorPackQueryOptions(request: InspectorPackRequest) {
  return queryOptions({
    queryKey: historyQueryKeys.inspectorPack(request.storeId, request.packId),
    queryFn: ({ signal }) => getInspectorPack(request, signal),
    // Asked again while it builds; a built or failed pack no longer changes.
    refetchInterval: (query) => (isBuilding(query.state.data) ? inspectorPackPollMs : false),
  });
}

/** The pack being built (null: none); the store's list is refreshed once it is finished. */
export function useInspectorPack(request: InspectorPackRequest | null) {
  const queryClient = useQueryClient();
  const query = useQuery({
    ...inspectorPackQueryOptions(request ?? { storeId: '', packId: '' }),
    enabled: request !== null,
  });
  const status = query.data?.status;
  const storeId = request?.storeId;
  useEffect(() => {
    if (storeId && (status === 'done' || status === 'failed')) {
      void queryClient.invalidateQueries({ queryKey: historyQueryKeys.inspectorPacks(storeId) });
    }
  }, [queryClient, storeId, status]);
  return query;
}
