import type { Role } from '@mise/shared/auth/constants';
import { type NavigationKey, navigationEntries } from '@mise/shared/navigation/rules';

/**
 * Screens reached from a navigation entry's list: opened by URL they follow the entry's roles
 * (spec 000 §2 and §6: customers have no database screen). A database element or task
 * configuration stays open to a customer, read-only: a store's inherited rows lead there.
 */
const entryOfScreen: Record<string, NavigationKey> = {
  '/database': 'databases',
  '/bulkDatabaseElement': 'databases',
  '/bulkDatabaseTask': 'databases',
  '/auditingConfiguration': 'auditing',
  '/auditingResults': 'auditing',
  '/auditingPerform': 'auditing',
  '/communication': 'communications',
  '/communicationStats': 'communications',
  '/training': 'trainings',
  '/trainingStats': 'trainings',
};

/**
 * Whether a role may open a screen: a navigation entry's screen (and the screens of its list)
 * only for the roles that see the entry; any other screen for every signed-in role, the API
 * deciding what it shows.
 */
export function canOpenScreen(role: Role, pathname: string): boolean {
  const key =
    entryOfScreen[pathname] ?? navigationEntries.find((entry) => entry.path === pathname)?.key;
  if (!key) return true;
  const entry = navigationEntries.find((candidate) => candidate.key === key);
  return entry ? (entry.roles as readonly Role[]).includes(role) : true;
}
