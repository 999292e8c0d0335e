import type { Role } from '@mise/shared/auth/constants';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useSelection } from '../../../shared/selection/use-selection';
import { listMemory } from '../../../shared/ui/list-memory';
import { useTrainingDatabases, useTrainingStores } from '../api/get-training-sources';
import type { TrainingListSource } from './training-paths';

/** What the trainings list remembers: the source last chosen, the search and the toggle. */
export const trainingListMemory = listMemory('trainings', 'source');

const firstKnown = (
  wanted: readonly (string | null)[],
  items: readonly { id: string }[] | undefined,
): string | null =>
  wanted.find((id) => id && items?.some((item) => item.id === id)) ?? items?.[0]?.id ?? null;

/**
 * The list's source per role (spec 002 §2, §6): admins none (global trainings); distributors
 * an optional database (none: their distributor's trainings); managers a database; customers
 * a store. A database or store is the address's, else the one chosen here last time, else the
 * selection popup's, else the first (a distributor's: the address's only).
 */
export function useListSource(role: Role) {
  const [searchParams, setSearchParams] = useSearchParams();
  const selection = useSelection();
  const isDatabasePicked = role === 'manager' || role === 'distributor';
  const databases = useTrainingDatabases(isDatabasePicked);
  const stores = useTrainingStores(role === 'customer');
  const remembered = trainingListMemory.readChoice();

  let source: TrainingListSource = { databaseId: null, storeId: null };
  let isReady = role === 'admin';
  if (role === 'distributor') {
    const wanted = searchParams.get('database');
    const known = databases.data?.some((database) => database.id === wanted);
    source = { databaseId: known ? wanted : null, storeId: null };
    isReady = !wanted || !databases.isPending;
  } else if (role === 'manager') {
    const databaseId = firstKnown(
      [searchParams.get('database'), remembered, selection.databaseId],
      databases.data,
    );
    source = { databaseId, storeId: null };
    isReady = Boolean(databaseId);
  } else if (role === 'customer') {
    const storeId = firstKnown(
      [searchParams.get('store'), remembered, selection.storeId],
      stores.data,
    );
    source = { databaseId: null, storeId };
    isReady = Boolean(storeId);
  }

  const chosen = source.databaseId ?? source.storeId;
  useEffect(() => {
    if (chosen && role !== 'distributor') trainingListMemory.rememberChoice(chosen);
  }, [chosen, role]);

  return {
    source,
    isReady,
    databases,
    stores,
    /** Shows another source: a database or store id, or null (a distributor's own trainings). */
    choose: (id: string | null) => {
      const key = role === 'customer' ? 'store' : 'database';
      setSearchParams(id ? { [key]: id } : {}, { replace: true });
    },
  };
}
