import { createStepResults } from '../../shared/learning/step-results';
import type { QuizAnswers } from '../communications/communication-quiz';
import { type DeviceTraining, trainingList, trainingResultPath } from './trainings-api';

/** A required training the employee has not completed: shown first, and asked at identification. */
export const isRequiredToDo = (item: DeviceTraining) => item.required && item.completed_at === null;

/**
 * The server's order: required ones not done, then the others not done, then the done ones;
 * inside each, the server's own order (the newest first) is kept.
 */
export function sortTrainings(items: readonly DeviceTraining[]): DeviceTraining[] {
  const rank = (item: DeviceTraining) => (item.completed_at ? 2 : item.required ? 0 : 1);
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => rank(a.item) - rank(b.item) || a.index - b.index)
    .map(({ item }) => item);
}

/**
 * An employee's steps through a training (issue 18), each one outbox record ('training-result')
 * as a communication's, shown in the lists while they wait (shared/learning/step-results). A
 * completion carries every section's answers, by section id.
 */
export const trainingSteps = createStepResults<DeviceTraining, Record<string, QuizAnswers>>({
  kind: 'training-result',
  resultPath: trainingResultPath,
  answerField: 'training',
  texts: 'trainings',
  list: trainingList,
  sort: sortTrainings,
});
