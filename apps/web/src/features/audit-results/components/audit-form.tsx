import { Alert, Button, Group, Progress, Select, Stack, Text, Title } from '@mantine/core';
import { answerIssue, liveSections, missingRequired, truncate } from '@mise/shared/audits/rules';
import type { AuditAnswerInput, AuditQuestion, AuditResult } from '@mise/shared/audits/schemas';
import { isAnswered, isQuestionVisible } from '@mise/shared/audits/scoring';
import { IconAlertCircle, IconArrowLeft, IconArrowRight, IconSend } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../shared/api/api-error';
import { todayInStoreZone } from '../../../shared/format/store-clock';
import { errorMessage } from '../../../shared/i18n/error-message';
import { EmptyState } from '../../../shared/ui/empty-state';
import { LoadingButton } from '../../../shared/ui/loading-button';
import { notifyApiError, notifyError } from '../../../shared/ui/notify';
import { auditResultsQueryKeys } from '../api/audit-results-query-keys';
import { useStoreZone } from '../api/get-store-zone';
import { submitAuditResult } from '../api/perform-audit';
import { useAnswerSync } from '../model/use-answer-sync';
import { type AnswerUpdate, QuestionCard } from './question-card';
import { SaveIndicator } from './save-indicator';

/** Section titles in the section picker. */
const sectionPickerTitleMax = 80;

type AuditFormProps = {
  result: AuditResult;
  onSubmitted: (result: AuditResult) => void;
};

function scrollToQuestion(questionId: string | undefined) {
  if (!questionId) return;
  const card = document.querySelector(`[data-question-id="${CSS.escape(questionId)}"]`);
  card?.scrollIntoView({ behavior: 'smooth', block: 'center' });
}

/**
 * Performing a result (spec 002, issue 16): one section at a time with a progress bar, the
 * questions whose conditions hold (live, as yes/no answers change), the input of each type,
 * required answers enforced before going on or submitting, and every change saved as the
 * auditor goes (kept on the device first).
 */
export function AuditForm({ result, onSubmitted }: AuditFormProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const sections = useMemo(() => liveSections(result.sections), [result.sections]);
  const questionsById = useMemo(
    () =>
      new Map<string, AuditQuestion>(
        sections.flatMap((section) => section.questions.map((question) => [question.id, question])),
      ),
    [sections],
  );
  const zone = useStoreZone(result.store.id);
  const today = todayInStoreZone(zone);
  const isSendable = useCallback(
    (answer: AuditAnswerInput) => {
      const question = questionsById.get(answer.question_id);
      return question ? answerIssue(question, answer, today) === null : false;
    },
    [questionsById, today],
  );
  const sync = useAnswerSync(result, { isSendable });
  const { answers, updateAnswer } = sync;
  const answerList = useMemo(() => [...answers.values()], [answers]);

  const visibility = useMemo(() => {
    const visible = new Map<string, boolean>();
    for (const question of questionsById.values()) {
      visible.set(question.id, isQuestionVisible(question, questionsById, answers));
    }
    return visible;
  }, [questionsById, answers]);

  const progress = useMemo(() => {
    let total = 0;
    let answered = 0;
    for (const question of questionsById.values()) {
      if (!visibility.get(question.id)) continue;
      total += 1;
      if (isAnswered(question, answers.get(question.id))) answered += 1;
    }
    return { total, answered };
  }, [questionsById, visibility, answers]);

  const [sectionIndex, setSectionIndex] = useState(() => {
    // Resuming: the first section with a question still to answer.
    const index = sections.findIndex((section) =>
      section.questions.some(
        (question) =>
          isQuestionVisible(question, questionsById, answers) &&
          !isAnswered(question, answers.get(question.id)),
      ),
    );
    // Everything answered: the last section, where the auditor submits.
    return index >= 0 ? index : Math.max(0, sections.length - 1);
  });
  const [marked, setMarked] = useState<ReadonlySet<string>>(new Set());

  const section = sections[sectionIndex];
  const sectionCount = sections.length;
  const isLast = sectionIndex >= sectionCount - 1;

  const issueOf = useCallback(
    (question: AuditQuestion) => {
      const answer = answers.get(question.id);
      return answer ? answerIssue(question, answer, today) : null;
    },
    [answers, today],
  );

  /** Visible questions of the given sections that block going on: unanswered required, or invalid. */
  const blockers = useCallback(
    (sectionIds: ReadonlySet<string> | null) => {
      const missing = missingRequired(sections, answerList, isAnswered).map(
        (question) => question.id,
      );
      const invalid = [...questionsById.values()]
        .filter((question) => visibility.get(question.id) && issueOf(question) !== null)
        .map((question) => question.id);
      const inScope = (questionId: string) => {
        if (!sectionIds) return true;
        return sections.some(
          (item) =>
            sectionIds.has(item.id) &&
            item.questions.some((question) => question.id === questionId),
        );
      };
      const ids = new Set([...missing, ...invalid].filter(inScope));
      // In the order of the audit.
      return [...questionsById.keys()].filter((id) => ids.has(id));
    },
    [sections, answerList, questionsById, visibility, issueOf],
  );

  const handleChange = useCallback(
    (questionId: string, update: AnswerUpdate) => updateAnswer(questionId, update),
    [updateAnswer],
  );

  function goTo(index: number) {
    setSectionIndex(index);
    window.scrollTo({ top: 0 });
  }

  function block(ids: string[]) {
    setMarked(new Set(ids));
    window.setTimeout(() => scrollToQuestion(ids[0]), 0);
  }

  function handleNext() {
    if (!section) return;
    const ids = blockers(new Set([section.id]));
    if (ids.length > 0) {
      block(ids);
      return;
    }
    goTo(sectionIndex + 1);
  }

  async function handleSubmit() {
    const ids = blockers(null);
    if (ids.length > 0) {
      const first = ids[0];
      const index = sections.findIndex((item) =>
        item.questions.some((question) => question.id === first),
      );
      if (index >= 0 && index !== sectionIndex) setSectionIndex(index);
      block(ids);
      return;
    }
    const isSaved = await sync.flush();
    if (!isSaved) {
      notifyError(t('auditResults.perform.notSavedYet'));
      return;
    }
    try {
      const submitted = await submitAuditResult(result.id);
      sync.discardDrafts();
      queryClient.setQueryData(auditResultsQueryKeys.result(submitted.id), submitted);
      void queryClient.invalidateQueries({
        queryKey: auditResultsQueryKeys.inProgress(result.audit_id),
      });
      void queryClient.invalidateQueries({
        queryKey: auditResultsQueryKeys.results(result.audit_id),
      });
      onSubmitted(submitted);
    } catch (error) {
      if (isApiError(error, 'audit/required-missing')) {
        const known = error.issues
          .flatMap((issue) => [issue.path, issue.message])
          .flatMap((text) => text.split(/[^A-Za-z0-9_-]+/))
          .filter((id) => questionsById.has(id));
        if (known.length > 0) {
          const index = sections.findIndex((item) =>
            item.questions.some((question) => question.id === known[0]),
          );
          if (index >= 0) setSectionIndex(index);
          block(known);
          return;
        }
      }
      notifyApiError(error);
    }
  }

  if (!section) {
    return <EmptyState title={t('auditResults.perform.noQuestions')} />;
  }

  const visibleQuestions = section.questions.filter((question) => visibility.get(question.id));
  const blockedCount = visibleQuestions.filter(
    (question) =>
      marked.has(question.id) &&
      ((question.required && !isAnswered(question, answers.get(question.id))) ||
        issueOf(question) !== null),
  ).length;

  return (
    <Stack gap="md" data-testid="audit-form">
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text size="sm" fw={600} data-testid="perform-section-count">
            {t('auditResults.perform.sectionOf', { index: sectionIndex + 1, total: sectionCount })}
          </Text>
          <SaveIndicator status={sync.status} />
        </Group>
        <Progress
          value={sectionCount === 0 ? 0 : ((sectionIndex + 1) / sectionCount) * 100}
          size="md"
          radius="xl"
          aria-label={t('auditResults.perform.sectionOf', {
            index: sectionIndex + 1,
            total: sectionCount,
          })}
        />
        <Text size="xs" c="dimmed" data-testid="perform-answered">
          {t('auditResults.perform.answered', {
            answered: progress.answered,
            total: progress.total,
          })}
        </Text>
      </Stack>

      {sync.status === 'offline' ? (
        <Alert color="orange" icon={<IconAlertCircle size={18} />} data-testid="perform-offline">
          {t('auditResults.perform.offlineHelp')}
        </Alert>
      ) : null}
      {sync.status === 'error' ? (
        <Alert color="red" icon={<IconAlertCircle size={18} />} data-testid="perform-save-error">
          {errorMessage(t, sync.lastError)}
        </Alert>
      ) : null}
      {sync.status === 'submitted' ? (
        <Alert color="gray" icon={<IconAlertCircle size={18} />}>
          {t('errors.audit/result-submitted')}
        </Alert>
      ) : null}

      {sectionCount > 1 ? (
        <Select
          label={t('auditResults.perform.jumpTo')}
          data={sections.map((item, index) => ({
            value: String(index),
            label: `${index + 1}. ${truncate(item.title, sectionPickerTitleMax)}`,
          }))}
          value={String(sectionIndex)}
          onChange={(value) => {
            if (value !== null) goTo(Number(value));
          }}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          data-testid="perform-section-picker"
        />
      ) : null}

      <Title
        order={2}
        size="h3"
        data-testid="perform-section-title"
        style={{ overflowWrap: 'anywhere' }}
      >
        {section.title}
      </Title>

      {blockedCount > 0 ? (
        <Alert color="red" icon={<IconAlertCircle size={18} />} data-testid="perform-blocked">
          {t('auditResults.perform.blocked', { count: blockedCount })}
        </Alert>
      ) : null}

      <Stack gap="md" data-testid="perform-section" data-section-id={section.id}>
        {visibleQuestions.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t('auditResults.perform.sectionEmpty')}
          </Text>
        ) : (
          visibleQuestions.map((question) => {
            const answer = answers.get(question.id);
            return (
              <QuestionCard
                key={question.id}
                question={question}
                answer={answer}
                resultId={result.id}
                today={today}
                issue={answer ? answerIssue(question, answer, today) : null}
                isMissing={
                  question.required && marked.has(question.id) && !isAnswered(question, answer)
                }
                onChange={handleChange}
              />
            );
          })
        )}
      </Stack>

      <Group
        justify="space-between"
        gap="sm"
        py="sm"
        style={{
          position: 'sticky',
          bottom: 0,
          background: 'var(--mantine-color-body)',
          borderTop: '1px solid var(--mantine-color-default-border)',
          zIndex: 2,
        }}
      >
        <Button
          variant="default"
          size="md"
          leftSection={<IconArrowLeft size={18} />}
          disabled={sectionIndex === 0}
          onClick={() => goTo(sectionIndex - 1)}
          data-testid="perform-previous"
        >
          {t('auditResults.perform.previous')}
        </Button>
        {isLast ? (
          <LoadingButton
            size="md"
            color="teal"
            rightSection={<IconSend size={18} />}
            onClick={handleSubmit}
            disabled={sync.status === 'submitted'}
            data-testid="perform-submit"
          >
            {t('auditResults.perform.submit')}
          </LoadingButton>
        ) : (
          <Button
            size="md"
            rightSection={<IconArrowRight size={18} />}
            onClick={handleNext}
            data-testid="perform-next"
          >
            {t('auditResults.perform.next')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
