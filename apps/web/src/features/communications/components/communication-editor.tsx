import { Button, Card, Group, Stack, Switch, Text, TextInput } from '@mantine/core';
import { communicationPeriod, communicationState } from '@mise/shared/communications/rules';
import {
  type Communication,
  communicationLimits,
  type Quiz,
  type TargetInput,
} from '@mise/shared/communications/schemas';
import { emptyTarget, type TargetKind, targetKind } from '@mise/shared/communications/targeting';
import { IconArrowLeft, IconChartBar } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AttachmentCard, type DraftAttachment } from '../../../shared/content/attachment-card';
import { QuizEditor } from '../../../shared/content/quiz-editor';
import { IssueAlert, useDraftEditor } from '../../../shared/content/use-draft-editor';
import { DateRangePicker } from '../../../shared/ui/date-range-picker';
import { LoadingButton } from '../../../shared/ui/loading-button';
import { PageHeader } from '../../../shared/ui/page-header';
import { communicationQueryOptions } from '../api/get-communication';
import { useSaveCommunication } from '../api/save-communication';
import {
  bodyOf,
  type CommunicationDraft,
  type DraftIssue,
  draftOf,
  validateDraft,
} from './communication-draft';
import {
  communicationPath,
  communicationStatsPath,
  communicationsPath,
} from './communication-paths';
import { CommunicationStateBadge } from './communication-state-badge';
import { TargetingCard } from './targeting-card';

/** Refusals of the server shown above the form (the others are toasts). */
const issueCodes = [
  'communication/name-required',
  'communication/dates-invalid',
  'communication/attachment-required',
  'communication.no_valid_answer',
];

/** The resumable upload purpose of a communication's attachment (owner: its database). */
const communicationAttachmentPurpose = 'communication-attachment';

/** The zone of a communication not saved yet: the browser's (the server uses the database's). */
function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

type CommunicationEditorProps = {
  /** Null for a new communication of `databaseId`. */
  communication: Communication | null;
  databaseId: string;
};

/**
 * The communication editor (spec 002 §2, §4, §5): name, date range and the state it gives,
 * active, save; the attachment, the target and the optional quiz. The checks of the server run
 * first on Save; a refused save shows its code's text.
 */
export function CommunicationEditor({ communication, databaseId }: CommunicationEditorProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const saveMutation = useSaveCommunication();

  const [kind, setKind] = useState<TargetKind>(() =>
    targetKind(communication?.target ?? emptyTarget),
  );
  const [selectedQuestionId, setSelectedQuestionId] = useState<string | null>(
    () => communication?.quiz.questions[0]?.id ?? null,
  );

  const { saved, draft, setDraft, issue, setIssue, handleSave } = useDraftEditor<
    Communication,
    CommunicationDraft,
    DraftIssue
  >({
    record: communication,
    draftOf,
    validate: validateDraft,
    issueCodes,
    save: async (current, before) => {
      const body = bodyOf(current);
      const response = before
        ? await saveMutation.mutateAsync({
            kind: 'update',
            communicationId: before.id,
            body: { ...body, version: before.version },
          })
        : await saveMutation.mutateAsync({ kind: 'create', databaseId, body });
      return response.communication;
    },
    reload: async (before) =>
      (await queryClient.fetchQuery({ ...communicationQueryOptions(before.id), staleTime: 0 }))
        .communication,
    pathOf: (created) => communicationPath(created.id),
    reloadLabel: t('communications.editor.reload'),
    onIssue: (found) => {
      if (found.questionId) setSelectedQuestionId(found.questionId);
    },
    onReset: (nextDraft) => {
      setKind(targetKind(nextDraft.target));
      setSelectedQuestionId((current) =>
        nextDraft.quiz.questions.some((question) => question.id === current)
          ? current
          : (nextDraft.quiz.questions[0]?.id ?? null),
      );
    },
  });

  const timeZone = saved?.time_zone ?? browserTimeZone();
  const state =
    draft.start_day && draft.end_day
      ? communicationState(
          communicationPeriod({ start_day: draft.start_day, end_day: draft.end_day }, timeZone),
          new Date(),
        )
      : null;

  return (
    <>
      <PageHeader
        title={draft.name.trim() || t('communications.editor.newTitle')}
        subtitle={t('areas.communication')}
        actions={
          <>
            <Button
              component={Link}
              to={communicationsPath(databaseId)}
              variant="subtle"
              leftSection={<IconArrowLeft size={16} aria-hidden />}
              data-testid="communication-back"
            >
              {t('communications.back')}
            </Button>
            {saved ? (
              <Button
                component={Link}
                to={communicationStatsPath(saved.id)}
                variant="default"
                leftSection={<IconChartBar size={16} aria-hidden />}
                data-testid="communication-open-stats"
              >
                {t('communications.openStats')}
              </Button>
            ) : null}
            <LoadingButton onClick={handleSave} data-testid="communication-save">
              {t('common.save')}
            </LoadingButton>
          </>
        }
      />
      <Stack gap="md">
        {issue ? (
          <IssueAlert
            title={t('communications.editor.issueTitle')}
            issue={issue}
            onClose={() => setIssue(null)}
            testId="communication-issue"
          />
        ) : null}
        <Card withBorder radius="md">
          <Stack gap="sm">
            <TextInput
              label={t('communications.editor.name')}
              value={draft.name}
              onChange={(event) => {
                const name = event.currentTarget.value;
                setDraft((current) => ({ ...current, name }));
              }}
              maxLength={communicationLimits.nameMax}
              withAsterisk
              error={
                issue?.code === 'communication/name-required'
                  ? t('errors.communication/name-required')
                  : undefined
              }
              data-testid="communication-name"
            />
            <Group align="flex-end" gap="md" wrap="wrap">
              <DateRangePicker
                label={t('communications.editor.dates')}
                value={{ start: draft.start_day, end: draft.end_day }}
                onChange={(range) =>
                  setDraft((current) => ({
                    ...current,
                    start_day: range.start,
                    end_day: range.end,
                  }))
                }
                testId="communication-dates"
              />
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  {t('communications.editor.state')}
                </Text>
                {state ? (
                  <CommunicationStateBadge state={state} testId="communication-editor-state" />
                ) : (
                  <Text size="sm" c="dimmed">
                    —
                  </Text>
                )}
              </Stack>
            </Group>
            <Text size="xs" c="dimmed">
              {t('communications.editor.datesHint')}
            </Text>
            <Switch
              label={t('common.active')}
              checked={draft.active}
              onChange={(event) => {
                const active = event.currentTarget.checked;
                setDraft((current) => ({ ...current, active }));
              }}
              data-testid="communication-active"
            />
          </Stack>
        </Card>
        <AttachmentCard
          attachment={draft.attachment}
          upload={{ purpose: communicationAttachmentPurpose, owner: databaseId }}
          missingMessage={
            issue?.code === 'communication/attachment-required'
              ? t('errors.communication/attachment-required')
              : null
          }
          testIdPrefix="communication-attachment"
          onChange={(attachment: DraftAttachment) => {
            setDraft((current) => ({ ...current, attachment }));
            setIssue((current) =>
              current?.code === 'communication/attachment-required' ? null : current,
            );
          }}
        />
        <TargetingCard
          databaseId={databaseId}
          target={draft.target}
          kind={kind}
          onChange={(target: TargetInput, nextKind: TargetKind) => {
            setKind(nextKind);
            setDraft((current) => ({ ...current, target }));
          }}
        />
        <QuizEditor
          quiz={draft.quiz}
          selectedQuestionId={selectedQuestionId}
          invalid={
            issue?.code === 'communication.no_valid_answer' && issue.questionId
              ? {
                  questionId: issue.questionId,
                  message: t('errors.communication.no_valid_answer'),
                }
              : null
          }
          description={t('communications.quiz.optional')}
          emptyText={t('communications.quiz.empty')}
          testId="communication-quiz"
          onSelect={setSelectedQuestionId}
          onChange={(change: (quiz: Quiz) => Quiz) =>
            setDraft((current) => ({ ...current, quiz: change(current.quiz) }))
          }
        />
      </Stack>
    </>
  );
}
