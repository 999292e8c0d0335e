import type { TrainingCategory } from '@mise/shared/trainings/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { sourceQuery, type TrainingSourceQuery, trainingsQueryKeys } from './training-query-keys';

/**
 * GET /api/training-categories?database_id=&store_id= (spec 002 §7): the global categories and
 * those of the source's database, distributor (and store).
 */
export async function getTrainingCategories(
  source: TrainingSourceQuery,
  signal?: AbortSignal,
): Promise<TrainingCategory[]> {
  const { items } = await apiRequest<{ items: TrainingCategory[] }>('/training-categories', {
    query: sourceQuery(source),
    signal,
  });
  return items;
}

export function trainingCategoriesQueryOptions(source: TrainingSourceQuery) {
  return queryOptions({
    queryKey: trainingsQueryKeys.categories(source),
    queryFn: ({ signal }) => getTrainingCategories(source, signal),
  });
}

export function useTrainingCategories(source: TrainingSourceQuery) {
  return useQuery(trainingCategoriesQueryOptions(source));
}
