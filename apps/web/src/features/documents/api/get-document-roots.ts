import type { DocumentRoot, documentRootsResponseSchema } from '@mise/shared/documents/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../shared/api/api-client';
import { documentRootsQueryKey } from './documents-query-keys';

type DocumentRootsResponse = z.infer<typeof documentRootsResponseSchema>;

/** GET /api/documents/roots: the databases, distributors and stores the caller sees. */
export async function getDocumentRoots(signal?: AbortSignal): Promise<DocumentRoot[]> {
  const { items } = await apiRequest<DocumentRootsResponse>('/documents/roots', { signal });
  return items;
}

export function documentRootsQueryOptions() {
  return queryOptions({
    queryKey: documentRootsQueryKey,
    queryFn: ({ signal }) => getDocumentRoots(signal),
  });
}

export function useDocumentRoots() {
  return useQuery(documentRootsQueryOptions());
}
