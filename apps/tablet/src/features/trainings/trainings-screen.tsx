import { useTranslation } from 'react-i18next';
import { navigate } from '../../app/navigation';
import { StepCard, StepListScreen } from '../../shared/learning/step-list';
import { isRequiredToDo, trainingSteps } from './training-results';
import type { DeviceTraining } from './trainings-api';
import { useTrainings } from './use-trainings';
import './trainings.css';

function TrainingCard({ training, isWaiting }: { training: DeviceTraining; isWaiting: boolean }) {
  const { t } = useTranslation();
  return (
    <StepCard
      item={training}
      texts="trainings"
      isWaiting={isWaiting}
      onOpen={() => navigate({ name: 'training', trainingId: training.id })}
      lang={training.lang}
      isRequired={isRequiredToDo(training)}
      details={
        <>
          {training.category ? (
            <span className="muted trainings__category">{training.category}</span>
          ) : null}
          <span className="muted">
            {t('trainings.sectionCount', { count: training.sections.length })}
          </span>
        </>
      }
      badges={
        training.required ? (
          <span className="badge trainings__required">{t('trainings.required')}</span>
        ) : null
      }
    />
  );
}

/**
 * Trainings (issue 18): what is aimed at the identified employee (their store, its tags, their
 * role), required ones not done first, then the others not done, then the done ones (the newest
 * first inside each); the steps still in the outbox already show (read, put off, completed).
 */
export function TrainingsScreen() {
  const { list, items } = useTrainings();
  return (
    <StepListScreen
      texts="trainings"
      list={list}
      items={items}
      steps={trainingSteps}
      card={(training, isWaiting) => (
        <TrainingCard key={training.id} training={training} isWaiting={isWaiting} />
      )}
    />
  );
}
