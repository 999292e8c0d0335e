import type { LoginBody } from '@mise/shared/auth/schemas';
import type { User } from '@mise/shared/users/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { applySignedInUser } from '../../../shared/auth/signed-in-user';

/** POST /api/auth/login */
export function login(body: LoginBody): Promise<{ user: User }> {
  return apiRequest('/auth/login', { method: 'POST', body });
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: ({ user }) => applySignedInUser(queryClient, user),
  });
}
