import type { RegisterAccountBody } from '@mise/shared/auth/schemas';
import type { User } from '@mise/shared/users/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { usersQueryKey } from './get-users';

/** POST /api/auth/registerAccount: an admin or distributor creates an account. */
export function registerAccount(body: RegisterAccountBody): Promise<{ status: 'ok'; user: User }> {
  return apiRequest('/auth/registerAccount', { method: 'POST', body });
}

export function useRegisterAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerAccount,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...usersQueryKey, 'list'] }),
  });
}
