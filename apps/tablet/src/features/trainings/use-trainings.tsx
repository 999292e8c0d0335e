import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { onRecordSent } from '../../shared/outbox/outbox';
import { useOutbox } from '../../shared/outbox/use-outbox';
import { useEmployeeSession } from '../../shared/session/employee-session';
import { applySentStep, isRequiredToDo, listWithWaitingSteps } from './training-results';
import { fetchDeviceTrainings, trainingsKey } from './trainings-api';

/**
 * The identified employee's trainings as the screens show them: the server's list (or the kept
 * one offline) with the steps still waiting in the outbox applied. The server's answers to sent
 * steps are taken into the list while it is used.
 */
export function useTrainings() {
  const queryClient = useQueryClient();
  const session = useEmployeeSession();
  const { waiting } = useOutbox();
  const employeeId = session?.employee.id ?? '';
  const token = session?.token ?? '';
  const list = useQuery({
    queryKey: trainingsKey(employeeId),
    queryFn: () => fetchDeviceTrainings(employeeId, token),
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
