import type { UserSummary } from '@mise/shared/users/schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

export type UsersFilter = {
  search: string;
  isInactiveIncluded: boolean;
  limit: number;
  offset: number;
};

export type UsersPage = { items: UserSummary[]; total: number };

export const usersQueryKey = ['users'] as const;

/** GET /api/users: accounts the viewer may see, filtered and paged by the server. */
export function getUsers(filter: UsersFilter, signal?: AbortSignal): Promise<UsersPage> {
  return apiRequest('/users', {
    query: {
      search: filter.search.trim() || undefined,
      includeInactive: filter.isInactiveIncluded ? 'true' : 'false',
      limit: filter.limit,
      offset: filter.offset,
    },
    signal,
  });
}

export function usersQueryOptions(filter: UsersFilter) {
  return queryOptions({
    queryKey: [...usersQueryKey, 'list', filter],
    queryFn: ({ signal }) => getUsers(filter, signal),
    placeholderData: keepPreviousData,
  });
}

export function useUsers(filter: UsersFilter) {
  return useQuery(usersQueryOptions(filter));
}
