import type { InspectorLink } from '@mise/shared/records/links';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { inspectorQueryKeys } from './inspector-query-keys';

/** DELETE /api/stores/:storeId/inspector-links/:id: the link stops opening at once. */
export async function revokeInspectorLink(storeId: string, linkId: string): Promise<InspectorLink> {
  const { link } = await apiRequest<{ link: InspectorLink }>(
    `/stores/${encodeURIComponent(storeId)}/inspector-links/${encodeURIComponent(linkId)}`,
    { method: 'DELETE' },
  );
  return link;
}

export function useRevokeInspectorLink(storeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (linkId: string) => revokeInspectorLink(storeId, linkId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: inspectorQueryKeys.links(storeId) }),
  });
}
