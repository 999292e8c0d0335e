import { useTranslation } from 'react-i18next';
import { useStepList } from '../../shared/learning/step-list';
import { isRequiredToDo, trainingSteps } from './training-results';
import { trainingList } from './trainings-api';

/** The identified employee's trainings, with the steps still waiting applied. */
export function useTrainings() {
  const { list, items } = useStepList(trainingList, trainingSteps);
  return {
    list,
    items,
    /** The menu's count: required ones not done, and unread ones. */
    toDoCount: items?.filter((item) => isRequiredToDo(item) || item.unread).length ?? 0,
  };
}

/** The menu entry's count of trainings to do (required not done, or unread; nothing when none). */
export function TrainingsToDoBadge() {
  const { t } = useTranslation();
  const { toDoCount } = useTrainings();
  if (toDoCount === 0) return null;
  return (
    <>
      <span className="badge" aria-hidden="true">
        {toDoCount}
      </span>
      <span className="visually-hidden">{t('trainings.toDoCount', { count: toDoCount })}</span>
    </>
  );
}
