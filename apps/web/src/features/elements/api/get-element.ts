import type { Element } from '@mise/shared/catalogue/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import {
  type ElementLevel,
  elementPath,
  elementQueryKey,
  originElementQueryKey,
} from './element-query-keys';

/** GET /api/databaseElements/:id or /api/storeElements/:id */
export async function getElement(
  level: ElementLevel,
  id: string,
  signal?: AbortSignal,
): Promise<Element> {
  const { element } = await apiRequest<{ element: Element }>(elementPath(level, id), { signal });
  return element;
}

/** GET /api/stores/:storeId/elements/origin/:originId — a database element seen from a store. */
export async function getOriginElement(
  storeId: string,
  originId: string,
  signal?: AbortSignal,
): Promise<Element> {
  const { element } = await apiRequest<{ element: Element }>(
    `/stores/${encodeURIComponent(storeId)}/elements/origin/${encodeURIComponent(originId)}`,
    { signal },
  );
  return element;
}

/**
 * An element's detail is never taken from the cache as is: the editor starts from it and
 * saves with its version, so it is always fetched again when a screen opens (staleTime 0,
 * and the pages wait for that fetch).
 */
export function elementQueryOptions(level: ElementLevel, id: string) {
  return queryOptions({
    queryKey: elementQueryKey(level, id),
    queryFn: ({ signal }) => getElement(level, id, signal),
    staleTime: 0,
  });
}

export function originElementQueryOptions(storeId: string, originId: string) {
  return queryOptions({
    queryKey: originElementQueryKey(storeId, originId),
    queryFn: ({ signal }) => getOriginElement(storeId, originId, signal),
    staleTime: 0,
  });
}

export function useElement(level: ElementLevel, id: string | null) {
  return useQuery({
    ...elementQueryOptions(level, id ?? ''),
    enabled: Boolean(id),
    refetchOnMount: 'always',
  });
}

export function useOriginElement(storeId: string | null, originId: string | null) {
  return useQuery({
    ...originElementQueryOptions(storeId ?? '', originId ?? ''),
    enabled: Boolean(storeId && originId),
    refetchOnMount: 'always',
  });
}
