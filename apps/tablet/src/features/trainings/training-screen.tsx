import { isQuizPassed } from '@mise/shared/communications/rules';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate } from '../../app/navigation';
import { errorText } from '../../shared/i18n/i18n';
import type { OutboxRecord } from '../../shared/outbox/outbox-types';
import { useOutbox } from '../../shared/outbox/use-outbox';
import { useEmployeeSession } from '../../shared/session/employee-session';
import { formatDate } from '../../shared/ui/format';
import { CommunicationAttachmentView } from '../communications/communication-attachment';
import {
  CommunicationQuiz,
  type QuizAnswers,
  type QuizState,
  quizAnswersOf,
  toggleChoice,
} from '../communications/communication-quiz';
import { refusalText } from '../communications/communications-api';
import { useReadingTime } from '../communications/use-reading-time';
import {
  markReadHere,
  queueTrainingStep,
  refusedTrainingStep,
  stepAction,
  waitingTrainingSteps,
} from './training-results';
import type { DeviceTraining } from './trainings-api';
import { useTrainings } from './use-trainings';
import './trainings.css';

type Section = DeviceTraining['sections'][number];
type SectionQuiz = { chosen: QuizAnswers; isChecked: boolean };

const untouched: SectionQuiz = { chosen: {}, isChecked: false };
const backToList = () => navigate({ name: 'trainings' });

/** Whether a section counts as right: its quiz checked right, or no question at all. */
function isSectionRight(section: Section, quiz: SectionQuiz): boolean {
  if (section.quiz.questions.length === 0) return true;
  return quiz.isChecked && isQuizPassed(section.quiz.questions, quiz.chosen);
}

function RefusalNotice({ record }: { record: OutboxRecord }) {
  const { t } = useTranslation();
  return (
    <div className="row">
      <p className="error-text" role="alert">
        {t('trainings.refused', {
          reason: errorText(record.refusal?.code ?? 'unknown', record.refusal?.message),
        })}
      </p>
      <button type="button" className="button" onClick={() => navigate({ name: 'outbox' })}>
        {t('trainings.seeOutbox')}
      </button>
    </div>
  );
}

/** After the completion: sent, or kept here until the connection returns. */
function DoneView({ isWaiting, refusal }: { isWaiting: boolean; refusal?: OutboxRecord }) {
  const { t } = useTranslation();
  return (
    <div className="card stack training-done">
      <h2>{t('trainings.doneTitle')}</h2>
      {refusal && !isWaiting ? (
        <RefusalNotice record={refusal} />
      ) : (
        <p role="status">{isWaiting ? t('trainings.willBeSent') : t('trainings.doneText')}</p>
      )}
      <button type="button" className="button button--primary button--large" onClick={backToList}>
        {t('trainings.backToList')}
      </button>
    </div>
  );
}

type SectionListProps = {
  sections: readonly Section[];
  current: number;
  hasTick: (section: Section) => boolean;
  onSelect: (index: number) => void;
};

/** The sections' titles, a tick on each done one; a tap opens it. */
function SectionList({ sections, current, hasTick, onSelect }: SectionListProps) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t('trainings.sections')}>
      <ol className="training-sections">
        {sections.map((section, index) => {
          const isDone = hasTick(section);
          return (
            <li key={section.id}>
              <button
                type="button"
                className={[
                  'training-sections__item',
                  index === current ? 'training-sections__item--current' : '',
                  isDone ? 'training-sections__item--done' : '',
                ]
                  .filter(Boolean)
                  .join(' ')}
                aria-current={index === current ? 'step' : undefined}
                onClick={() => onSelect(index)}
              >
                <span className="training-sections__mark" aria-hidden="true">
                  {isDone ? '✓' : index + 1}
                </span>
                <span className="training-sections__title">{section.title}</span>
                {isDone ? (
                  <span className="visually-hidden">{t('trainings.sectionDone')}</span>
                ) : null}
              </button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/**
 * Following a training (issue 18): its sections one at a time, each with its attachment and its
 * quiz; "Later" puts it off, "Finish" (once every section's quiz is right) completes it with the
 * answers of every section. The time spent counts while this screen is open, shown and in the
 * foreground, across all its sections; it goes with the step that ends the reading (skip,
 * complete), or as a 'view' when the employee leaves otherwise. Every step goes through the
 * outbox, as a communication's.
 */
export function TrainingScreen({ trainingId }: { trainingId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const session = useEmployeeSession();
  const { list, items } = useTrainings();
  const { waiting, refused } = useOutbox();
  const item = items?.find((candidate) => candidate.id === trainingId);
  const [isDone, setIsDone] = useState(false);
  const [isSending, setIsSending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [current, setCurrent] = useState(0);
  const [quizzes, setQuizzes] = useState<Record<string, SectionQuiz>>({});
  const [visited, setVisited] = useState<ReadonlySet<string>>(() => new Set());
  const time = useReadingTime(item !== undefined && !isDone);
  const sectionTitleId = useId();
  const sectionTitle = useRef<HTMLHeadingElement>(null);

  // The employee who opened the screen: a step made on leaving is theirs.
  const sessionRef = useRef(session);
  if (session) sessionRef.current = session;
  const itemRef = useRef<DeviceTraining | undefined>(item);
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

  const sections = item?.sections ?? [];
  const index = Math.min(current, Math.max(0, sections.length - 1));
  const section = sections[index];

  useEffect(() => {
    if (!section) return;
    setVisited((seen) => (seen.has(section.id) ? seen : new Set([...seen, section.id])));
  }, [section]);

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
    void queueTrainingStep(opened, { action: 'view', time_spent: seconds }, who);
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

  const quizOf = (target: Section) => quizzes[target.id] ?? untouched;
  const quizStateOf = (target: Section): QuizState => {
    const { chosen, isChecked } = quizOf(target);
    return {
      chosen,
      isChecked,
      isPassed: isChecked && isQuizPassed(target.quiz.questions, chosen),
      toggle: (question, answerId) =>
        setQuizzes((all) => ({
          ...all,
          [target.id]: {
            chosen: toggleChoice(all[target.id]?.chosen ?? {}, question, answerId),
            isChecked: false,
          },
        })),
      check: () =>
        setQuizzes((all) => ({
          ...all,
          [target.id]: { chosen: all[target.id]?.chosen ?? {}, isChecked: true },
        })),
      answers: () => quizAnswersOf(target.quiz, chosen),
    };
  };
  const hasTick = (target: Section) =>
    target.quiz.questions.length > 0
      ? isSectionRight(target, quizOf(target))
      : visited.has(target.id);
  const rightCount = sections.filter((target) => isSectionRight(target, quizOf(target))).length;
  const isAllRight = rightCount === sections.length;

  const openSection = (next: number) => {
    setCurrent(next);
    // The new section's title takes the focus (a screen reader reads where the employee is).
    setTimeout(() => sectionTitle.current?.focus(), 0);
  };

  const send = async (action: 'skip' | 'complete') => {
    const who = sessionRef.current;
    if (isClosed.current || !item || !who) return;
    isClosed.current = true;
    setIsSending(true);
    setProblem(null);
    try {
      await queueTrainingStep(
        item,
        {
          action,
          time_spent: time.take(),
          ...(action === 'complete'
            ? {
                answers: Object.fromEntries(
                  item.sections.map((target) => [
                    target.id,
                    quizAnswersOf(target.quiz, quizOf(target).chosen),
                  ]),
                ),
              }
            : {}),
        },
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

  const pending = waitingTrainingSteps(waiting, trainingId);
  const refusal = refusedTrainingStep(refused, trainingId);
  const isCompleted = item?.completed_at != null;

  let content: ReactNode;
  if (!item)
    content = list.isPending ? (
      <p className="muted">{t('common.loading')}</p>
    ) : (
      <p className="error-text" role="alert">
        {list.isError ? refusalText(list.error) : t('trainings.notFound')}
      </p>
    );
  else if (isDone)
    content = (
      <DoneView
        isWaiting={pending.some((record) => stepAction(record) === 'complete')}
        refusal={refusal}
      />
    );
  else
    content = (
      <>
        {refusal && !isCompleted ? <RefusalNotice record={refusal} /> : null}
        {isCompleted ? (
          <p className="badge status--done training-completed" role="status">
            {t('trainings.completedOn', { date: formatDate(item.completed_at!) })}
          </p>
        ) : null}
        <SectionList sections={sections} current={index} hasTick={hasTick} onSelect={openSection} />
        {section ? (
          <section className="stack training-section" aria-labelledby={sectionTitleId}>
            <div className="stack training-section__heading">
              <span className="muted">
                {t('trainings.sectionOf', { index: index + 1, total: sections.length })}
              </span>
              <h2 id={sectionTitleId} ref={sectionTitle} tabIndex={-1} lang={item.lang}>
                {section.title}
              </h2>
            </div>
            {section.attachment ? (
              <CommunicationAttachmentView
                key={`attachment-${section.id}`}
                attachment={section.attachment}
              />
            ) : (
              <p className="muted">{t('trainings.noAttachment')}</p>
            )}
            {section.quiz.questions.length > 0 ? (
              <CommunicationQuiz
                key={`quiz-${section.id}`}
                quiz={section.quiz}
                state={quizStateOf(section)}
                isSending={isSending}
              />
            ) : null}
            <div className="training-actions">
              <button
                type="button"
                className="button button--large"
                disabled={index === 0}
                onClick={() => openSection(index - 1)}
              >
                {t('trainings.previousSection')}
              </button>
              <button
                type="button"
                className="button button--large"
                disabled={index >= sections.length - 1}
                onClick={() => openSection(index + 1)}
              >
                {t('trainings.nextSection')}
              </button>
            </div>
          </section>
        ) : null}
        <div className="training-actions">
          {isCompleted ? (
            <button type="button" className="button button--large" onClick={backToList}>
              {t('trainings.backToList')}
            </button>
          ) : (
            <>
              <button
                type="button"
                className="button button--large"
                disabled={isSending}
                onClick={() => void send('skip')}
              >
                {t('trainings.later')}
              </button>
              {isAllRight ? (
                <button
                  type="button"
                  className="button button--primary button--large"
                  disabled={isSending}
                  onClick={() => void send('complete')}
                >
                  {t('trainings.finish')}
                </button>
              ) : (
                <p className="muted training-actions__hint">
                  {t('trainings.finishHint', { right: rightCount, total: sections.length })}
                </p>
              )}
            </>
          )}
        </div>
      </>
    );

  return (
    <section className="stack training" aria-labelledby="training-title">
      <div className="screen-header">
        <button type="button" className="button button--ghost" onClick={backToList}>
          {t('common.back')}
        </button>
        <div className="stack training__heading">
          <h1 id="training-title" lang={item?.lang}>
            {item?.name ?? t('trainings.title')}
          </h1>
          {item ? (
            <span className="row training__labels">
              {item.category ? <span className="muted">{item.category}</span> : null}
              {item.required ? (
                <span className="badge trainings__required">{t('trainings.required')}</span>
              ) : null}
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
