import { useTranslation } from 'react-i18next';
import { navigate } from '../../app/navigation';
import { StepCard, StepListScreen } from '../../shared/learning/step-list';
import { formatDate } from '../../shared/ui/format';
import { communicationSteps } from './communication-results';
import type { DeviceCommunication } from './communications-api';
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
  return (
    <StepCard
      item={communication}
      texts="communications"
      isWaiting={isWaiting}
      onOpen={() => navigate({ name: 'communication', communicationId: communication.id })}
      details={
        <span className="muted">
          {t('communications.dates', {
            start: formatDate(communication.start),
            end: formatDate(communication.end),
          })}
        </span>
      }
    />
  );
}

/**
 * Communications (issue 18): what is aimed at the identified employee (their store, its tags,
 * their role) and running, not completed first, then the newest first; the steps still in the
 * outbox already show (read, put off, completed).
 */
export function CommunicationsScreen() {
  const { list, items } = useCommunications();
  return (
    <StepListScreen
      texts="communications"
      list={list}
      items={items}
      steps={communicationSteps}
      card={(communication, isWaiting) => (
        <CommunicationCard
          key={communication.id}
          communication={communication}
          isWaiting={isWaiting}
        />
      )}
    />
  );
}
