import type { documentsPageSchema } from '@mise/shared/documents/schemas';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../shared/api/api-client';
import { documentFolderQueryKey, type FolderRequest } from './documents-query-keys';

export type DocumentsPage = z.infer<typeof documentsPageSchema>;

/**
 * GET /api/documents?owner_kind&owner_id&parent_id&search&cursor: one page (100) of a folder,
 * folders first then files, by name; with a search, the matching names in it and below.
 */
export function getDocuments(
  { owner, parentId, search }: FolderRequest,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<DocumentsPage> {
  const query: Record<string, string> = { owner_kind: owner.kind, owner_id: owner.id };
  if (parentId) query.parent_id = parentId;
  if (search) query.search = search;
  if (cursor) query.cursor = cursor;
  return apiRequest<DocumentsPage>('/documents', { query, signal });
}

export function documentsQueryOptions(request: FolderRequest) {
  return infiniteQueryOptions({
    queryKey: documentFolderQueryKey(request),
    queryFn: ({ signal, pageParam }) => getDocuments(request, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.next_cursor,
  });
}

/** Null at the root (nothing asked). "Load more" fetches the next page by its cursor. */
export function useDocuments(request: FolderRequest | null) {
  return useInfiniteQuery({
    ...documentsQueryOptions(
      request ?? { owner: { kind: 'store', id: '' }, parentId: null, search: '' },
    ),
    enabled: request !== null,
    // Typing a search keeps the rows on screen until the new answer.
    placeholderData: keepPreviousData,
  });
}
