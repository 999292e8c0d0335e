import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { userQueryKey } from './get-user';

export type UserStore = { id: string; name: string; city: string };

/** GET /api/users/:id/stores (admin viewers). */
export async function getUserStores(id: string, signal?: AbortSignal): Promise<UserStore[]> {
  const { items } = await apiRequest<{ items: UserStore[] }>(
    `/users/${encodeURIComponent(id)}/stores`,
    { signal },
  );
  return items;
}

export function userStoresQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...userQueryKey(id), 'stores'],
    queryFn: ({ signal }) => getUserStores(id, signal),
  });
}

export function useUserStores(id: string, isEnabled: boolean) {
  return useQuery({ ...userStoresQueryOptions(id), enabled: isEnabled });
}
