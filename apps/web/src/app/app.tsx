import type { QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders } from './providers';
import { createAppRoutes } from './router';

type AppProps = {
  queryClient: QueryClient;
};

export function App({ queryClient }: AppProps) {
  const [router] = useState(() => createBrowserRouter(createAppRoutes(queryClient)));
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
