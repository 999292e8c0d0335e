import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { onRecordSent } from '../../shared/outbox/outbox';
import { useOutbox } from '../../shared/outbox/use-outbox';
import { useEmployeeSession } from '../../shared/session/employee-session';
import { applySentStep, listWithWaitingSteps } from './communication-results';
import { communicationsKey, fetchDeviceCommunications } from './communications-api';

/**
 * The identified employee's communications as the screens show them: the server's list (or
 * the kept one offline) with the steps still waiting in the outbox applied. The server's
 * answers to sent steps are taken into the list while it is used.
 */
export function useCommunications() {
  const queryClient = useQueryClient();
  const session = useEmployeeSession();
  const { waiting } = useOutbox();
  const employeeId = session?.employee.id ?? '';
  const token = session?.token ?? '';
  const list = useQuery({
    queryKey: communicationsKey(employeeId),
    queryFn: () => fetchDeviceCommunications(employeeId, token),
    enabled: session !== null,
    networkMode: 'always',
    retry: false,
  });
  useEffect(() => {
    const stopListening = onRecordSent((record, answer) =>
      applySentStep(queryClient, record, answer),
    );
    return () => {
      stopListening();
    };
  }, [queryClient]);
  const items = list.data ? listWithWaitingSteps(list.data.items, waiting) : undefined;
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
