import type { StoreSummary } from '@mise/shared/organisation/schemas';
import type { TrainingType } from '@mise/shared/trainings/rules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { storeTagsQueryOptions } from '../../store-tags/api/get-store-tags';
import { trainingsQueryKeys } from './training-query-keys';

/** The most stores the distributor list reads (the API's page limit). */
const distributorStoresLimit = 500;

/** GET /api/stores?distributorId=: the active stores of a distributor, by name. */
export async function getDistributorStores(
  distributorId: string,
  signal?: AbortSignal,
): Promise<StoreSummary[]> {
  const { items } = await apiRequest<{ items: StoreSummary[] }>('/stores', {
    query: { distributorId, includeInactive: 'false', limit: distributorStoresLimit },
    signal,
  });
  return items;
}

export function distributorStoresQueryOptions(distributorId: string) {
  return queryOptions({
    queryKey: trainingsQueryKeys.distributorStores(distributorId),
    queryFn: ({ signal }) => getDistributorStores(distributorId, signal),
  });
}

export type TargetStoresAndTags = {
  stores: readonly { id: string; name: string; city: string | null }[];
  /** Null when store groups are not offered (a distributor's trainings: tags are a database's). */
  tags: readonly { id: string; name: string; active: boolean }[] | null;
};

/**
 * What a training may aim at (spec 002 §6): a database training the chosen database's stores
 * and store groups (GET /api/databases/:id/storeTags, one cache with the database screen); a
 * distributor training all its stores. Read when `isEnabled` (the target dialog is open).
 */
export function useTargetStoresAndTags(
  owner: { type: TrainingType; source: string | null },
  isEnabled: boolean,
) {
  const source = owner.source ?? '';
  const databaseOptions = useQuery({
    ...storeTagsQueryOptions(source),
    enabled: isEnabled && owner.type === 'database' && Boolean(source),
  });
  const distributorOptions = useQuery({
    ...distributorStoresQueryOptions(source),
    enabled: isEnabled && owner.type === 'distributor' && Boolean(source),
  });
  if (owner.type === 'database') {
    const data: TargetStoresAndTags | undefined = databaseOptions.data && {
      stores: databaseOptions.data.stores,
      tags: databaseOptions.data.items,
    };
    return { data, isPending: databaseOptions.isPending, error: databaseOptions.error };
  }
  const data: TargetStoresAndTags | undefined = distributorOptions.data && {
    stores: distributorOptions.data,
    tags: null,
  };
  return { data, isPending: distributorOptions.isPending, error: distributorOptions.error };
}
