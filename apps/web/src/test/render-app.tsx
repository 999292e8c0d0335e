import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '../app/providers';
import { createQueryClient } from '../app/query-client';
import { createAppRoutes } from '../app/router';

/** Renders the whole app (providers, routes, guards) at a path, with a memory router. */
export function renderApp(path: string, queryClient = createQueryClient()) {
  const router = createMemoryRouter(createAppRoutes(queryClient), { initialEntries: [path] });
  const user = userEvent.setup();
  const view = render(
    <AppProviders queryClient={queryClient} mantineEnvironment="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient, user };
}

/** Renders one component inside the app's providers. */
export function renderWithProviders(ui: ReactNode) {
  const queryClient = createQueryClient();
  const user = userEvent.setup();
  const view = render(
    <AppProviders queryClient={queryClient} mantineEnvironment="test">
      {ui}
    </AppProviders>,
  );
  return { ...view, queryClient, user };
}
