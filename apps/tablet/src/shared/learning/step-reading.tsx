import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate } from '../../app/navigation';
import { errorText } from '../i18n/i18n';
import type { OutboxRecord } from '../outbox/outbox-types';
import { useOutbox } from '../outbox/use-outbox';
import { useEmployeeSession } from '../session/employee-session';
import { refusalText } from './device-list';
import { type StepItem, type StepResults, stepAction } from './step-results';
import { useReadingTime } from './use-reading-time';

/*
 * What reading a communication and following a training share (issue 18): the time spent, the
 * steps that end the reading, the reader's actions and its notices. `texts` names the locale
 * section of the texts: notFound, later, backToList, refused, seeOutbox, doneTitle, willBeSent,
 * doneText.
 */

type Texts = 'communications' | 'trainings';
type StepListQuery = { isPending: boolean; isError: boolean; error: unknown };

type StepReadingOptions<Item extends StepItem, Answers> = {
  /** The item read, once the list has it. */
  item: Item | undefined;
  itemId: string;
  steps: StepResults<Item, Answers>;
  /** Where "Later" leads. */
  backToList: () => void;
};

/**
 * The steps of one reading. The time spent counts while the screen is open, shown and in the
 * foreground; it goes with the step that ends the reading (`send`: skip, complete), or as a
 * 'view' when the employee leaves otherwise (an unread item is marked read then, even at once).
 * Every step goes through the outbox, as the employee who opened the screen.
 */
export function useStepReading<Item extends StepItem, Answers>({
  item,
  itemId,
  steps,
  backToList,
}: StepReadingOptions<Item, Answers>) {
  const queryClient = useQueryClient();
  const session = useEmployeeSession();
  const { waiting, refused } = useOutbox();
  const [isDone, setIsDone] = useState(false);
  const [isSending, setIsSending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const time = useReadingTime(item !== undefined && !isDone);

  // The employee who opened the screen: a step made on leaving is theirs.
  const sessionRef = useRef(session);
  if (session) sessionRef.current = session;
  const itemRef = useRef<Item | undefined>(item);
  if (item) itemRef.current = item;
  /** Whether it was unread when opened (leaving at once still marks it read). */
  const wasUnread = useRef<boolean | null>(null);
  /** A step ending the reading was queued: nothing more goes on leaving. */
  const isClosed = useRef(false);

  useEffect(() => {
    if (!item || wasUnread.current !== null) return;
    wasUnread.current = item.unread;
    const who = sessionRef.current;
    if (item.unread && who) steps.markReadHere(queryClient, who.employee.id, item.id);
  }, [item, queryClient, steps]);

  // Leaving (back, the menu, the session's end): the time spent goes as a 'view'. Checked a
  // moment later, so a remount at once (React's strict mode) sends nothing.
  const leave = useRef<() => void>(() => {});
  leave.current = () => {
    const opened = itemRef.current;
    const who = sessionRef.current;
    if (isClosed.current || !opened || !who) return;
    const seconds = time.take();
    if (seconds === 0 && !wasUnread.current) return;
    isClosed.current = true;
    void steps.queueStep(opened, { action: 'view', time_spent: seconds }, who);
  };
  const isMounted = useRef(false);
  useEffect(() => {
    isMounted.current = true;
    return () => {
      isMounted.current = false;
      setTimeout(() => {
        if (!isMounted.current) leave.current();
      }, 0);
    };
  }, []);

  /** Puts the item off (then back to the list) or completes it (with its answers, if any). */
  const send = async (action: 'skip' | 'complete', answers?: Answers) => {
    const who = sessionRef.current;
    if (isClosed.current || !item || !who) return;
    isClosed.current = true;
    setIsSending(true);
    setProblem(null);
    try {
      await steps.queueStep(
        item,
        { action, time_spent: time.take(), ...(answers === undefined ? {} : { answers }) },
        who,
      );
      if (action === 'skip') backToList();
      else setIsDone(true);
    } catch (error) {
      isClosed.current = false;
      setProblem(refusalText(error));
    } finally {
      setIsSending(false);
    }
  };

  return {
    send,
    isDone,
    isSending,
    /** The failure to queue the last step, as a text. */
    problem,
    /** The item's last refused step, if any. */
    refusal: steps.refusedStep(refused, itemId),
    /** Whether its completion still waits in the outbox. */
    isCompletionWaiting: steps
      .waitingSteps(waiting, itemId)
      .some((record) => stepAction(record) === 'complete'),
  };
}

/** A refused step: the server's reason and the way to the outbox. */
export function RefusalNotice({ record, texts }: { record: OutboxRecord; texts: Texts }) {
  const { t } = useTranslation();
  return (
    <div className="row">
      <p className="error-text" role="alert">
        {t(`${texts}.refused`, {
          reason: errorText(record.refusal?.code ?? 'unknown', record.refusal?.message),
        })}
      </p>
      <button type="button" className="button" onClick={() => navigate({ name: 'outbox' })}>
        {t(`${texts}.seeOutbox`)}
      </button>
    </div>
  );
}

type DoneViewProps = {
  texts: Texts;
  isWaiting: boolean;
  refusal?: OutboxRecord;
  onBack: () => void;
};

/** After the completion: sent, or kept here until the connection returns. */
export function DoneView({ texts, isWaiting, refusal, onBack }: DoneViewProps) {
  const { t } = useTranslation();
  return (
    <div className="card stack learning-done">
      <h2>{t(`${texts}.doneTitle`)}</h2>
      {refusal && !isWaiting ? (
        <RefusalNotice record={refusal} texts={texts} />
      ) : (
        <p role="status">{isWaiting ? t(`${texts}.willBeSent`) : t(`${texts}.doneText`)}</p>
      )}
      <button type="button" className="button button--primary button--large" onClick={onBack}>
        {t(`${texts}.backToList`)}
      </button>
    </div>
  );
}

/** The item is not shown: the list is loading, failed to load, or does not have it. */
export function ItemMissing({ texts, list }: { texts: Texts; list: StepListQuery }) {
  const { t } = useTranslation();
  if (list.isPending) return <p className="muted">{t('common.loading')}</p>;
  return (
    <p className="error-text" role="alert">
      {list.isError ? refusalText(list.error) : t(`${texts}.notFound`)}
    </p>
  );
}

type ReadingActionsProps = {
  texts: Texts;
  className: string;
  isCompleted: boolean;
  isSending: boolean;
  onSkip: () => void;
  onBack: () => void;
  /** The way to complete (a quiz, "Mark as read", "Finish" or why not yet). */
  children: ReactNode;
};

/** The reader's last row: back to the list once completed, else "Later" and the way to complete. */
export function ReadingActions({
  texts,
  className,
  isCompleted,
  isSending,
  onSkip,
  onBack,
  children,
}: ReadingActionsProps) {
  const { t } = useTranslation();
  return (
    <div className={className}>
      {isCompleted ? (
        <button type="button" className="button button--large" onClick={onBack}>
          {t(`${texts}.backToList`)}
        </button>
      ) : (
        <>
          <button
            type="button"
            className="button button--large"
            disabled={isSending}
            onClick={onSkip}
          >
            {t(`${texts}.later`)}
          </button>
          {children}
        </>
      )}
    </div>
  );
}
