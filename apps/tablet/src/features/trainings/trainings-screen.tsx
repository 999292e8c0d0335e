import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { goHome, navigate } from '../../app/navigation';
import { useOutbox } from '../../shared/outbox/use-outbox';
import { refusalText } from '../communications/communications-api';
import { waitingTrainingSteps } from './training-results';
import type { DeviceTraining } from './trainings-api';
import { useTrainings } from './use-trainings';
import './trainings.css';

function TrainingCard({ training, isWaiting }: { training: DeviceTraining; isWaiting: boolean }) {
  const { t } = useTranslation();
  const isCompleted = training.completed_at !== null;
  const className = [
    'trainings__card',
    training.required && !isCompleted ? 'trainings__card--required' : '',
    training.unread ? 'trainings__card--unread' : '',
    isCompleted ? 'trainings__card--completed' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <li>
      <button
        type="button"
        className={className}
        onClick={() => navigate({ name: 'training', trainingId: training.id })}
      >
        <span className="trainings__name" lang={training.lang}>
          {training.name}
        </span>
        {training.category ? (
          <span className="muted trainings__category">{training.category}</span>
        ) : null}
        <span className="muted">
          {t('trainings.sectionCount', { count: training.sections.length })}
        </span>
        <span className="row trainings__states">
          {training.required ? (
            <span className="badge trainings__required">{t('trainings.required')}</span>
          ) : null}
          {training.unread ? (
            <span className="badge trainings__unread">{t('trainings.unread')}</span>
          ) : null}
          {isCompleted ? (
            <span className="badge status--done">{t('trainings.completed')}</span>
          ) : null}
          {!isCompleted && training.skipped_count > 0 ? (
            <span className="muted">
              {t('trainings.skipped', { count: training.skipped_count })}
            </span>
          ) : null}
          {isWaiting ? (
            <span className="badge status--waiting">{t('trainings.waiting')}</span>
          ) : null}
        </span>
      </button>
    </li>
  );
}

/**
 * Trainings (issue 18): what is aimed at the identified employee (their store, its tags, their
 * role), required ones not done first, then the others not done, then the done ones (the newest
 * first inside each); the steps still in the outbox already show (read, put off, completed).
 */
export function TrainingsScreen() {
  const { t } = useTranslation();
  const { list, items } = useTrainings();
  const { waiting } = useOutbox();

  let content: ReactNode;
  if (!items)
    content = list.isError ? (
      <p className="error-text" role="alert">
        {refusalText(list.error)}
      </p>
    ) : (
      <p className="muted">{t('common.loading')}</p>
    );
  else if (items.length === 0) content = <p className="muted">{t('trainings.empty')}</p>;
  else
    content = (
      <ul className="trainings__list">
        {items.map((training) => (
          <TrainingCard
            key={training.id}
            training={training}
            isWaiting={waitingTrainingSteps(waiting, training.id).length > 0}
          />
        ))}
      </ul>
    );

  return (
    <section className="stack trainings" aria-labelledby="trainings-title">
      <div className="screen-header">
        <button type="button" className="button button--ghost" onClick={goHome}>
          {t('common.back')}
        </button>
        <h1 id="trainings-title">{t('trainings.title')}</h1>
      </div>
      {content}
    </section>
  );
}
