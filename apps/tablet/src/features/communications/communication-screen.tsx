import type { Quiz } from '@mise/shared/communications/schemas';
import { type ReactNode, useState } from 'react';
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
import { CommunicationAttachmentView } from './communication-attachment';
import { CommunicationQuiz, useQuizAnswers } from './communication-quiz';
import { communicationSteps } from './communication-results';
import { useCommunications } from './use-communications';
import './communications.css';

const noQuiz: Quiz = { questions: [] };
const backToList = () => navigate({ name: 'communications' });

type Step = 'read' | 'quiz';

/**
 * Reading a communication (issue 18): its attachment, then "Later" (put off, counted) or its
 * quiz, or "Mark as read" without one. The time spent and the steps: useStepReading.
 */
export function CommunicationScreen({ communicationId }: { communicationId: string }) {
  const { t } = useTranslation();
  const { list, items } = useCommunications();
  const item = items?.find((candidate) => candidate.id === communicationId);
  const [step, setStep] = useState<Step>('read');
  const quiz = useQuizAnswers(item?.quiz ?? noQuiz);
  const reading = useStepReading({
    item,
    itemId: communicationId,
    steps: communicationSteps,
    backToList,
  });
  const { isSending, refusal } = reading;
  const isCompleted = item?.completed_at != null;
  const hasQuiz = (item?.quiz.questions.length ?? 0) > 0;

  let content: ReactNode;
  if (!item) content = <ItemMissing texts="communications" list={list} />;
  else if (reading.isDone)
    content = (
      <DoneView
        texts="communications"
        isWaiting={reading.isCompletionWaiting}
        refusal={refusal}
        onBack={backToList}
      />
    );
  else if (step === 'quiz')
    content = (
      <CommunicationQuiz
        quiz={item.quiz}
        state={quiz}
        isSending={isSending}
        onFinish={() => void reading.send('complete', quiz.answers())}
        onBack={() => setStep('read')}
      />
    );
  else
    content = (
      <>
        {refusal && !isCompleted ? <RefusalNotice record={refusal} texts="communications" /> : null}
        {item.attachment ? <CommunicationAttachmentView attachment={item.attachment} /> : null}
        {isCompleted ? (
          <p className="badge status--done communication-completed" role="status">
            {t('communications.completedOn', { date: formatDate(item.completed_at!) })}
          </p>
        ) : null}
        <ReadingActions
          texts="communications"
          className="communication-actions"
          isCompleted={isCompleted}
          isSending={isSending}
          onSkip={() => void reading.send('skip')}
          onBack={backToList}
        >
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
              onClick={() => void reading.send('complete')}
            >
              {t('communications.markRead')}
            </button>
          )}
        </ReadingActions>
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
      {reading.problem ? (
        <p className="error-text" role="alert">
          {reading.problem}
        </p>
      ) : null}
      {content}
    </section>
  );
}
