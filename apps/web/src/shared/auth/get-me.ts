import type { User } from '@mise/shared/users/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../api/api-client';
import { isApiError } from '../api/api-error';

export const meQueryKey = ['me'] as const;

/** GET /api/me: the signed-in user, or null when signed out. */
export async function getMe(): Promise<User | null> {
  try {
    const { user } = await apiRequest<{ user: User }>('/me');
    return user;
  } catch (error) {
    if (isApiError(error, 'auth/unauthenticated')) return null;
    throw error;
  }
}

export function meQueryOptions() {
  return queryOptions({
    queryKey: meQueryKey,
    queryFn: getMe,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

export function useMe() {
  return useQuery(meQueryOptions());
}

/**
 * The signed-in user, for screens behind the sign-in guard (which loads it
 * before they render).
 */
export function useCurrentUser(): User {
  const { data } = useMe();
  if (!data) throw new Error('useCurrentUser is used outside the signed-in area');
  return data;
}
