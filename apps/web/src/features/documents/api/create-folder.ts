import type {
  createFolderBodySchema,
  DocumentItem,
  documentResponseSchema,
} from '@mise/shared/documents/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../shared/api/api-client';
import { documentFoldersQueryKey } from './documents-query-keys';

export type CreateFolderBody = z.input<typeof createFolderBodySchema>;

/** POST /api/documents/folders (409 'documents.file-exists' when the name is taken there). */
export async function createFolder(body: CreateFolderBody): Promise<DocumentItem> {
  const { item } = await apiRequest<z.infer<typeof documentResponseSchema>>('/documents/folders', {
    method: 'POST',
    body,
  });
  return item;
}

export function useCreateFolder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createFolder,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: documentFoldersQueryKey });
    },
  });
}
