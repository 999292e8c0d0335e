import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

/** POST /api/auth/password/forgot: mails a reset link (same answer for unknown addresses). */
export function forgotPassword(email: string): Promise<{ status: 'ok' }> {
  return apiRequest('/auth/password/forgot', { method: 'POST', body: { email } });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
