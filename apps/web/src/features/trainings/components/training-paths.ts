import type { TrainingType } from '@mise/shared/trainings/rules';

/*
 * Where the training screens are (flat routes, spec 002 §2): the selection travels in the
 * query, as for communications.
 */

/** A list's source: the database (managers, distributors) or the store (customers) chosen. */
export type TrainingListSource = { databaseId: string | null; storeId: string | null };

function sourceParams(source: TrainingListSource, init: Record<string, string> = {}) {
  const params = new URLSearchParams(init);
  if (source.databaseId) params.set('database', source.databaseId);
  if (source.storeId) params.set('store', source.storeId);
  return params;
}

/** The list, on a source (none: an admin's global trainings, a distributor's own). */
export function trainingsPath(source: TrainingListSource): string {
  const query = sourceParams(source).toString();
  return query ? `/trainings?${query}` : '/trainings';
}

/**
 * The list source a training's owner is read from (the server's rule for lists and categories):
 * a database training's database, a store training's store, nothing else.
 */
export function listSourceOf(owner: { type: TrainingType; source: string | null }) {
  return {
    databaseId: owner.type === 'database' ? owner.source : null,
    storeId: owner.type === 'store' ? owner.source : null,
  } satisfies TrainingListSource;
}

/** The list a training belongs to. */
export function trainingsPathOf(owner: { type: TrainingType; source: string | null }): string {
  return trainingsPath(listSourceOf(owner));
}

/** The editor of a training. */
export function trainingPath(trainingId: string): string {
  return `/training?id=${encodeURIComponent(trainingId)}`;
}

/** The editor of a new training made from the list's source (created on its first save). */
export function newTrainingPath(source: TrainingListSource): string {
  return `/training?${sourceParams(source, { new: '1' }).toString()}`;
}

/** The statistics of a training. */
export function trainingStatsPath(trainingId: string): string {
  return `/trainingStats?id=${encodeURIComponent(trainingId)}`;
}
