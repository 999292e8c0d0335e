import type { UpdateUserBody, User } from '@mise/shared/users/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { meQueryKey } from '../../../shared/auth/get-me';
import { userQueryKey } from './get-user';
import { usersQueryKey } from './get-users';

/** PATCH /api/users/:id with the version read; a stale version answers 409. */
export async function updateUser(id: string, body: UpdateUserBody): Promise<User> {
  const { user } = await apiRequest<{ user: User }>(`/users/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body,
  });
  return user;
}

export function useUpdateUser(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateUserBody) => updateUser(id, body),
    onSuccess: (user) => {
      queryClient.setQueryData(userQueryKey(id), user);
      void queryClient.invalidateQueries({ queryKey: [...usersQueryKey, 'list'] });
      const me = queryClient.getQueryData<User | null>(meQueryKey);
      if (me?.id === user.id) queryClient.setQueryData(meQueryKey, user);
    },
  });
}
