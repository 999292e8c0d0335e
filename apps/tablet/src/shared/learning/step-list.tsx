import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { goHome } from '../../app/navigation';
import { onRecordSent } from '../outbox/outbox';
import { useOutbox } from '../outbox/use-outbox';
import { useEmployeeSession } from '../session/employee-session';
import { type DeviceList, refusalText } from './device-list';
import type { StepItem, StepResults } from './step-results';
import './learning.css';

/*
 * What the lists of communications and trainings share (issue 18): the employee's list with the
 * steps still waiting applied, the list screen and its cards. `texts` names the locale section
 * of the texts: title, empty, unread, completed, skipped, waiting.
 */

type Texts = 'communications' | 'trainings';

/**
 * The identified employee's items as the screens show them: the server's list (or the kept one
 * offline) with the steps still waiting in the outbox applied. The server's answers to sent
 * steps are taken into the list while it is used.
 */
export function useStepList<Item extends StepItem, Answers>(
  deviceList: DeviceList<Item>,
  steps: StepResults<Item, Answers>,
) {
  const queryClient = useQueryClient();
  const session = useEmployeeSession();
  const { waiting } = useOutbox();
  const employeeId = session?.employee.id ?? '';
  const token = session?.token ?? '';
  const list = useQuery({
    queryKey: deviceList.key(employeeId),
    queryFn: () => deviceList.fetch(employeeId, token),
    enabled: session !== null,
    networkMode: 'always',
    retry: false,
  });
  useEffect(() => {
    const stopListening = onRecordSent((record, answer) =>
      steps.applySentStep(queryClient, record, answer),
    );
    return () => {
      stopListening();
    };
  }, [queryClient, steps]);
  const items = list.data ? steps.listWithWaitingSteps(list.data.items, waiting) : undefined;
  return { list, items };
}

type StepCardProps = {
  item: StepItem;
  texts: Texts;
  isWaiting: boolean;
  onOpen: () => void;
  /** The name's language, when the item has one. */
  lang?: string;
  /** A required training not done: its edge shows it. */
  isRequired?: boolean;
  /** What goes under the name (the dates, the category and sections). */
  details: ReactNode;
  /** Badges shown before the item's states. */
  badges?: ReactNode;
};

/** A card of the list: name, details, then unread, completed, put off and waiting to send. */
export function StepCard({
  item,
  texts,
  isWaiting,
  onOpen,
  lang,
  isRequired = false,
  details,
  badges,
}: StepCardProps) {
  const { t } = useTranslation();
  const isCompleted = item.completed_at !== null;
  const className = [
    'learning-card',
    isRequired ? 'learning-card--required' : '',
    item.unread ? 'learning-card--unread' : '',
    isCompleted ? 'learning-card--completed' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <li>
      <button type="button" className={className} onClick={onOpen}>
        <span className="learning-card__name" lang={lang}>
          {item.name}
        </span>
        {details}
        <span className="row learning-card__states">
          {badges}
          {item.unread ? (
            <span className="badge learning-card__unread">{t(`${texts}.unread`)}</span>
          ) : null}
          {isCompleted ? (
            <span className="badge status--done">{t(`${texts}.completed`)}</span>
          ) : null}
          {!isCompleted && item.skipped_count > 0 ? (
            <span className="muted">{t(`${texts}.skipped`, { count: item.skipped_count })}</span>
          ) : null}
          {isWaiting ? (
            <span className="badge status--waiting">{t(`${texts}.waiting`)}</span>
          ) : null}
        </span>
      </button>
    </li>
  );
}

type StepListScreenProps<Item extends StepItem, Answers> = {
  texts: Texts;
  list: { isError: boolean; error: unknown };
  items: Item[] | undefined;
  steps: StepResults<Item, Answers>;
  /** An item's card; `isWaiting` while a step of it waits in the outbox. */
  card: (item: Item, isWaiting: boolean) => ReactNode;
};

/** The list screen: back, the title, then the cards (or loading, the failure, nothing to do). */
export function StepListScreen<Item extends StepItem, Answers>({
  texts,
  list,
  items,
  steps,
  card,
}: StepListScreenProps<Item, Answers>) {
  const { t } = useTranslation();
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
  else if (items.length === 0) content = <p className="muted">{t(`${texts}.empty`)}</p>;
  else
    content = (
      <ul className="learning-list">
        {items.map((item) => card(item, steps.waitingSteps(waiting, item.id).length > 0))}
      </ul>
    );

  return (
    <section className={`stack ${texts}`} aria-labelledby={`${texts}-title`}>
      <div className="screen-header">
        <button type="button" className="button button--ghost" onClick={goHome}>
          {t('common.back')}
        </button>
        <h1 id={`${texts}-title`}>{t(`${texts}.title`)}</h1>
      </div>
      {content}
    </section>
  );
}
