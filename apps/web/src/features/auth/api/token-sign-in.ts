import type { User } from '@mise/shared/users/schemas';
import type { QueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { applySignedInUser } from '../../../shared/auth/signed-in-user';

/** POST /api/auth {token}: exchanges a login token for a session. */
export function tokenSignIn(token: string): Promise<{ status: 'ok'; user: User }> {
  return apiRequest('/auth', { method: 'POST', body: { token } });
}

/** Token sign-in, then the session's user is the signed-in user. */
export async function signInWithToken(queryClient: QueryClient, token: string): Promise<User> {
  const { user } = await tokenSignIn(token);
  applySignedInUser(queryClient, user);
  return user;
}
