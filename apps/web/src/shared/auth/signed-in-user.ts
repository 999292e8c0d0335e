import type { User } from '@mise/shared/users/schemas';
import type { QueryClient } from '@tanstack/react-query';
import { refreshCsrfToken, resetCsrfToken } from '../api/api-client';
import { meQueryKey } from './get-me';

/**
 * After any sign-in (password, registration, token): the CSRF token is bound
 * to the new session, and the user is known without another round trip.
 */
export function applySignedInUser(queryClient: QueryClient, user: User): void {
  resetCsrfToken();
  void refreshCsrfToken();
  queryClient.setQueryData(meQueryKey, user);
}
