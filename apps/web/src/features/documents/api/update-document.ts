import type {
  DocumentItem,
  documentResponseSchema,
  updateDocumentBodySchema,
} from '@mise/shared/documents/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../shared/api/api-client';
import { documentFoldersQueryKey } from './documents-query-keys';

export type UpdateDocumentBody = z.input<typeof updateDocumentBodySchema>;

/** PATCH /api/documents/:id: rename or lock/unlock, on the version the screen showed. */
export async function updateDocument(id: string, body: UpdateDocumentBody): Promise<DocumentItem> {
  const { item } = await apiRequest<z.infer<typeof documentResponseSchema>>(
    `/documents/${encodeURIComponent(id)}`,
    { method: 'PATCH', body },
  );
  return item;
}

export function useUpdateDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateDocumentBody }) =>
      updateDocument(id, body),
    // A refused change (stale version, name taken) reloads too: the list shows the truth.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: documentFoldersQueryKey });
    },
  });
}
