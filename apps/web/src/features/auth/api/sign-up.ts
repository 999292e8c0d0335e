import type { SignupBody } from '@mise/shared/auth/schemas';
import type { User } from '@mise/shared/users/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { signInWithToken } from './token-sign-in';

/** POST /api/auth/signup: public registration; answers a login token. */
export function signUp(body: SignupBody): Promise<{ status: 'ok'; token: string }> {
  return apiRequest('/auth/signup', { method: 'POST', body });
}

/** Registers, then signs in with the token the signup answered. */
export function useSignUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: SignupBody): Promise<User> => {
      const { token } = await signUp(body);
      return signInWithToken(queryClient, token);
    },
  });
}
