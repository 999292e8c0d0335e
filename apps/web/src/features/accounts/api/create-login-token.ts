import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

/** POST /api/auth/createToken {UId}: a login token for the account (admin, distributor). */
export function createLoginToken(userId: string): Promise<{ token: string }> {
  return apiRequest('/auth/createToken', { method: 'POST', body: { UId: userId } });
}

export function useCreateLoginToken() {
  return useMutation({ mutationFn: createLoginToken });
}
