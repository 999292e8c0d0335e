import { useQuery } from '@tanstack/react-query';
import { storeQueryOptions } from '../../stores/api/get-store';

/**
 * The database of a store (GET /api/stores/:id, the store screen's call and cache): the home
 * panel asks a database's communications for the chosen store.
 */
export function useStoreDatabase(storeId: string | null) {
  return useQuery({
    ...storeQueryOptions(storeId ?? ''),
    enabled: Boolean(storeId),
    select: (store) => ({ databaseId: store.database, timeZone: store.timezone_name }),
  });
}
