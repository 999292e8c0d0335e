import type { DatabaseSummary, StoreSummary } from '@mise/shared/organisation/schemas';
import { useQuery } from '@tanstack/react-query';
import { selectionDatabasesQueryOptions } from '../../../shared/selection/get-selection-databases';
import { selectionStoresQueryOptions } from '../../../shared/selection/get-selection-stores';

const byName = (left: { name: string }, right: { name: string }) =>
  left.name.localeCompare(right.name, undefined, { sensitivity: 'base' });

/**
 * Spec 002 §2: the databases of the list's picker (GET /api/databases, the selection popup's
 * call and cache), those whose training extension is hidden left out, sorted by name.
 */
export function trainingDatabasesOf(databases: readonly DatabaseSummary[]): DatabaseSummary[] {
  return databases
    .filter((database) => !database.hidden_extensions?.includes('training'))
    .sort(byName);
}

export function useTrainingDatabases(isEnabled: boolean) {
  return useQuery({
    ...selectionDatabasesQueryOptions(''),
    select: trainingDatabasesOf,
    enabled: isEnabled,
  });
}

/** A customer's stores for the picker (GET /api/stores, the selection popup's call), by name. */
export function useTrainingStores(isEnabled: boolean) {
  return useQuery({
    ...selectionStoresQueryOptions(''),
    select: (stores: StoreSummary[]) => [...stores].sort(byName),
    enabled: isEnabled,
  });
}
