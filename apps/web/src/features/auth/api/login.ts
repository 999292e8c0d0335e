import type { LoginBody } from '@mise/shared/auth/schemas';
import type { User } from '@mise/shared/users/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { applySignedInUser } from '../../../shared/auth/signed-in-user';
import { getAppSession } from '../../../shared/session/app-session';

/** POST /api/auth/login */
export function login(body: LoginBody): Promise<{ user: User }> {
  // Signed in from an invitation link (store to own, database to manage): accept it.
  const invitation = body.invitation ?? getAppSession().invitationToken ?? undefined;
  return apiRequest('/auth/login', { method: 'POST', body: { ...body, invitation } });
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: ({ user }) => applySignedInUser(queryClient, user),
  });
}
