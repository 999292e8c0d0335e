import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { documentFoldersQueryKey } from './documents-query-keys';

/** DELETE /api/documents/:id: a file, or a folder with everything inside (204). */
export async function deleteDocument(id: string): Promise<void> {
  await apiRequest<null>(`/documents/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useDeleteDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDocument,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: documentFoldersQueryKey });
    },
  });
}
