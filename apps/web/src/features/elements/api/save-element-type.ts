import type { ElementType } from '@mise/shared/catalogue/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import {
  type ElementLevel,
  elementListsQueryKey,
  elementTypesQueryKey,
  ownerPath,
} from './element-query-keys';

/** POST /api/databases/:id/elementTypes or /api/stores/:id/elementTypes (a store_side type). */
export async function createElementType(
  level: ElementLevel,
  ownerId: string,
  name: string,
): Promise<ElementType> {
  const { type } = await apiRequest<{ type: ElementType }>(
    `${ownerPath(level, ownerId)}/elementTypes`,
    { method: 'POST', body: { name } },
  );
  return type;
}

/** PATCH /api/elementTypes/:id */
export async function renameElementType(id: string, name: string): Promise<ElementType> {
  const { type } = await apiRequest<{ type: ElementType }>(
    `/elementTypes/${encodeURIComponent(id)}`,
    { method: 'PATCH', body: { name } },
  );
  return type;
}

/** Creates (no id) or renames (id) an element type; the type list and element lists refresh. */
export function useSaveElementType(level: ElementLevel, ownerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string | null; name: string }) =>
      id ? renameElementType(id, name) : createElementType(level, ownerId, name),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: elementTypesQueryKey(level, ownerId) });
      void queryClient.invalidateQueries({ queryKey: elementListsQueryKey });
    },
  });
}
