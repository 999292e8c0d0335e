import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { goHome, navigate } from '../../app/navigation';
import { useOutbox } from '../../shared/outbox/use-outbox';
import { formatDate } from '../../shared/ui/format';
import { waitingSteps } from './communication-results';
import { type DeviceCommunication, refusalText } from './communications-api';
import { useCommunications } from './use-communications';
import './communications.css';

function CommunicationCard({
  communication,
  isWaiting,
}: {
  communication: DeviceCommunication;
  isWaiting: boolean;
}) {
  const { t } = useTranslation();
  const isCompleted = communication.completed_at !== null;
  const className = [
    'communications__card',
    communication.unread ? 'communications__card--unread' : '',
    isCompleted ? 'communications__card--completed' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <li>
      <button
        type="button"
        className={className}
        onClick={() => navigate({ name: 'communication', communicationId: communication.id })}
      >
        <span className="communications__name">{communication.name}</span>
        <span className="muted">
          {t('communications.dates', {
            start: formatDate(communication.start),
            end: formatDate(communication.end),
          })}
        </span>
        <span className="row communications__states">
          {communication.unread ? (
            <span className="badge communications__unread">{t('communications.unread')}</span>
          ) : null}
          {isCompleted ? (
            <span className="badge status--done">{t('communications.completed')}</span>
          ) : null}
          {!isCompleted && communication.skipped_count > 0 ? (
            <span className="muted">
              {t('communications.skipped', { count: communication.skipped_count })}
            </span>
          ) : null}
          {isWaiting ? (
            <span className="badge status--waiting">{t('communications.waiting')}</span>
          ) : null}
        </span>
      </button>
    </li>
  );
}

/**
 * Communications (issue 18): what is aimed at the identified employee (their store, its tags,
 * their role) and running, not completed first, then the newest first; the steps still in the
 * outbox already show (read, put off, completed).
 */
export function CommunicationsScreen() {
  const { t } = useTranslation();
  const { list, items } = useCommunications();
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
  else if (items.length === 0) content = <p className="muted">{t('communications.empty')}</p>;
  else
    content = (
      <ul className="communications__list">
        {items.map((communication) => (
          <CommunicationCard
            key={communication.id}
            communication={communication}
            isWaiting={waitingSteps(waiting, communication.id).length > 0}
          />
        ))}
      </ul>
    );

  return (
    <section className="stack communications" aria-labelledby="communications-title">
      <div className="screen-header">
        <button type="button" className="button button--ghost" onClick={goHome}>
          {t('common.back')}
        </button>
        <h1 id="communications-title">{t('communications.title')}</h1>
      </div>
      {content}
    </section>
  );
}
