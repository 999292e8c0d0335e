import { isQuizAnswerCorrect, isQuizPassed } from '@mise/shared/communications/rules';
import type { Quiz } from '@mise/shared/communications/schemas';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import './communications.css';

export type QuizAnswers = Record<string, string[]>;

type QuestionProps = {
  question: Quiz['questions'][number];
  chosen: readonly string[];
  isChecked: boolean;
  onToggle: (answerId: string) => void;
};

function QuizQuestionField({ question, chosen, isChecked, onToggle }: QuestionProps) {
  const { t } = useTranslation();
  const verdictId = useId();
  const isRight = isQuizAnswerCorrect(question, chosen);
  const isShownWrong = isChecked && !isRight;
  const state = !isChecked
    ? ''
    : isRight
      ? ' communication-question--right'
      : ' communication-question--wrong';
  return (
    <fieldset
      className={`card stack communication-question${state}`}
      aria-describedby={isChecked ? verdictId : undefined}
    >
      <legend className="communication-question__text">{question.text}</legend>
      <ul className="communication-answers">
        {question.answers.map((answer) => {
          const isHighlighted = isShownWrong && answer.correct;
          return (
            <li
              key={answer.id}
              className={`communication-answer${isHighlighted ? ' communication-answer--correct' : ''}`}
            >
              <label className="communication-answer__label">
                <input
                  type="checkbox"
                  className="communication-answer__box"
                  checked={chosen.includes(answer.id)}
                  onChange={() => onToggle(answer.id)}
                />
                <span>{answer.text}</span>
              </label>
              {isHighlighted ? (
                <span className="badge communication-answer__badge">
                  {t('communications.rightAnswer')}
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
      {isChecked ? (
        <p id={verdictId} className={isRight ? 'communication-verdict--right' : 'error-text'}>
          {isRight ? `✓ ${t('communications.right')}` : `✗ ${t('communications.wrong')}`}
        </p>
      ) : null}
    </fieldset>
  );
}

/** A quiz's state as the quiz screen reads it (useQuizAnswers, or a training's sections). */
export type QuizState = {
  chosen: QuizAnswers;
  isChecked: boolean;
  isPassed: boolean;
  toggle: (question: QuestionProps['question'], answerId: string) => void;
  check: () => void;
  answers: () => QuizAnswers;
};

/** The ticks after a tap on `answerId`, kept in the question's order whatever the taps' order. */
export function toggleChoice(
  current: QuizAnswers,
  question: QuestionProps['question'],
  answerId: string,
): QuizAnswers {
  const picked = new Set(current[question.id] ?? []);
  if (picked.has(answerId)) picked.delete(answerId);
  else picked.add(answerId);
  const next = question.answers.map((answer) => answer.id).filter((id) => picked.has(id));
  return { ...current, [question.id]: next };
}

/** Every question's ticks (an untouched question: none), as a result's body takes them. */
export function quizAnswersOf(quiz: Quiz, chosen: QuizAnswers): QuizAnswers {
  return Object.fromEntries(
    quiz.questions.map((question) => [question.id, chosen[question.id] ?? []]),
  );
}

/** The employee's ticks and whether they were checked since the last change. */
export function useQuizAnswers(quiz: Quiz): QuizState {
  const [chosen, setChosen] = useState<QuizAnswers>({});
  const [isChecked, setIsChecked] = useState(false);

  const toggle = (question: QuestionProps['question'], answerId: string) => {
    setChosen((current) => toggleChoice(current, question, answerId));
    setIsChecked(false);
  };

  const answers = (): QuizAnswers => quizAnswersOf(quiz, chosen);

  return {
    chosen,
    isChecked,
    isPassed: isChecked && isQuizPassed(quiz.questions, chosen),
    toggle,
    check: () => setIsChecked(true),
    answers,
  };
}

type QuizProps = {
  quiz: Quiz;
  state: QuizState;
  isSending: boolean;
  /** Without it, a passed quiz offers nothing more (a training's section: Finish is the training's). */
  onFinish?: () => void;
  /** Without it, no back button (a training shows the quiz under its section's document). */
  onBack?: () => void;
};

/**
 * The communication's quiz (issue 18), every question on one screen: the employee ticks the
 * answers and checks; a wrong question shows as wrong with its right answers highlighted, and
 * any change asks for a new check. Finish is offered once every answer is right.
 */
export function CommunicationQuiz({ quiz, state, isSending, onFinish, onBack }: QuizProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const { chosen, isChecked, isPassed } = state;
  const questions = quiz.questions;
  const rightCount = questions.filter((question) =>
    isQuizAnswerCorrect(question, chosen[question.id] ?? []),
  ).length;

  return (
    <section className="stack communication-quiz" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('communications.quizTitle')}</h2>
      <p className="muted">{t('communications.quizHelp')}</p>
      {questions.map((question) => (
        <QuizQuestionField
          key={question.id}
          question={question}
          chosen={chosen[question.id] ?? []}
          isChecked={isChecked}
          onToggle={(answerId) => state.toggle(question, answerId)}
        />
      ))}
      <div role="status" className="communication-quiz__summary">
        {isChecked ? (
          isPassed ? (
            <p className="communication-verdict--right">{t('communications.allRight')}</p>
          ) : (
            <p className="error-text">
              {t('communications.someWrong', { right: rightCount, total: questions.length })}
            </p>
          )
        ) : null}
      </div>
      <div className="communication-actions">
        {onBack ? (
          <button type="button" className="button button--large" onClick={onBack}>
            {t('communications.backToDocument')}
          </button>
        ) : null}
        {isPassed ? (
          onFinish ? (
            <button
              type="button"
              className="button button--primary button--large"
              disabled={isSending}
              onClick={onFinish}
            >
              {t('communications.finish')}
            </button>
          ) : null
        ) : (
          <button
            type="button"
            className="button button--primary button--large"
            onClick={state.check}
          >
            {t('communications.check')}
          </button>
        )}
      </div>
    </section>
  );
}
