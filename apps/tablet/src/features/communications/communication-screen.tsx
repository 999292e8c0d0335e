import type { Quiz } from '@mise/shared/communications/schemas';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate } from '../../app/navigation';
import { errorText } from '../../shared/i18n/i18n';
import type { OutboxRecord } from '../../shared/outbox/outbox-types';
import { useOutbox } from '../../shared/outbox/use-outbox';
import { useEmployeeSession } from '../../shared/session/employee-session';
import { formatDate } from '../../shared/ui/format';
import { CommunicationAttachmentView } from './communication-attachment';
import { CommunicationQuiz, useQuizAnswers } from './communication-quiz';
import { markReadHere, queueResult, refusedStep, waitingSteps } from './communication-results';
import { type DeviceCommunication, refusalText } from './communications-api';
import { useCommunications } from './use-communications';
import { useReadingTime } from './use-reading-time';
import './communications.css';

const noQuiz: Quiz = { questions: [] };
const backToList = () => navigate({ name: 'communications' });

function RefusalNotice({ record }: { record: OutboxRecord }) {
  const { t } = useTranslation();
  return (
    <div className="row">
      <p className="error-text" role="alert">
        {t('communications.refused', {
          reason: errorText(record.refusal?.code ?? 'unknown', record.refusal?.message),
        })}
      </p>
      <button type="button" className="button" onClick={() => navigate({ name: 'outbox' })}>
        {t('communications.seeOutbox')}
      </button>
    </div>
  );
}

/** After the completion: sent, or kept here until the connection returns. */
function DoneView({ isWaiting, refusal }: { isWaiting: boolean; refusal?: OutboxRecord }) {
  const { t } = useTranslation();
  return (
    <div className="card stack communication-done">
      <h2>{t('communications.doneTitle')}</h2>
      {refusal && !isWaiting ? (
        <RefusalNotice record={refusal} />
      ) : (
        <p role="status">
          {isWaiting ? t('communications.willBeSent') : t('communications.doneText')}
        </p>
      )}
      <button type="button" className="button button--primary button--large" onClick={backToList}>
        {t('communications.backToList')}
      </button>
    </div>
  );
}

type Step = 'read' | 'quiz' | 'done';

/**
 * Reading a communication (issue 18): its attachment, then "Later" (put off, counted) or its
 * quiz, or "Mark as read" without one. The time spent counts while this screen is open, shown
 * and in the foreground; it goes with the step that ends the reading (skip, complete), or as a
 * 'view' when the employee leaves otherwise. Every step goes through the outbox.
 */
export function CommunicationScreen({ communicationId }: { communicationId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const session = useEmployeeSession();
  const { list, items } = useCommunications();
  const { waiting, refused } = useOutbox();
  const item = items?.find((candidate) => candidate.id === communicationId);
  const [step, setStep] = useState<Step>('read');
  const [isSending, setIsSending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const time = useReadingTime(item !== undefined && step !== 'done');
  const quiz = useQuizAnswers(item?.quiz ?? noQuiz);

  // The employee who opened the screen: a step made on leaving is theirs.
  const sessionRef = useRef(session);
  if (session) sessionRef.current = session;
  const itemRef = useRef<DeviceCommunication | undefined>(item);
  if (item) itemRef.current = item;
  /** Whether it was unread when opened (leaving at once still marks it read). */
  const wasUnread = useRef<boolean | null>(null);
  /** A step ending the reading was queued: nothing more goes on leaving. */
  const isClosed = useRef(false);

  useEffect(() => {
    if (!item || wasUnread.current !== null) return;
    wasUnread.current = item.unread;
    const who = sessionRef.current;
    if (item.unread && who) markReadHere(queryClient, who.employee.id, item.id);
  }, [item, queryClient]);

  // Leaving (back, the menu, the session's end): the time spent goes as a 'view'. Checked a
  // moment later, so a remount at once (React's strict mode) sends nothing.
  const leave = useRef<() => void>(() => {});
  leave.current = () => {
    const current = itemRef.current;
    const who = sessionRef.current;
    if (isClosed.current || !current || !who) return;
    const seconds = time.take();
    if (seconds === 0 && !wasUnread.current) return;
    isClosed.current = true;
    void queueResult(current, { action: 'view', time_spent: seconds }, who);
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

  const send = async (action: 'skip' | 'complete') => {
    const who = sessionRef.current;
    if (isClosed.current || !item || !who) return;
    isClosed.current = true;
    setIsSending(true);
    setProblem(null);
    const hasQuiz = item.quiz.questions.length > 0;
    try {
      await queueResult(
        item,
        {
          action,
          time_spent: time.take(),
          ...(action === 'complete' && hasQuiz ? { answers: quiz.answers() } : {}),
        },
        who,
      );
      if (action === 'skip') backToList();
      else setStep('done');
    } catch (error) {
      isClosed.current = false;
      setProblem(refusalText(error));
    } finally {
      setIsSending(false);
    }
  };

  const pending = waitingSteps(waiting, communicationId);
  const refusal = refusedStep(refused, communicationId);
  const isCompleted = item?.completed_at != null;
  const hasQuiz = (item?.quiz.questions.length ?? 0) > 0;

  let content: ReactNode;
  if (!item)
    content = list.isPending ? (
      <p className="muted">{t('common.loading')}</p>
    ) : (
      <p className="error-text" role="alert">
        {list.isError ? refusalText(list.error) : t('communications.notFound')}
      </p>
    );
  else if (step === 'done')
    content = (
      <DoneView
        isWaiting={pending.some(
          (record) => (record.body as { action?: string }).action === 'complete',
        )}
        refusal={refusal}
      />
    );
  else if (step === 'quiz')
    content = (
      <CommunicationQuiz
        quiz={item.quiz}
        state={quiz}
        isSending={isSending}
        onFinish={() => void send('complete')}
        onBack={() => setStep('read')}
      />
    );
  else
    content = (
      <>
        {refusal && !isCompleted ? <RefusalNotice record={refusal} /> : null}
        {item.attachment ? <CommunicationAttachmentView attachment={item.attachment} /> : null}
        {isCompleted ? (
          <p className="badge status--done communication-completed" role="status">
            {t('communications.completedOn', { date: formatDate(item.completed_at!) })}
          </p>
        ) : null}
        <div className="communication-actions">
          {isCompleted ? (
            <button type="button" className="button button--large" onClick={backToList}>
              {t('communications.backToList')}
            </button>
          ) : (
            <>
              <button
                type="button"
                className="button button--large"
                disabled={isSending}
                onClick={() => void send('skip')}
              >
                {t('communications.later')}
              </button>
              {hasQuiz ? (
                <button
                  type="button"
                  className="button button--primary button--large"
                  onClick={() => setStep('quiz')}
                >
                  {t('communications.answerQuiz')}
                </button>
              ) : (
                <button
                  type="button"
                  className="button button--primary button--large"
                  disabled={isSending}
                  onClick={() => void send('complete')}
                >
                  {t('communications.markRead')}
                </button>
              )}
            </>
          )}
        </div>
      </>
    );

  return (
    <section className="stack communication" aria-labelledby="communication-title">
      <div className="screen-header">
        <button type="button" className="button button--ghost" onClick={backToList}>
          {t('common.back')}
        </button>
        <div className="stack communication__heading">
          <h1 id="communication-title">{item?.name ?? t('communications.title')}</h1>
          {item ? (
            <span className="muted">
              {t('communications.dates', {
                start: formatDate(item.start),
                end: formatDate(item.end),
              })}
            </span>
          ) : null}
        </div>
      </div>
      {problem ? (
        <p className="error-text" role="alert">
          {problem}
        </p>
      ) : null}
      {content}
    </section>
  );
}
