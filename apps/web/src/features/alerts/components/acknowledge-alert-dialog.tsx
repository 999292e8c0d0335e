import { Chip, Group, Stack, Text, Textarea } from '@mantine/core';
import { correctiveActionMaxLength } from '@mise/shared/probes/alert-rules';
import type { AlertEpisode } from '@mise/shared/probes/alerts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../shared/i18n/error-message';
import { ErrorText } from '../../../shared/ui/error-text';
import { FormDialog } from '../../../shared/ui/form-dialog';
import { notifySuccess } from '../../../shared/ui/notify';
import { useAcknowledgeAlert } from '../api/acknowledge-alert';
import { episodeTitle, formatAlertTime } from './alert-format';
import { AlertKindBadge } from './alert-kind-badge';

/** What is usually done; a chip writes its words into the text, which stays free to edit. */
export const correctiveActionPresets = [
  'productMoved',
  'productDiscarded',
  'repairCalled',
  'doorClosed',
] as const;

const separator = '. ';

/** The sentences of the text ("Product moved. Door closed" → two). */
function actionParts(text: string): string[] {
  return text
    .split(/\.\s+|\.$/)
    .map((part) => part.trim())
    .filter(Boolean);
}

/** The text with a preset's words added at its end, or taken out of it. */
export function togglePreset(text: string, preset: string): string {
  const parts = actionParts(text);
  const next = parts.includes(preset)
    ? parts.filter((part) => part !== preset)
    : [...parts, preset];
  return next.join(separator);
}

type AcknowledgeAlertDialogProps = {
  alert: AlertEpisode;
  onClose: () => void;
  /** The store's zone for "since"; the browser's without one. */
  timeZone?: string;
};

/**
 * Acknowledges an episode with the corrective action taken (required, free text; the preset
 * chips prefill it). Shared by the home page's alerts panel and the probe page's episodes.
 * Mounted only while open, so every opening starts empty.
 */
export function AcknowledgeAlertDialog({ alert, onClose, timeZone }: AcknowledgeAlertDialogProps) {
  const { t } = useTranslation();
  const [correctiveAction, setCorrectiveAction] = useState('');
  const [isMissing, setIsMissing] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const mutation = useAcknowledgeAlert(alert.id);
  const chosen = actionParts(correctiveAction);
  const presetTexts = correctiveActionPresets.map((key) => ({
    key,
    text: t(`alerts.presets.${key}`),
  }));

  async function handleSubmit() {
    const text = correctiveAction.trim();
    setIsMissing(!text);
    setRefusal(null);
    if (!text) return;
    try {
      await mutation.mutateAsync(text);
      notifySuccess(t('alerts.dialog.done'));
      onClose();
    } catch (error) {
      // alert/already-acknowledged: someone was quicker; the list behind now shows who.
      setRefusal(errorMessage(t, error));
    }
  }

  return (
    <FormDialog
      opened
      onClose={onClose}
      title={t('alerts.dialog.title')}
      primaryLabel={t('alerts.acknowledge')}
      onPrimary={handleSubmit}
      isPrimaryLoading={mutation.isPending}
      primaryTestId="alert-acknowledge-submit"
      footer={<ErrorText testId="alert-acknowledge-error">{refusal}</ErrorText>}
      testId="alert-acknowledge-dialog"
    >
      <Group gap="xs" wrap="wrap">
        <AlertKindBadge kind={alert.kind} />
        <Text fw={600} size="sm">
          {episodeTitle(alert)}
        </Text>
        <Text size="sm" c="dimmed">
          {t('alerts.since', { time: formatAlertTime(alert.startedAt, timeZone) })}
        </Text>
      </Group>
      <Stack gap={6}>
        <Text size="sm" fw={500} id="alert-presets-label">
          {t('alerts.dialog.presets')}
        </Text>
        <Group gap="xs" wrap="wrap" role="group" aria-labelledby="alert-presets-label">
          {presetTexts.map(({ key, text }) => (
            <Chip
              key={key}
              size="sm"
              checked={chosen.includes(text)}
              onChange={() => {
                setCorrectiveAction((current) => togglePreset(current, text));
                setIsMissing(false);
              }}
              data-testid={`alert-preset-${key}`}
            >
              {text}
            </Chip>
          ))}
        </Group>
      </Stack>
      <Textarea
        label={t('alerts.dialog.correctiveAction')}
        description={t('alerts.dialog.hint')}
        required
        rows={4}
        maxLength={correctiveActionMaxLength}
        value={correctiveAction}
        onChange={(event) => {
          setCorrectiveAction(event.currentTarget.value);
          setIsMissing(false);
        }}
        error={isMissing ? t('alerts.dialog.required') : undefined}
        data-autofocus
        data-testid="alert-corrective-action"
      />
    </FormDialog>
  );
}
