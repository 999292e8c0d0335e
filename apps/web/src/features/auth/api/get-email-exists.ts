import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';

/** GET /api/auth/email-exists?email=: whether an account uses this address. */
export function getEmailExists(email: string): Promise<{ exists: boolean }> {
  return apiRequest('/auth/email-exists', { query: { email } });
}

export function emailExistsQueryOptions(email: string) {
  return queryOptions({
    queryKey: ['auth', 'email-exists', email],
    queryFn: () => getEmailExists(email),
    retry: false,
    staleTime: 60_000,
  });
}

export function useEmailExists(email: string | null) {
  return useQuery({ ...emailExistsQueryOptions(email ?? ''), enabled: Boolean(email) });
}
