import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

/**
 * POST /api/auth/password/require-change: marks the own account as needing a
 * new password; the server ends the session.
 */
export function requirePasswordChange(): Promise<{ status: 'ok' }> {
  return apiRequest('/auth/password/require-change', { method: 'POST' });
}

export function useRequirePasswordChange() {
  return useMutation({ mutationFn: requirePasswordChange });
}
