import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

export type ResetPasswordBody = { token: string; password: string; confirmation: string };

/** POST /api/auth/password/reset: sets a new password from the mailed link's token. */
export function resetPassword(body: ResetPasswordBody): Promise<{ status: 'ok' }> {
  return apiRequest('/auth/password/reset', { method: 'POST', body });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
