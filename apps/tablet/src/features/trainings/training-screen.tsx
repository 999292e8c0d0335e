import { isQuizPassed } from '@mise/shared/communications/rules';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate } from '../../app/navigation';
import {
  DoneView,
  ItemMissing,
  ReadingActions,
  RefusalNotice,
  useStepReading,
} from '../../shared/learning/step-reading';
import { formatDate } from '../../shared/ui/format';
import { CommunicationAttachmentView } from '../communications/communication-attachment';
import {
  CommunicationQuiz,
  type QuizAnswers,
  type QuizState,
  quizAnswersOf,
  toggleChoice,
} from '../communications/communication-quiz';
import { trainingSteps } from './training-results';
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
 * answers of every section. The time spent counts across all its sections; it and the steps go
 * as a communication's (useStepReading).
 */
export function TrainingScreen({ trainingId }: { trainingId: string }) {
  const { t } = useTranslation();
  const { list, items } = useTrainings();
  const item = items?.find((candidate) => candidate.id === trainingId);
  const [current, setCurrent] = useState(0);
  const [quizzes, setQuizzes] = useState<Record<string, SectionQuiz>>({});
  const [visited, setVisited] = useState<ReadonlySet<string>>(() => new Set());
  const sectionTitleId = useId();
  const sectionTitle = useRef<HTMLHeadingElement>(null);
  const reading = useStepReading({ item, itemId: trainingId, steps: trainingSteps, backToList });
  const { isSending, refusal } = reading;

  const sections = item?.sections ?? [];
  const index = Math.min(current, Math.max(0, sections.length - 1));
  const section = sections[index];

  useEffect(() => {
    if (!section) return;
    setVisited((seen) => (seen.has(section.id) ? seen : new Set([...seen, section.id])));
  }, [section]);

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

  /** Completes the training with the answers of every section. */
  const finish = (training: DeviceTraining) =>
    reading.send(
      'complete',
      Object.fromEntries(
        training.sections.map((target) => [
          target.id,
          quizAnswersOf(target.quiz, quizOf(target).chosen),
        ]),
      ),
    );

  const isCompleted = item?.completed_at != null;

  let content: ReactNode;
  if (!item) content = <ItemMissing texts="trainings" list={list} />;
  else if (reading.isDone)
    content = (
      <DoneView
        texts="trainings"
        isWaiting={reading.isCompletionWaiting}
        refusal={refusal}
        onBack={backToList}
      />
    );
  else
    content = (
      <>
        {refusal && !isCompleted ? <RefusalNotice record={refusal} texts="trainings" /> : null}
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
        <ReadingActions
          texts="trainings"
          className="training-actions"
          isCompleted={isCompleted}
          isSending={isSending}
          onSkip={() => void reading.send('skip')}
          onBack={backToList}
        >
          {isAllRight ? (
            <button
              type="button"
              className="button button--primary button--large"
              disabled={isSending}
              onClick={() => void finish(item)}
            >
              {t('trainings.finish')}
            </button>
          ) : (
            <p className="muted training-actions__hint">
              {t('trainings.finishHint', { right: rightCount, total: sections.length })}
            </p>
          )}
        </ReadingActions>
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
      {reading.problem ? (
        <p className="error-text" role="alert">
          {reading.problem}
        </p>
      ) : null}
      {content}
    </section>
  );
}
