import type { CreateInspectorPackBody, InspectorPack } from '@mise/shared/records/pack';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { historyQueryKeys } from './history-query-keys';

export type CreateInspectorPackRequest = { storeId: string; body: CreateInspectorPackBody };

/** POST /api/stores/:storeId/inspector-packs: the pack, queued (the server builds it). */
export async function createInspectorPack({
  storeId,
  body,
}: CreateInspectorPackRequest): Promise<InspectorPack> {
  const answer = await apiRequest<{ pack: InspectorPack }>(
    `/stores/${encodeURIComponent(storeId)}/inspector-packs`,
    { method: 'POST', body },
  );
  return answer.pack;
}

export function useCreateInspectorPack() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInspectorPack,
    onSuccess: (pack) =>
      queryClient.invalidateQueries({ queryKey: historyQueryKeys.inspectorPacks(pack.store_id) }),
  });
}
