import type { TrainingCategory } from '@mise/shared/trainings/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { type TrainingSourceQuery, trainingsQueryKeys } from './training-query-keys';

/**
 * POST /api/training-categories { name, database_id?, store_id? }: a category made on demand
 * (spec 002 §7), owned like a training made from the same selection; the same name answers the
 * existing one.
 */
export async function createTrainingCategory(request: {
  source: TrainingSourceQuery;
  name: string;
}): Promise<TrainingCategory> {
  const { category } = await apiRequest<{ category: TrainingCategory }>('/training-categories', {
    method: 'POST',
    body: {
      name: request.name.trim(),
      database_id: request.source.databaseId ?? undefined,
      store_id: request.source.storeId ?? undefined,
    },
  });
  return category;
}

/** The new category joins the source's list. */
export function useCreateTrainingCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTrainingCategory,
    onSuccess: (_category, request) =>
      queryClient.invalidateQueries({ queryKey: trainingsQueryKeys.categories(request.source) }),
  });
}
