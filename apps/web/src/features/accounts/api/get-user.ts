import type { User } from '@mise/shared/users/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { usersQueryKey } from './get-users';

/** GET /api/users/:id */
export async function getUser(id: string, signal?: AbortSignal): Promise<User> {
  const { user } = await apiRequest<{ user: User }>(`/users/${encodeURIComponent(id)}`, { signal });
  return user;
}

export function userQueryKey(id: string) {
  return [...usersQueryKey, 'detail', id] as const;
}

export function userQueryOptions(id: string) {
  return queryOptions({
    queryKey: userQueryKey(id),
    queryFn: ({ signal }) => getUser(id, signal),
  });
}

export function useUser(id: string | null) {
  return useQuery({ ...userQueryOptions(id ?? ''), enabled: Boolean(id) });
}
