import type { DeviceContext } from '../../shared/api/types';

/**
 * The Trainings entry (and the prompt at identification) shows unless the store or its database
 * hides the training extension (the context merges both), as the back-office leaves out the
 * databases that hide it. Before the context is known, it shows: the server decides then.
 */
export function isTrainingShown(context: DeviceContext | null): boolean {
  return !(context?.store.hidden_extensions.includes('training') ?? false);
}
