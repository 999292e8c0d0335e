import { Card, Group, Paper, Stack, Text, Title } from '@mantine/core';
import {
  effectiveRetentionMonths,
  maxRetentionMonths,
  type RetentionRecordType,
  type RetentionResponse,
  retentionRecordTypes,
} from '@mise/shared/records/retention';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format/date';
import { errorMessage } from '../../../shared/i18n/error-message';
import { LoadingButton } from '../../../shared/ui/loading-button';
import { notifyError, notifySuccess, saveErrorDurationMs } from '../../../shared/ui/notify';
import { NumericInput } from '../../../shared/ui/numeric-input';
import { QueryContent } from '../../../shared/ui/query-content';
import { useRecordDraft } from '../../../shared/ui/use-record-draft';
import { useUnsavedChangesPrompt } from '../../../shared/ui/use-unsaved-changes-prompt';
import { useRetention } from '../api/get-retention';
import { useUpdateRetention } from '../api/update-retention';
import {
  changedRetention,
  type RetentionFieldError,
  retentionFieldErrors,
  retentionValues,
} from './retention-draft';
import { RetentionRemovals } from './retention-removals';

export type RetentionEditorProps = { databaseId: string };

/**
 * The Retention tab of a database (issue 21): how long each type of record is kept, within its
 * legal minimum, and the latest removals of the daily job in the database's stores.
 */
export function RetentionEditor({ databaseId }: RetentionEditorProps) {
  const { t } = useTranslation();
  const query = useRetention(databaseId);
  return (
    <QueryContent query={query} isEmpty={() => false} emptyTitle={t('retention.title')}>
      {(data) => (
        <Stack gap="lg">
          <RetentionForm databaseId={databaseId} data={data} />
          <RetentionRemovals removals={data.removals} />
        </Stack>
      )}
    </QueryContent>
  );
}

type RetentionFormProps = { databaseId: string; data: RetentionResponse };

function RetentionForm({ databaseId, data }: RetentionFormProps) {
  const { t } = useTranslation();
  // A new read keeps what the user typed; a save's answer replaces it (adopt).
  const { values, setValues, isDirty, adopt } = useRecordDraft(data, retentionValues);
  const [errors, setErrors] = useState<Partial<Record<RetentionRecordType, RetentionFieldError>>>(
    {},
  );
  const updateMutation = useUpdateRetention(databaseId);
  useUnsavedChangesPrompt(isDirty);

  function fieldErrorText(error: RetentionFieldError): string {
    return error === 'too-long'
      ? t('retention.tooLong', { max: maxRetentionMonths })
      : t(`errors.${error}`);
  }

  function handleChange(type: RetentionRecordType, months: number | null) {
    setValues((current) => ({ ...current, [type]: months }));
    setErrors(({ [type]: _cleared, ...others }) => others);
  }

  function handleSave() {
    const body = changedRetention(values, data);
    const refused = retentionFieldErrors(body);
    setErrors(refused);
    const firstType = retentionRecordTypes.find((type) => refused[type] !== undefined);
    const firstError = firstType === undefined ? undefined : refused[firstType];
    if (firstError !== undefined) {
      notifyError(fieldErrorText(firstError), { autoClose: saveErrorDurationMs });
      return;
    }
    if (Object.keys(body).length === 0) return;
    updateMutation.mutate(body, {
      onSuccess: (saved) => {
        adopt(saved);
        notifySuccess(t('common.savedSuccessfully'));
      },
      onError: (error) => notifyError(errorMessage(t, error), { autoClose: saveErrorDurationMs }),
    });
  }

  /** What the job applies: the stored value, or the one typed once it is a valid change. */
  function effectiveText(type: RetentionRecordType): string {
    const stored = data.types[type];
    const value = values[type];
    const isValidChange =
      value !== stored.months && retentionFieldErrors({ [type]: value })[type] === undefined;
    const months = isValidChange
      ? effectiveRetentionMonths(type, value, stored.defaultMonths)
      : stored.effective;
    return months === null
      ? t('retention.keptUntilDeleted')
      : t('retention.kept', { count: months });
  }

  return (
    <Card withBorder radius="md" data-testid="retention-editor">
      <Group justify="space-between" align="flex-start" mb="sm" gap="sm">
        <Title order={4}>{t('retention.title')}</Title>
        {data.editable ? (
          <LoadingButton
            onClick={handleSave}
            loading={updateMutation.isPending}
            disabled={!isDirty}
            data-testid="retention-save"
          >
            {t('common.save')}
          </LoadingButton>
        ) : (
          <Text size="sm" c="dimmed" data-testid="retention-read-only">
            {t('retention.readOnly')}
          </Text>
        )}
      </Group>
      <Stack gap={4} mb="md" data-testid="retention-explanation">
        <Text size="sm">{t('retention.explanation')}</Text>
        <Text size="sm">{t('retention.archiveHint')}</Text>
      </Stack>
      <Stack gap="sm">
        {retentionRecordTypes.map((type) => {
          const stored = data.types[type];
          const error = errors[type];
          return (
            <Paper key={type} withBorder p="sm" radius="sm" data-testid={`retention-row-${type}`}>
              <Group justify="space-between" align="center" gap="sm" wrap="wrap">
                <NumericInput
                  label={t(`retention.types.${type}`)}
                  description={
                    <>
                      <span data-testid={`retention-default-${type}`}>
                        {stored.defaultMonths === null
                          ? t('retention.defaultUntilDeleted')
                          : t('retention.default', { count: stored.defaultMonths })}
                      </span>
                      {' · '}
                      <span data-testid={`retention-minimum-${type}`}>
                        {t('retention.minimum', { count: stored.minimum })}
                      </span>
                    </>
                  }
                  placeholder={t('retention.placeholder')}
                  value={values[type]}
                  onChange={(months) => handleChange(type, months)}
                  min={1}
                  max={maxRetentionMonths}
                  clampBehavior="none"
                  allowDecimal={false}
                  allowNegative={false}
                  readOnly={!data.editable}
                  error={error === undefined ? undefined : fieldErrorText(error)}
                  rightSection={
                    <Text size="xs" c="dimmed" aria-hidden>
                      {t('retention.monthsUnit')}
                    </Text>
                  }
                  rightSectionWidth={56}
                  rightSectionPointerEvents="none"
                  hideControls
                  style={{ flex: '1 1 260px', maxWidth: 420 }}
                  data-testid={`retention-input-${type}`}
                />
                <Text
                  size="sm"
                  fw={500}
                  style={{ flex: '0 1 auto' }}
                  data-testid={`retention-effective-${type}`}
                >
                  {effectiveText(type)}
                </Text>
              </Group>
            </Paper>
          );
        })}
      </Stack>
      {data.updated_at ? (
        <Text size="xs" c="dimmed" mt="sm" data-testid="retention-updated-at">
          {t('retention.updatedAt', { time: formatDateTime(data.updated_at) })}
        </Text>
      ) : null}
    </Card>
  );
}
