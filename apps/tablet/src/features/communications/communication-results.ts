import { createStepResults } from '../../shared/learning/step-results';
import type { QuizAnswers } from './communication-quiz';
import { communicationList, type DeviceCommunication, resultPath } from './communications-api';

/** The server's order: not completed first, then the newest start first. */
export function sortCommunications(items: readonly DeviceCommunication[]): DeviceCommunication[] {
  return items
    .map((item, index) => ({ item, index }))
    .sort(
      (a, b) =>
        Number(a.item.completed_at !== null) - Number(b.item.completed_at !== null) ||
        Date.parse(b.item.start) - Date.parse(a.item.start) ||
        a.index - b.index,
    )
    .map(({ item }) => item);
}

/**
 * An employee's steps through a communication (issue 18), each one outbox record
 * ('communication-result'), shown in the lists while they wait (shared/learning/step-results).
 */
export const communicationSteps = createStepResults<DeviceCommunication, QuizAnswers>({
  kind: 'communication-result',
  resultPath,
  answerField: 'communication',
  texts: 'communications',
  list: communicationList,
  sort: sortCommunications,
});
