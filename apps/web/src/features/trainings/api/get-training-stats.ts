import type { TrainingStats } from '@mise/shared/trainings/schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { trainingsQueryKeys } from './training-query-keys';

/**
 * GET /api/trainings/:id/stats: employees trained, views today, median time spent, the share
 * of the aimed employees who completed it and the completions per day (last 10 days + today).
 */
export function getTrainingStats(trainingId: string, signal?: AbortSignal): Promise<TrainingStats> {
  return apiRequest<TrainingStats>(`/trainings/${encodeURIComponent(trainingId)}/stats`, {
    signal,
  });
}

export function trainingStatsQueryOptions(trainingId: string) {
  return queryOptions({
    queryKey: trainingsQueryKeys.stats(trainingId),
    queryFn: ({ signal }) => getTrainingStats(trainingId, signal),
  });
}

export function useTrainingStats(trainingId: string | null) {
  return useQuery({
    ...trainingStatsQueryOptions(trainingId ?? ''),
    enabled: Boolean(trainingId),
  });
}
