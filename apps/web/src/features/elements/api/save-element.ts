import type {
  CreateDatabaseElementBody,
  CreateStoreElementBody,
  Element,
  UpdateElementBody,
} from '@mise/shared/catalogue/schemas';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import {
  type ElementLevel,
  elementListsQueryKey,
  elementPath,
  elementQueryKey,
  elementsQueryKey,
  originElementQueryKey,
  ownerPath,
} from './element-query-keys';

/** POST /api/databases/:databaseId/elements */
export async function createDatabaseElement(
  databaseId: string,
  body: CreateDatabaseElementBody,
): Promise<Element> {
  const { element } = await apiRequest<{ element: Element }>(
    `${ownerPath('database', databaseId)}/elements`,
    { method: 'POST', body },
  );
  return element;
}

/** POST /api/stores/:storeId/elements (with `origin_id` to override a database element). */
export async function createStoreElement(
  storeId: string,
  body: CreateStoreElementBody,
): Promise<Element> {
  const { element } = await apiRequest<{ element: Element }>(
    `${ownerPath('store', storeId)}/elements`,
    { method: 'POST', body },
  );
  return element;
}

/** PATCH /api/databaseElements/:id or /api/storeElements/:id with the version read. */
export async function updateElement(
  level: ElementLevel,
  id: string,
  body: UpdateElementBody,
): Promise<Element> {
  const { element } = await apiRequest<{ element: Element }>(elementPath(level, id), {
    method: 'PATCH',
    body,
  });
  return element;
}

export type SaveElementRequest =
  | { kind: 'createDatabase'; databaseId: string; body: CreateDatabaseElementBody }
  | { kind: 'createStore'; storeId: string; body: CreateStoreElementBody }
  | { kind: 'update'; level: ElementLevel; id: string; body: UpdateElementBody };

export function saveElement(request: SaveElementRequest): Promise<Element> {
  switch (request.kind) {
    case 'createDatabase':
      return createDatabaseElement(request.databaseId, request.body);
    case 'createStore':
      return createStoreElement(request.storeId, request.body);
    case 'update':
      return updateElement(request.level, request.id, request.body);
  }
}

/**
 * An element the server answered (save or upload) becomes its cached detail; lists refresh.
 * A database element also refreshes what stores show of it (their details and origins).
 */
export function cacheSavedElement(queryClient: QueryClient, element: Element): void {
  if (element.id) queryClient.setQueryData(elementQueryKey(element.level, element.id), element);
  void queryClient.invalidateQueries({ queryKey: elementListsQueryKey });
  if (element.level === 'database') {
    void queryClient.invalidateQueries({ queryKey: [...elementsQueryKey, 'detail', 'store'] });
    void queryClient.invalidateQueries({ queryKey: [...elementsQueryKey, 'origin'] });
  } else if (element.store_id && element.origin_id) {
    queryClient.removeQueries({
      queryKey: originElementQueryKey(element.store_id, element.origin_id),
    });
  }
}

/** Creates or updates an element; the answer becomes the cached detail, lists refresh. */
export function useSaveElement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveElement,
    onSuccess: (element) => cacheSavedElement(queryClient, element),
  });
}
