import type { ModuleKey } from '@mise/shared/organisation/constants';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { type ElementLevel, elementsQueryKey, ownerPath } from './element-query-keys';

/** What a new element needs to know of its database or store. */
export type ElementOwner = {
  id: string;
  name: string;
  hidden_modules: ModuleKey[];
  isReadOnly: boolean;
};

/** GET /api/databases/:id or /api/stores/:id, reduced to what the creation screen uses. */
export async function getElementOwner(
  level: ElementLevel,
  ownerId: string,
  signal?: AbortSignal,
): Promise<ElementOwner> {
  const body = await apiRequest<{
    database?: { id: string; name: string; hidden_modules: ModuleKey[] };
    store?: { id: string; name: string; hidden_modules: ModuleKey[]; is_read_only: boolean };
  }>(ownerPath(level, ownerId), { signal });
  const owner = body.database ?? body.store;
  return {
    id: owner?.id ?? ownerId,
    name: owner?.name ?? '',
    hidden_modules: owner?.hidden_modules ?? [],
    isReadOnly: body.store?.is_read_only ?? false,
  };
}

export function useElementOwner(level: ElementLevel, ownerId: string | null) {
  return useQuery({
    queryKey: [...elementsQueryKey, 'owner', level, ownerId ?? ''],
    queryFn: ({ signal }) => getElementOwner(level, ownerId ?? '', signal),
    enabled: Boolean(ownerId),
  });
}
