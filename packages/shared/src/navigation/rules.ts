import type { Role } from '../auth/constants';

/** Navigation panel entries and who sees them (spec 000 §2), in display order. */
export const navigationEntries = [
  { key: 'home', path: '/home', roles: ['admin', 'distributor', 'manager', 'customer'] },
  { key: 'distributors', path: '/distributors', roles: ['admin', 'distributor'] },
  { key: 'databases', path: '/databases', roles: ['admin', 'distributor', 'manager'] },
  { key: 'shop', path: '/shop', roles: ['distributor'] },
  { key: 'communications', path: '/communications', roles: ['admin', 'customer', 'manager'] },
  { key: 'documents', path: '/documents', roles: ['admin', 'distributor', 'manager', 'customer'] },
  { key: 'history', path: '/history', roles: ['admin', 'distributor', 'manager', 'customer'] },
  { key: 'auditing', path: '/auditing', roles: ['distributor', 'admin', 'manager'] },
  { key: 'stores', path: '/stores', roles: ['admin', 'distributor', 'manager', 'customer'] },
  { key: 'trainings', path: '/trainings', roles: ['admin', 'distributor', 'manager', 'customer'] },
  { key: 'probes', path: '/probes', roles: ['admin'] },
  { key: 'accounts', path: '/accounts', roles: ['distributor', 'admin'] },
  { key: 'billing', path: '/billing', roles: ['admin'] },
  /** The admin technical screen (spec 002 §2, §6); the spec does not show its route. */
  { key: 'technical', path: '/technical', roles: ['admin'] },
] as const satisfies readonly { key: string; path: string; roles: readonly Role[] }[];

export type NavigationEntry = (typeof navigationEntries)[number];
export type NavigationKey = NavigationEntry['key'];

export function navigationFor(role: Role): NavigationEntry[] {
  return navigationEntries.filter((entry) => (entry.roles as readonly Role[]).includes(role));
}

/** The panel is hidden in tablet mode and on these paths (spec 000 §2). */
const pathsWithoutNavigation = new Set(['/login', '/', '/changePassword']);

export function isNavigationVisible(pathname: string, initialPage: string | null): boolean {
  if (initialPage) return false;
  return !pathsWithoutNavigation.has(pathname);
}

/** Where to go after signing in (spec 000 §2). */
export function landingPath(initialPage: string | null, isNewPasswordRequired: boolean): string {
  if (initialPage) return initialPage.startsWith('/') ? initialPage : `/${initialPage}`;
  if (isNewPasswordRequired) return '/changePassword';
  return '/home';
}

/** Every route of the route table (spec 000 §2), and the admin technical screen's (spec 002 §2). */
export const routePaths = [
  '/punchCards',
  '/trainingStats',
  '/training',
  '/trainings',
  '/bulkDatabaseTask',
  '/bulkStoreTask',
  '/bulkDatabaseElement',
  '/bulkStoreElement',
  '/login',
  '/shop',
  '/databases',
  '/storeDatabase',
  '/database',
  '/taskConf',
  '/storeTaskConf',
  '/databaseElement',
  '/communications',
  '/communication',
  '/communicationStats',
  '/storeElement',
  '/history',
  '/task',
  '/probes',
  '/probe',
  '/support',
  '/billing',
  '/distributors',
  '/distributor',
  '/stores',
  '/store',
  '/accounts',
  '/account',
  '/home',
  '/documents',
  '/auditing',
  '/auditingConfiguration',
  '/auditingResults',
  '/allergens',
  '/changePassword',
  '/technical',
] as const;

/** Account permissions that depend on the viewer only (spec 000 §6). */
export function canCreateAccounts(role: Role): boolean {
  return role === 'admin' || role === 'distributor';
}
export function canCreateLoginToken(role: Role): boolean {
  return role === 'admin' || role === 'distributor';
}
/** Account subtitle: admin accounts are labelled customer (spec 000 §2). */
export function accountRoleLabel(role: Role): Role {
  return role === 'admin' ? 'customer' : role;
}
