import type { Element } from '@mise/shared/catalogue/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import {
  type ElementLevel,
  elementListsQueryKey,
  elementPath,
  elementQueryKey,
} from './element-query-keys';

/** POST /api/databaseElements/:id/duplicate or /api/storeElements/:id/duplicate: the copy. */
export async function duplicateElement(level: ElementLevel, id: string): Promise<Element> {
  const { element } = await apiRequest<{ element: Element }>(
    `${elementPath(level, id)}/duplicate`,
    { method: 'POST' },
  );
  return element;
}

export function useDuplicateElement(level: ElementLevel) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => duplicateElement(level, id),
    onSuccess: (element) => {
      if (element.id) queryClient.setQueryData(elementQueryKey(element.level, element.id), element);
      void queryClient.invalidateQueries({ queryKey: elementListsQueryKey });
    },
  });
}
