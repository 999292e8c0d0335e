import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from '../shared/api/api-error';
import { meQueryKey } from '../shared/auth/get-me';

const maxRetries = 2;

/**
 * One QueryClient for the app. A 401 `auth/unauthenticated` anywhere means
 * the session ended: the user is cleared and the sign-in guard shows /login.
 * Client errors (4xx) are not retried.
 */
export function createQueryClient(): QueryClient {
  const handleError = (error: unknown) => {
    if (isApiError(error, 'auth/unauthenticated')) queryClient.setQueryData(meQueryKey, null);
  };
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: handleError }),
    mutationCache: new MutationCache({ onError: handleError }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => {
          if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
          return failureCount < maxRetries;
        },
      },
      mutations: { retry: false },
    },
  });
  return queryClient;
}
