import { routePaths } from '@mise/shared/navigation/rules';
import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { auditQueryOptions } from '../features/audits/api/get-audit';
import { LoginPage } from '../features/auth/pages/login-page';
import { prefetchBulkScreen } from '../features/bulk/api/prefetch-bulk-screen';
import { communicationQueryOptions } from '../features/communications/api/get-communication';
import { bestStoresQueryOptions } from '../features/home/api/get-best-stores';
import { storeHomeQueryOptions } from '../features/home/api/get-store-home';
import { trainingQueryOptions } from '../features/trainings/api/get-training';
import { meQueryOptions } from '../shared/auth/get-me';
import { getSelection } from '../shared/selection/use-selection';
import { demoStatusQueryOptions } from '../shared/ui/demo-banner';
import { FullPageLoader } from '../shared/ui/full-page-loader';
import type { RouteHandle } from './routes/document-title';
import { createEntryLoader } from './routes/entry-loader';
import { lazyRoute } from './routes/load-chunk';
import { RequireScreenAccess } from './routes/require-screen-access';
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
  '/probes',
  '/probe',
  '/auditing',
  '/auditingConfiguration',
  '/auditingResults',
  '/auditingPerform',
  '/documents',
  '/communications',
  '/communication',
  '/communicationStats',
  '/trainings',
  '/training',
  '/trainingStats',
  '/shop',
  '/bulkDatabaseElement',
  '/bulkDatabaseTask',
  '/bulkStoreElement',
  '/bulkStoreTask',
  '/technical',
]);

/**
 * The expert-mode screens (issue 19): a chunk for the two element grids and one for the two
 * task grids (the element grid does not load the task editors), their rows read alongside it.
 */
const bulkElementPages = () => import('../features/bulk/pages/bulk-element-pages');
const bulkTaskPages = () => import('../features/bulk/pages/bulk-task-pages');
const bulkScreens: {
  path: string;
  kind: 'elements' | 'tasks';
  level: 'database' | 'store';
  load: () => Promise<ComponentType>;
}[] = [
  {
    path: 'bulkDatabaseElement',
    kind: 'elements',
    level: 'database',
    load: async () => (await bulkElementPages()).BulkDatabaseElementPage,
  },
  {
    path: 'bulkStoreElement',
    kind: 'elements',
    level: 'store',
    load: async () => (await bulkElementPages()).BulkStoreElementPage,
  },
  {
    path: 'bulkDatabaseTask',
    kind: 'tasks',
    level: 'database',
    load: async () => (await bulkTaskPages()).BulkDatabaseTaskPage,
  },
  {
    path: 'bulkStoreTask',
    kind: 'tasks',
    level: 'store',
    load: async () => (await bulkTaskPages()).BulkStoreTaskPage,
  },
];

/**
 * A screen of the signed-in layout: its own chunk, its document title (`areas.<path>` unless
 * given) and its own error boundary, so a failing screen leaves the header and navigation.
 */
function screen(
  path: string,
  load: () => Promise<ComponentType>,
  titleKey = `areas.${path}`,
): RouteObject {
  const handle: RouteHandle = { titleKey };
  return {
    path,
    handle,
    ErrorBoundary: RouteErrorBoundary,
    lazy: () => lazyRoute(async () => ({ Component: await load() })),
  };
}

function comingSoonRoute(path: string): RouteObject {
  const areaKey = path.slice(1);
  const handle: RouteHandle = { titleKey: `areas.${areaKey}` };
  return {
    path: areaKey,
    handle,
    ErrorBoundary: RouteErrorBoundary,
    lazy: () =>
      lazyRoute(async () => {
        const { ComingSoonPage } = await import('../shared/ui/coming-soon-page');
        return { element: <ComingSoonPage areaKey={areaKey} /> };
      }),
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
  /**
   * The home's panel data starts loading as soon as the user is known, alongside the home's
   * chunk instead of after its first render (the page reads the same queries). Not awaited.
   */
  const prefetchHomeData = () => {
    void queryClient.ensureQueryData(meQueryOptions()).then(
      (user) => {
        if (!user || user.role === 'distributor') return;
        const selection = getSelection();
        return selection?.kind === 'store'
          ? queryClient.prefetchQuery(storeHomeQueryOptions(selection.id))
          : queryClient.prefetchQuery(
              bestStoresQueryOptions(selection?.kind === 'database' ? selection.id : null),
            );
      },
      () => undefined,
    );
    return null;
  };
  /** No banner when the status cannot be read: the layout never waits on a failed request. */
  const waitForDemoStatus = async () => {
    await queryClient.ensureQueryData(demoStatusQueryOptions()).catch(() => undefined);
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
          handle: { titleKey: 'areas.resetPassword' } satisfies RouteHandle,
          lazy: () =>
            lazyRoute(async () => ({
              Component: (await import('../features/auth/pages/reset-password-page'))
                .ResetPasswordPage,
            })),
        },
        {
          // An inspector's read-only page (issue 21): no account, no navigation panel; the
          // link's token is the address's fragment.
          path: 'inspect',
          handle: { titleKey: 'areas.inspect' } satisfies RouteHandle,
          lazy: () =>
            lazyRoute(async () => ({
              Component: (await import('../features/inspector/pages/inspect-page')).InspectPage,
            })),
        },
        {
          loader: prefetchMe,
          Component: RequireSignedOut,
          children: [
            {
              // In the shell, not a chunk of its own: the first screen of a signed-out visitor
              // paints without a second round of requests (its modules are the layout's too).
              path: 'login',
              handle: { titleKey: 'areas.login' } satisfies RouteHandle,
              Component: LoginPage,
            },
          ],
        },
        {
          loader: prefetchMe,
          Component: RequireUser,
          children: [
            {
              path: 'changePassword',
              handle: { titleKey: 'areas.changePassword' } satisfies RouteHandle,
              lazy: () =>
                lazyRoute(async () => ({
                  Component: (await import('../features/auth/pages/change-password-page'))
                    .ChangePasswordPage,
                })),
            },
            {
              // The layout is a chunk of its own: the sign-in screen does not download it.
              // It shows once the demo-data status is known (asked alongside its chunk): the
              // banner is in its first frame instead of pushing the page down afterwards.
              loader: waitForDemoStatus,
              lazy: () =>
                lazyRoute(async () => ({
                  Component: (await import('./layout/app-layout')).AppLayout,
                })),
              children: [
                {
                  Component: RequireScreenAccess,
                  children: [
                    {
                      ...screen(
                        'home',
                        async () => (await import('../features/home/pages/home-page')).HomePage,
                      ),
                      loader: prefetchHomeData,
                    },
                    screen(
                      'accounts',
                      async () =>
                        (await import('../features/accounts/pages/accounts-page')).AccountsPage,
                    ),
                    screen(
                      'account',
                      async () =>
                        (await import('../features/accounts/pages/account-page')).AccountPage,
                    ),
                    screen(
                      'support',
                      async () =>
                        (await import('../features/support/pages/support-page')).SupportPage,
                    ),
                    screen(
                      'distributors',
                      async () =>
                        (await import('../features/distributors/pages/distributors-page'))
                          .DistributorsPage,
                    ),
                    screen(
                      'distributor',
                      async () =>
                        (await import('../features/distributors/pages/distributor-page'))
                          .DistributorPage,
                    ),
                    screen(
                      'databases',
                      async () =>
                        (await import('../features/databases/pages/databases-page')).DatabasesPage,
                    ),
                    screen(
                      'database',
                      async () =>
                        (await import('../features/databases/pages/database-page')).DatabasePage,
                    ),
                    screen(
                      'stores',
                      async () => (await import('../features/stores/pages/stores-page')).StoresPage,
                    ),
                    screen(
                      'store',
                      async () => (await import('../features/stores/pages/store-page')).StorePage,
                    ),
                    screen(
                      'storeDatabase',
                      async () => (await import('../features/stores/pages/store-page')).StorePage,
                    ),
                    screen(
                      'billing',
                      async () =>
                        (await import('../features/billing/pages/billing-page')).BillingPage,
                    ),
                    screen(
                      'databaseElement',
                      async () =>
                        (await import('../features/elements/pages/database-element-page'))
                          .DatabaseElementPage,
                    ),
                    screen(
                      'storeElement',
                      async () =>
                        (await import('../features/elements/pages/store-element-page'))
                          .StoreElementPage,
                    ),
                    screen(
                      'newElement',
                      async () =>
                        (await import('../features/elements/pages/store-element-page'))
                          .StoreElementPage,
                      'areas.storeElement',
                    ),
                    ...bulkScreens.map(({ path, kind, level, load }) => ({
                      ...screen(path, load),
                      // The rows (up to 2,000) load alongside the grid's chunk.
                      loader: ({ request }: { request: Request }) => {
                        const ownerId = new URL(request.url).searchParams.get(
                          level === 'database' ? 'database' : 'store',
                        );
                        if (ownerId) prefetchBulkScreen(queryClient, kind, level, ownerId);
                        return null;
                      },
                    })),
                    screen(
                      'allergens',
                      async () =>
                        (await import('../features/allergens/pages/allergens-page')).AllergensPage,
                    ),
                    screen(
                      'taskConf',
                      async () =>
                        (
                          await import(
                            '../features/task-configurations/pages/database-task-configuration-page'
                          )
                        ).DatabaseTaskConfigurationPage,
                    ),
                    screen(
                      'storeTaskConf',
                      async () =>
                        (
                          await import(
                            '../features/task-configurations/pages/store-task-configuration-page'
                          )
                        ).StoreTaskConfigurationPage,
                    ),
                    screen(
                      'history',
                      async () =>
                        (await import('../features/history/pages/history-page')).HistoryPage,
                    ),
                    screen(
                      'task',
                      async () => (await import('../features/history/pages/task-page')).TaskPage,
                    ),
                    screen(
                      'punchCards',
                      async () =>
                        (await import('../features/punch-cards/pages/punch-cards-page'))
                          .PunchCardsPage,
                    ),
                    screen(
                      'probes',
                      async () => (await import('../features/probes/pages/probes-page')).ProbesPage,
                    ),
                    screen(
                      'probe',
                      async () => (await import('../features/probes/pages/probe-page')).ProbePage,
                    ),
                    screen(
                      'auditing',
                      async () =>
                        (await import('../features/audits/pages/auditing-page')).AuditingPage,
                    ),
                    {
                      ...screen(
                        'auditingConfiguration',
                        async () =>
                          (await import('../features/audits/pages/audit-configuration-page'))
                            .AuditConfigurationPage,
                      ),
                      // The audit (up to hundreds of KB) loads alongside the builder's chunk.
                      loader: ({ request }) => {
                        const id = new URL(request.url).searchParams.get('id');
                        if (id) void queryClient.prefetchQuery(auditQueryOptions(id));
                        return null;
                      },
                    },
                    screen(
                      'auditingResults',
                      async () =>
                        (await import('../features/audit-results/pages/audit-results-page'))
                          .AuditResultsPage,
                    ),
                    screen(
                      'auditingPerform',
                      async () =>
                        (await import('../features/audit-results/pages/audit-perform-page'))
                          .AuditPerformPage,
                    ),
                    screen(
                      'communications',
                      async () =>
                        (await import('../features/communications/pages/communications-page'))
                          .CommunicationsPage,
                    ),
                    {
                      ...screen(
                        'communication',
                        async () =>
                          (await import('../features/communications/pages/communication-page'))
                            .CommunicationPage,
                      ),
                      // The communication loads alongside the editor's chunk.
                      loader: ({ request }) => {
                        const id = new URL(request.url).searchParams.get('id');
                        if (id) void queryClient.prefetchQuery(communicationQueryOptions(id));
                        return null;
                      },
                    },
                    screen(
                      'communicationStats',
                      async () =>
                        (await import('../features/communications/pages/communication-stats-page'))
                          .CommunicationStatsPage,
                    ),
                    screen(
                      'trainings',
                      async () =>
                        (await import('../features/trainings/pages/trainings-page')).TrainingsPage,
                    ),
                    {
                      ...screen(
                        'training',
                        async () =>
                          (await import('../features/trainings/pages/training-page')).TrainingPage,
                      ),
                      // The training loads alongside the editor's chunk.
                      loader: ({ request }) => {
                        const id = new URL(request.url).searchParams.get('id');
                        if (id) void queryClient.prefetchQuery(trainingQueryOptions(id));
                        return null;
                      },
                    },
                    screen(
                      'trainingStats',
                      async () =>
                        (await import('../features/trainings/pages/training-stats-page'))
                          .TrainingStatsPage,
                    ),
                    screen(
                      'documents',
                      async () =>
                        (await import('../features/documents/pages/documents-page')).DocumentsPage,
                    ),
                    screen(
                      'shop',
                      async () => (await import('../features/shop/pages/shop-page')).ShopPage,
                    ),
                    screen(
                      'technical',
                      async () =>
                        (await import('../features/technical/pages/technical-page')).TechnicalPage,
                    ),
                    ...routePaths.filter((path) => !builtPaths.has(path)).map(comingSoonRoute),
                    // Any other address: a not-found page inside the layout (signed out: /login).
                    screen(
                      '*',
                      async () => (await import('./routes/not-found-page')).NotFoundPage,
                      'navigation.notFoundTitle',
                    ),
                  ],
                },
              ],
            },
          ],
        },
      ],
    },
  ];
}
