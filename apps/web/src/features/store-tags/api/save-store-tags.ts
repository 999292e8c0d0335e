import type { saveStoreTagsBodySchema } from '@mise/shared/people/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../shared/api/api-client';
import { storeTagsQueryKey } from './get-store-tags';

export type SaveStoreTagsBody = z.infer<typeof saveStoreTagsBodySchema>;

/** PUT /api/databases/:databaseId/storeTags: every tag (a removed one with active false). */
export function saveStoreTags(databaseId: string, body: SaveStoreTagsBody): Promise<unknown> {
  return apiRequest<unknown>(`/databases/${encodeURIComponent(databaseId)}/storeTags`, {
    method: 'PUT',
    body,
  });
}

export function useSaveStoreTags(databaseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SaveStoreTagsBody) => saveStoreTags(databaseId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: storeTagsQueryKey(databaseId) }),
  });
}
