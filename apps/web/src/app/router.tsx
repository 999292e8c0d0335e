import { routePaths } from '@mise/shared/navigation/rules';
import type { QueryClient } from '@tanstack/react-query';
import { type RouteObject, redirect } from 'react-router';
import { meQueryOptions } from '../shared/auth/get-me';
import { FullPageLoader } from '../shared/ui/full-page-loader';
import { AppLayout } from './layout/app-layout';
import { createEntryLoader } from './routes/entry-loader';
import { RequireSignedOut, RequireUser } from './routes/require-user';
import { RootRoute } from './routes/root-route';
import { RouteErrorBoundary } from './routes/route-error-page';

/** Areas built so far; every other path of the route table shows ComingSoonPage. */
const builtPaths = new Set<string>([
  '/login',
  '/changePassword',
  '/home',
  '/accounts',
  '/account',
  '/support',
  '/distributors',
  '/distributor',
  '/databases',
  '/database',
  '/stores',
  '/store',
  '/storeDatabase',
  '/billing',
  '/databaseElement',
  '/storeElement',
  '/newElement',
  '/allergens',
  '/taskConf',
  '/storeTaskConf',
  '/history',
  '/task',
  '/punchCards',
]);

function comingSoonRoute(path: string): RouteObject {
  const areaKey = path.slice(1);
  return {
    path: areaKey,
    lazy: async () => {
      const { ComingSoonPage } = await import('../shared/ui/coming-soon-page');
      return { element: <ComingSoonPage areaKey={areaKey} /> };
    },
  };
}

/**
 * Flat routes (spec 000 §2): every path of the route table plus /resetPassword;
 * the record to show travels in the query (`/account?id=...`). Each area is
 * its own chunk.
 */
export function createAppRoutes(queryClient: QueryClient): RouteObject[] {
  /** Starts loading the user alongside the page's chunk; the guards read the result. */
  const prefetchMe = async () => {
    await queryClient.prefetchQuery(meQueryOptions());
    return null;
  };

  return [
    {
      id: 'root',
      Component: RootRoute,
      ErrorBoundary: RouteErrorBoundary,
      HydrateFallback: FullPageLoader,
      children: [
        { index: true, loader: createEntryLoader(queryClient), Component: FullPageLoader },
        {
          path: 'resetPassword',
          lazy: async () => ({
            Component: (await import('../features/auth/pages/reset-password-page'))
              .ResetPasswordPage,
          }),
        },
        {
          loader: prefetchMe,
          Component: RequireSignedOut,
          children: [
            {
              path: 'login',
              lazy: async () => ({
                Component: (await import('../features/auth/pages/login-page')).LoginPage,
              }),
            },
          ],
        },
        {
          loader: prefetchMe,
          Component: RequireUser,
          children: [
            {
              path: 'changePassword',
              lazy: async () => ({
                Component: (await import('../features/auth/pages/change-password-page'))
                  .ChangePasswordPage,
              }),
            },
            {
              Component: AppLayout,
              children: [
                {
                  path: 'home',
                  lazy: async () => ({
                    Component: (await import('../features/home/pages/home-page')).HomePage,
                  }),
                },
                {
                  path: 'accounts',
                  lazy: async () => ({
                    Component: (await import('../features/accounts/pages/accounts-page'))
                      .AccountsPage,
                  }),
                },
                {
                  path: 'account',
                  lazy: async () => ({
                    Component: (await import('../features/accounts/pages/account-page'))
                      .AccountPage,
                  }),
                },
                {
                  path: 'support',
                  lazy: async () => ({
                    Component: (await import('../features/support/pages/support-page')).SupportPage,
                  }),
                },
                {
                  path: 'distributors',
                  lazy: async () => ({
                    Component: (await import('../features/distributors/pages/distributors-page'))
                      .DistributorsPage,
                  }),
                },
                {
                  path: 'distributor',
                  lazy: async () => ({
                    Component: (await import('../features/distributors/pages/distributor-page'))
                      .DistributorPage,
                  }),
                },
                {
                  path: 'databases',
                  lazy: async () => ({
                    Component: (await import('../features/databases/pages/databases-page'))
                      .DatabasesPage,
                  }),
                },
                {
                  path: 'database',
                  lazy: async () => ({
                    Component: (await import('../features/databases/pages/database-page'))
                      .DatabasePage,
                  }),
                },
                {
                  path: 'stores',
                  lazy: async () => ({
                    Component: (await import('../features/stores/pages/stores-page')).StoresPage,
                  }),
                },
                {
                  path: 'store',
                  lazy: async () => ({
                    Component: (await import('../features/stores/pages/store-page')).StorePage,
                  }),
                },
                {
                  path: 'storeDatabase',
                  lazy: async () => ({
                    Component: (await import('../features/stores/pages/store-page')).StorePage,
                  }),
                },
                {
                  path: 'billing',
                  lazy: async () => ({
                    Component: (await import('../features/billing/pages/billing-page')).BillingPage,
                  }),
                },
                {
                  path: 'databaseElement',
                  lazy: async () => ({
                    Component: (await import('../features/elements/pages/database-element-page'))
                      .DatabaseElementPage,
                  }),
                },
                {
                  path: 'storeElement',
                  lazy: async () => ({
                    Component: (await import('../features/elements/pages/store-element-page'))
                      .StoreElementPage,
                  }),
                },
                {
                  path: 'newElement',
                  lazy: async () => ({
                    Component: (await import('../features/elements/pages/store-element-page'))
                      .StoreElementPage,
                  }),
                },
                {
                  path: 'allergens',
                  lazy: async () => ({
                    Component: (await import('../features/allergens/pages/allergens-page'))
                      .AllergensPage,
                  }),
                },
                {
                  path: 'taskConf',
                  lazy: async () => ({
                    Component: (
                      await import(
                        '../features/task-configurations/pages/database-task-configuration-page'
                      )
                    ).DatabaseTaskConfigurationPage,
                  }),
                },
                {
                  path: 'storeTaskConf',
                  lazy: async () => ({
                    Component: (
                      await import(
                        '../features/task-configurations/pages/store-task-configuration-page'
                      )
                    ).StoreTaskConfigurationPage,
                  }),
                },
                {
                  path: 'history',
                  lazy: async () => ({
                    Component: (await import('../features/history/pages/history-page')).HistoryPage,
                  }),
                },
                {
                  path: 'task',
                  lazy: async () => ({
                    Component: (await import('../features/history/pages/task-page')).TaskPage,
                  }),
                },
                {
                  path: 'punchCards',
                  lazy: async () => ({
                    Component: (await import('../features/punch-cards/pages/punch-cards-page'))
                      .PunchCardsPage,
                  }),
                },
                ...routePaths.filter((path) => !builtPaths.has(path)).map(comingSoonRoute),
              ],
            },
          ],
        },
        { path: '*', loader: () => redirect('/'), Component: FullPageLoader },
      ],
    },
  ];
}
