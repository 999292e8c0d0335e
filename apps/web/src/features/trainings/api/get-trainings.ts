import type { trainingsResponseSchema } from '@mise/shared/trainings/schemas';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../shared/api/api-client';
import { sourceQuery, type TrainingSourceQuery, trainingsQueryKeys } from './training-query-keys';

export type TrainingsResponse = z.infer<typeof trainingsResponseSchema>;

type TrainingListFilter = { search: string; isInactiveIncluded: boolean };

/**
 * GET /api/trainings?database_id=&store_id=&search=&include_inactive= (spec 002 §6): admins
 * get the global trainings, distributors their distributor's (or a chosen database's), managers
 * a chosen database's, customers a chosen store's; each with can_edit, and can_create.
 */
export function getTrainings(
  source: TrainingSourceQuery,
  filter: TrainingListFilter,
  signal?: AbortSignal,
): Promise<TrainingsResponse> {
  return apiRequest<TrainingsResponse>('/trainings', {
    query: {
      ...sourceQuery(source),
      search: filter.search.trim() || undefined,
      include_inactive: filter.isInactiveIncluded ? 'true' : 'false',
    },
    signal,
  });
}

export function trainingsQueryOptions(source: TrainingSourceQuery, filter: TrainingListFilter) {
  return queryOptions({
    queryKey: trainingsQueryKeys.list(source, filter.search.trim(), filter.isInactiveIncluded),
    queryFn: ({ signal }) => getTrainings(source, filter, signal),
    placeholderData: keepPreviousData,
  });
}

/** Off until the list knows its source (a manager's database, a customer's store). */
export function useTrainings(
  source: TrainingSourceQuery,
  filter: TrainingListFilter,
  isEnabled: boolean,
) {
  return useQuery({ ...trainingsQueryOptions(source, filter), enabled: isEnabled });
}
