import type { StoreElementTab } from '@mise/shared/catalogue/constants';
import type { ElementListItem } from '@mise/shared/catalogue/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { elementListsQueryKey } from './element-query-keys';

/** Where a list is read: a database's elements, or one tab of a store's merged list. */
export type ElementListScope =
  | { level: 'database'; databaseId: string }
  | { level: 'store'; storeId: string; tab: StoreElementTab };

export type ElementListFilter = { search: string; isInactiveIncluded: boolean };

function listPath(scope: ElementListScope): string {
  return scope.level === 'database'
    ? `/databases/${encodeURIComponent(scope.databaseId)}/elements`
    : `/stores/${encodeURIComponent(scope.storeId)}/elements`;
}

/**
 * GET /api/databases/:databaseId/elements or GET /api/stores/:storeId/elements (with the
 * store tab): the rows in the server's order (by name).
 */
export async function getElementList(
  scope: ElementListScope,
  filter: ElementListFilter,
  signal?: AbortSignal,
): Promise<ElementListItem[]> {
  const { items } = await apiRequest<{ items: ElementListItem[] }>(listPath(scope), {
    query: {
      search: filter.search.trim() || undefined,
      includeInactive: filter.isInactiveIncluded ? 'true' : 'false',
      tab: scope.level === 'store' ? scope.tab : undefined,
    },
    signal,
  });
  return items;
}

function sameScope(left: unknown, right: ElementListScope): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}

export function elementListQueryOptions(scope: ElementListScope, filter: ElementListFilter) {
  return queryOptions({
    // Under the key every element write invalidates (save, duplicate, type rename).
    queryKey: [...elementListsQueryKey, scope, filter],
    queryFn: ({ signal }) => getElementList(scope, filter, signal),
    // While a new search loads, the previous rows of the same list stay on screen (never
    // another tab's or another database's rows).
    placeholderData: (previous, previousQuery) =>
      previousQuery && sameScope(previousQuery.queryKey[2], scope) ? previous : undefined,
  });
}

export function useElementList(scope: ElementListScope, filter: ElementListFilter) {
  return useQuery(elementListQueryOptions(scope, filter));
}
