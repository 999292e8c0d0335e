import { useTranslation } from 'react-i18next';
import { useStepList } from '../../shared/learning/step-list';
import { communicationSteps } from './communication-results';
import { communicationList } from './communications-api';

/** The identified employee's communications, with the steps still waiting applied. */
export function useCommunications() {
  const { list, items } = useStepList(communicationList, communicationSteps);
  return {
    list,
    items,
    unreadCount: items?.filter((item) => item.unread).length ?? 0,
  };
}

/** The menu entry's count of unread communications (nothing when none). */
export function UnreadCommunicationsBadge() {
  const { t } = useTranslation();
  const { unreadCount } = useCommunications();
  if (unreadCount === 0) return null;
  return (
    <>
      <span className="badge" aria-hidden="true">
        {unreadCount}
      </span>
      <span className="visually-hidden">
        {t('communications.unreadCount', { count: unreadCount })}
      </span>
    </>
  );
}
