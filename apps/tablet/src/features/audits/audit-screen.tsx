import { answerIssue, liveSections, missingRequired, truncate } from '@mise/shared/audits/rules';
import type { AuditQuestion, AuditResult } from '@mise/shared/audits/schemas';
import { formatPercent, isAnswered, isQuestionVisible } from '@mise/shared/audits/scoring';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate } from '../../app/navigation';
import { ApiError, NetworkError } from '../../shared/api/client';
import { useDeviceState } from '../../shared/device/device-state';
import { errorText } from '../../shared/i18n/i18n';
import { discardRecord } from '../../shared/outbox/outbox';
import { useOutbox } from '../../shared/outbox/use-outbox';
import { useEmployeeSession } from '../../shared/session/employee-session';
import { Dialog } from '../../shared/ui/dialog';
import { AnswerField } from './answer-fields';
import { mayAudit } from './audit-access';
import { type AuditDraft, answerForCheck, questionsById } from './audit-draft';
import { answersPath, refusalText, submitPath } from './audits-api';
import { useAuditDraft } from './use-audit-draft';
import './audits.css';

/** Longest question text in the lists of what blocks a submission. */
const missingTextMax = 80;
const sectionTitleMax = 150;

function ScoreView({ result }: { result: AuditResult }) {
  const { t } = useTranslation();
  const percent =
    result.score !== null && result.max_score ? (result.score / result.max_score) * 100 : null;
  if (percent === null) return <p>{t('audits.notScored')}</p>;
  const titles = new Map(result.sections.map((section) => [section.id, section.title]));
  return (
    <>
      <p className="audit-score">{t('audits.score', { percent: formatPercent(percent) })}</p>
      <p className="muted">
        {t('audits.points', {
          score: formatPercent(result.score ?? 0),
          max: formatPercent(result.max_score ?? 0),
        })}
      </p>
      <ul className="audit-section-scores">
        {result.section_scores
          .filter((section) => section.max_score > 0)
          .map((section) => (
            <li key={section.section_id}>
              {t('audits.sectionScore', {
                title: truncate(titles.get(section.section_id) ?? '', sectionTitleMax),
                percent: formatPercent((section.score / section.max_score) * 100),
              })}
            </li>
          ))}
      </ul>
    </>
  );
}

/** After the submission: the server's score, or that it waits to be sent (and scored). */
function SubmittedView({ draft, onReopen }: { draft: AuditDraft; onReopen: () => void }) {
  const { t } = useTranslation();
  const { waiting, refused } = useOutbox();
  const path = submitPath(draft.result.id);
  const isConfirmed = draft.result.status === 'submitted';
  const refusal = isConfirmed ? undefined : refused.find((record) => record.path === path);
  const isWaiting = waiting.some((record) => record.path === path);
  const handleReopen = async () => {
    if (refusal?.seq !== undefined) await discardRecord(refusal.seq);
    onReopen();
  };
  return (
    <div className="card stack audit-done">
      <h2>{t('audits.submittedTitle')}</h2>
      {isConfirmed ? (
        <div role="status" className="stack">
          <ScoreView result={draft.result} />
        </div>
      ) : refusal ? (
        <>
          <p className="error-text" role="alert">
            {t('audits.submitRefused', {
              reason: errorText(refusal.refusal?.code ?? 'unknown', refusal.refusal?.message),
            })}
          </p>
          <button type="button" className="button" onClick={() => void handleReopen()}>
            {t('audits.backToAnswers')}
          </button>
        </>
      ) : (
        <div role="status" className="stack">
          <p>{isWaiting ? t('audits.willBeSent') : t('audits.sending')}</p>
          <p className="muted">{t('audits.scoreLater')}</p>
        </div>
      )}
      <button
        type="button"
        className="button button--primary button--large"
        onClick={() => navigate({ name: 'audits' })}
      >
        {t('audits.backToList')}
      </button>
    </div>
  );
}

type QuestionCardProps = {
  question: AuditQuestion;
  draft: AuditDraft;
  today: string;
  onChange: ReturnType<typeof useAuditDraft>['setAnswer'];
};

function QuestionCard({ question, draft, today, onChange }: QuestionCardProps) {
  const { t } = useTranslation();
  const labelId = useId();
  const answer = draft.answers[question.id] ?? { question_id: question.id };
  const issue = answerIssue(question, answerForCheck(answer, draft.files), today);
  return (
    <section
      className={`card stack audit-question${issue ? ' audit-question--invalid' : ''}`}
      aria-labelledby={labelId}
    >
      <div className="audit-question__head">
        <h3 id={labelId} className="audit-question__text">
          {question.text}
        </h3>
        {question.required ? (
          <span className="badge audit-required">{t('audits.required')}</span>
        ) : null}
      </div>
      <AnswerField
        question={question}
        answer={answer}
        labelId={labelId}
        isReadOnly={false}
        files={draft.files}
        today={today}
        onChange={(next, mode, files) => onChange(question, next, mode, files)}
      />
      {issue ? (
        <p className="error-text" role="alert">
          {errorText(issue)}
        </p>
      ) : null}
    </section>
  );
}

type PerformViewProps = {
  draft: AuditDraft;
  today: string;
  onChange: ReturnType<typeof useAuditDraft>['setAnswer'];
  onGoTo: (index: number) => void;
  onSubmit: () => Promise<void>;
};

/** One screen per section: progress, the questions that show, the way on, the submission. */
function PerformView({ draft, today, onChange, onGoTo, onSubmit }: PerformViewProps) {
  const { t } = useTranslation();
  const { waiting, refused } = useOutbox();
  const [isConfirming, setIsConfirming] = useState(false);
  const sections = liveSections(draft.result.sections);
  const index = Math.min(Math.max(draft.section_index, 0), Math.max(sections.length - 1, 0));
  const section = sections[index];
  const questions = questionsById(draft.result.sections);
  const answers = new Map(Object.entries(draft.answers));
  const isShown = (question: AuditQuestion) => isQuestionVisible(question, questions, answers);
  const shown = [...questions.values()].filter(isShown);
  const answered = shown.filter((question) => isAnswered(question, draft.answers[question.id]));
  const missing = missingRequired(draft.result.sections, Object.values(draft.answers), isAnswered);
  const invalid = shown.filter((question) =>
    answerIssue(
      question,
      answerForCheck(draft.answers[question.id] ?? { question_id: question.id }, draft.files),
      today,
    ),
  );
  const sectionOf = (questionId: string) =>
    sections.findIndex((item) => item.questions.some((question) => question.id === questionId));
  const path = answersPath(draft.result.id);
  const waitingCount = waiting.filter((record) => record.path === path).length;
  const refusedAnswer = refused.find((record) => record.path === path);
  const isLast = index >= sections.length - 1;

  const goTo = (next: number) => {
    onGoTo(next);
    if (typeof window.scrollTo === 'function') window.scrollTo({ top: 0 });
  };
  const blockers = (title: string, items: AuditQuestion[]) =>
    items.length === 0 ? null : (
      <div className="audit-blockers-box">
        <p className="field__label">{title}</p>
        <ul className="audit-blockers">
          {items.map((question) => (
            <li key={question.id}>
              <button
                type="button"
                className="button button--ghost audit-blockers__item"
                onClick={() => goTo(sectionOf(question.id))}
              >
                {truncate(question.text, missingTextMax)}
              </button>
            </li>
          ))}
        </ul>
      </div>
    );

  const sectionQuestions = (section?.questions ?? []).filter(isShown);
  return (
    <>
      <div className="stack audit-progress">
        <div className="row audit-progress__labels">
          <strong>{t('audits.section', { index: index + 1, count: sections.length })}</strong>
          <span className="muted">
            {t('audits.answered', { answered: answered.length, total: shown.length })}
          </span>
        </div>
        <div
          className="audit-progress__bar"
          role="progressbar"
          aria-label={t('audits.progress')}
          aria-valuemin={0}
          aria-valuemax={sections.length}
          aria-valuenow={index + 1}
          aria-valuetext={t('audits.section', { index: index + 1, count: sections.length })}
        >
          <span style={{ width: `${((index + 1) / Math.max(sections.length, 1)) * 100}%` }} />
        </div>
        <p className="muted audit-saved" aria-live="polite">
          {t('audits.savedHere')}{' '}
          {waitingCount > 0
            ? t('audits.waitingAnswers', { count: waitingCount })
            : t('audits.allSent')}
        </p>
        {refusedAnswer ? (
          <div className="row">
            <p className="error-text" role="alert">
              {t('audits.answerRefused', {
                reason: errorText(
                  refusedAnswer.refusal?.code ?? 'unknown',
                  refusedAnswer.refusal?.message,
                ),
              })}
            </p>
            <button type="button" className="button" onClick={() => navigate({ name: 'outbox' })}>
              {t('audits.seeOutbox')}
            </button>
          </div>
        ) : null}
      </div>
      {section ? <h2 className="audit-section-title">{section.title}</h2> : null}
      {sectionQuestions.length === 0 ? <p className="muted">{t('audits.noQuestion')}</p> : null}
      {sectionQuestions.map((question) => (
        <QuestionCard
          key={question.id}
          question={question}
          draft={draft}
          today={today}
          onChange={onChange}
        />
      ))}
      <div className="audit-pager">
        <button
          type="button"
          className="button button--large"
          disabled={index === 0}
          onClick={() => goTo(index - 1)}
        >
          {t('audits.previous')}
        </button>
        {isLast ? null : (
          <button
            type="button"
            className="button button--primary button--large"
            onClick={() => goTo(index + 1)}
          >
            {t('audits.next')}
          </button>
        )}
      </div>
      {isLast ? (
        <div className="audit-submit stack">
          <div className="stack" role="status">
            {blockers(t('audits.missing'), missing)}
            {blockers(t('audits.toCorrect'), invalid)}
          </div>
          <button
            type="button"
            className="button button--primary button--large button--block"
            disabled={missing.length > 0 || invalid.length > 0}
            onClick={() => setIsConfirming(true)}
          >
            {t('audits.submit')}
          </button>
        </div>
      ) : null}
      {isConfirming ? (
        <Dialog title={t('audits.confirmTitle')} onClose={() => setIsConfirming(false)}>
          <p>{t('audits.confirmText')}</p>
          <div className="row">
            <button type="button" className="button" onClick={() => setIsConfirming(false)}>
              {t('common.cancel')}
            </button>
            <button
              type="button"
              className="button button--primary"
              onClick={() => {
                setIsConfirming(false);
                void onSubmit();
              }}
            >
              {t('audits.confirm')}
            </button>
          </div>
        </Dialog>
      ) : null}
    </>
  );
}

/**
 * Performing an audit (issue 16): the draft kept on this tablet, answers saved as the employee
 * goes (IndexedDB at once, then the outbox), conditions applied live, required answers and
 * answer rules enforced before the submission; then the score the server computed.
 */
export function AuditScreen({ resultId }: { resultId: string }) {
  const { t } = useTranslation();
  const session = useEmployeeSession();
  const { context } = useDeviceState();
  const { draft, isLoading, loadError, today, setAnswer, goToSection, submit, reopen } =
    useAuditDraft(resultId, session);

  let content: ReactNode;
  const isRefused = loadError instanceof ApiError && loadError.status === 403;
  if (!mayAudit(context, session) || isRefused)
    content = (
      <p className="error-text" role="alert">
        {isRefused ? refusalText(loadError) : errorText('permission/denied')}
      </p>
    );
  else if (!draft)
    content = isLoading ? (
      <p className="muted">{t('common.loading')}</p>
    ) : (
      <p className="error-text" role="alert">
        {loadError instanceof NetworkError || !loadError
          ? t('audits.notOnTablet')
          : refusalText(loadError)}
      </p>
    );
  else if (draft.result.status === 'submitted' || draft.submitted_at !== null)
    content = <SubmittedView draft={draft} onReopen={reopen} />;
  else
    content = (
      <PerformView
        draft={draft}
        today={today}
        onChange={setAnswer}
        onGoTo={goToSection}
        onSubmit={submit}
      />
    );

  return (
    <section className="stack audit" aria-labelledby="audit-title">
      <div className="screen-header">
        <button
          type="button"
          className="button button--ghost"
          onClick={() => navigate({ name: 'audits' })}
        >
          {t('common.back')}
        </button>
        <h1 id="audit-title">{draft?.result.audit_name ?? t('audits.title')}</h1>
      </div>
      {content}
    </section>
  );
}
