import type { homeTrainingsResponseSchema } from '@mise/shared/trainings/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../shared/api/api-client';
import { storeQueryOptions } from '../../stores/api/get-store';
import { trainingsQueryKeys } from './training-query-keys';

export type HomeTrainings = z.infer<typeof homeTrainingsResponseSchema>;
export type HomeTraining = HomeTrainings['items'][number];

/**
 * GET /api/trainings/home?database_id=&store_id=: the active trainings that reach a database's
 * stores (global, its distributor's, its own, the store's), with the share of the employees
 * aimed at (of the store, when given) who completed them.
 */
export function getHomeTrainings(
  databaseId: string,
  storeId: string | null,
  signal?: AbortSignal,
): Promise<HomeTrainings> {
  return apiRequest<HomeTrainings>('/trainings/home', {
    query: { database_id: databaseId, store_id: storeId ?? undefined },
    signal,
  });
}

export function homeTrainingsQueryOptions(databaseId: string, storeId: string | null) {
  return queryOptions({
    queryKey: trainingsQueryKeys.home(databaseId, storeId),
    queryFn: ({ signal }) => getHomeTrainings(databaseId, storeId, signal),
  });
}

/**
 * The home's trainings of a chosen database, or of a chosen store (its database read first
 * through GET /api/stores/:id, the store screen's call and cache).
 */
export function useHomeTrainings(selection: { databaseId: string | null; storeId: string | null }) {
  const store = useQuery({
    ...storeQueryOptions(selection.storeId ?? ''),
    enabled: Boolean(selection.storeId),
  });
  const databaseId = selection.storeId ? (store.data?.database ?? null) : selection.databaseId;
  const trainings = useQuery({
    ...homeTrainingsQueryOptions(databaseId ?? '', selection.storeId),
    enabled: Boolean(databaseId),
  });
  return { store, databaseId, trainings };
}
