import type { QueryClient } from '@tanstack/react-query';
import { type createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders } from './providers';

type AppProps = {
  queryClient: QueryClient;
  /** Created before the first render (createAppRoutes): the first screen's chunks load meanwhile. */
  router: ReturnType<typeof createBrowserRouter>;
};

export function App({ queryClient, router }: AppProps) {
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
