import type { ElementContext } from '@mise/shared/catalogue/schemas';
import type { ModuleKey } from '@mise/shared/organisation/constants';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { type ElementLevel, elementsQueryKey, ownerPath } from './element-query-keys';

/** What a new element needs to know of its database or store. */
export type ElementOwner = {
  id: string;
  /** At store level: the store's and its database's hidden modules. */
  hidden_modules: ModuleKey[];
  /** The caller may not create elements there (customers at database level, …). */
  isReadOnly: boolean;
};

/** GET /api/databases/:id/elements/context or /api/stores/:id/elements/context. */
export async function getElementOwner(
  level: ElementLevel,
  ownerId: string,
  signal?: AbortSignal,
): Promise<ElementOwner> {
  const context = await apiRequest<ElementContext>(
    `${ownerPath(level, ownerId)}/elements/context`,
    {
      signal,
    },
  );
  return { id: ownerId, hidden_modules: context.hidden_modules, isReadOnly: !context.editable };
}

export function useElementOwner(level: ElementLevel, ownerId: string | null) {
  return useQuery({
    queryKey: [...elementsQueryKey, 'owner', level, ownerId ?? ''],
    queryFn: ({ signal }) => getElementOwner(level, ownerId ?? '', signal),
    enabled: Boolean(ownerId),
  });
}
