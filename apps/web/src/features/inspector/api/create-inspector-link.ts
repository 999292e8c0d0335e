import type { CreatedInspectorLink, CreateInspectorLinkBody } from '@mise/shared/records/links';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { inspectorQueryKeys } from './inspector-query-keys';

/** POST /api/stores/:storeId/inspector-links: the link and its URL, answered this once only. */
export function createInspectorLink(
  storeId: string,
  body: CreateInspectorLinkBody,
): Promise<CreatedInspectorLink> {
  return apiRequest<CreatedInspectorLink>(
    `/stores/${encodeURIComponent(storeId)}/inspector-links`,
    { method: 'POST', body },
  );
}

export function useCreateInspectorLink(storeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateInspectorLinkBody) => createInspectorLink(storeId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: inspectorQueryKeys.links(storeId) }),
  });
}
