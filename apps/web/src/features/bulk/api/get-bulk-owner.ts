import type { BulkLevel } from '@mise/shared/catalogue/bulk-rules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { bulkOwnerQueryKey, ownerPath } from './bulk-query-keys';

/** The database or store a bulk screen edits, as its header shows it. */
export type BulkOwner = { id: string; name: string };

/** GET /api/databases/:id or /api/stores/:id, reduced to the name. */
export async function getBulkOwner(
  level: BulkLevel,
  ownerId: string,
  signal?: AbortSignal,
): Promise<BulkOwner> {
  if (level === 'database') {
    const { database } = await apiRequest<{ database: { id: string; name: string } }>(
      ownerPath(level, ownerId),
      { signal },
    );
    return { id: database.id, name: database.name };
  }
  const { store } = await apiRequest<{ store: { id: string; name: string } }>(
    ownerPath(level, ownerId),
    { signal },
  );
  return { id: store.id, name: store.name };
}

export function bulkOwnerQueryOptions(level: BulkLevel, ownerId: string) {
  return queryOptions({
    queryKey: bulkOwnerQueryKey(level, ownerId),
    queryFn: ({ signal }) => getBulkOwner(level, ownerId, signal),
  });
}

export function useBulkOwner(level: BulkLevel, ownerId: string) {
  return useQuery({ ...bulkOwnerQueryOptions(level, ownerId), enabled: ownerId !== '' });
}
