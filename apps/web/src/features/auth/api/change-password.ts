import type { ChangePasswordBody } from '@mise/shared/auth/schemas';
import type { User } from '@mise/shared/users/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { applySignedInUser } from '../../../shared/auth/signed-in-user';

/** POST /api/auth/password/change: the forced password change. */
export function changePassword(body: ChangePasswordBody): Promise<{ status: 'ok'; user: User }> {
  return apiRequest('/auth/password/change', { method: 'POST', body });
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    // The server may rotate the session with the password: the CSRF token follows.
    onSuccess: ({ user }) => applySignedInUser(queryClient, user),
  });
}
