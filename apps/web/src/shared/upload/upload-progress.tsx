import { Button, Group, Progress, Stack, Text } from '@mantine/core';
import { IconPlayerPause, IconPlayerPlay, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatBytes, formatDuration, formatSpeed } from './progress-figures';
import { isResumableError } from './upload-errors';
import type { ResumableUpload } from './use-resumable-upload';

type UploadProgressProps = {
  /** What useResumableUpload() answered. */
  upload: ResumableUpload;
  /** The file's name, read out with the progress (default: the one being sent). */
  fileName?: string;
  testId?: string;
};

/**
 * An upload's progress bar with its percentage, sizes, speed and time left, and Pause/Resume and
 * Cancel. Shown while an upload runs, is paused or stopped by a lost connection.
 */
export function UploadProgress({
  upload,
  fileName,
  testId = 'upload-progress',
}: UploadProgressProps) {
  const { t, i18n } = useTranslation();
  const { state } = upload;
  if (state.status === 'idle') return null;
  const language = i18n.language;
  const ratio = state.bytesTotal > 0 ? Math.min(1, state.bytesSent / state.bytesTotal) : 0;
  const percent = Math.floor(ratio * 100);
  const percentText = new Intl.NumberFormat(language, { style: 'percent' }).format(percent / 100);
  const sizes = t('upload.sizes', {
    sent: formatBytes(state.bytesSent, language),
    total: formatBytes(state.bytesTotal, language),
  });
  const figures = [percentText, sizes];
  if (state.status === 'uploading' && state.speedBytesPerSecond > 0) {
    figures.push(formatSpeed(state.speedBytesPerSecond, language));
  }
  if (state.status === 'uploading' && state.secondsLeft !== null && state.secondsLeft > 0) {
    figures.push(t('upload.timeLeft', { time: formatDuration(state.secondsLeft, language) }));
  }
  if (state.status === 'paused') figures.push(t('upload.paused'));
  const summary = figures.join(' · ');
  const isRunning = state.status === 'uploading' || state.status === 'paused';
  const canResume =
    state.status === 'paused' ||
    (state.status === 'error' && !!state.error && isResumableError(state.error));
  const name = fileName ?? state.fileName;
  const label = name ? t('upload.uploadingFile', { name }) : t('upload.uploading');

  return (
    <Stack gap={4} role="group" aria-label={label} data-testid={testId}>
      <Progress.Root
        size="md"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={summary}
      >
        <Progress.Section
          value={percent}
          withAria={false}
          color={state.status === 'error' ? 'red' : state.status === 'paused' ? 'gray' : undefined}
          animated={state.status === 'uploading'}
        />
      </Progress.Root>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="xs" c="dimmed" data-testid={`${testId}-figures`}>
          {summary}
        </Text>
        <Group gap="xs" wrap="nowrap">
          {state.status === 'uploading' ? (
            <Button
              size="compact-xs"
              variant="light"
              leftSection={<IconPlayerPause size={14} />}
              onClick={upload.pause}
              data-testid={`${testId}-pause`}
            >
              {t('upload.pause')}
            </Button>
          ) : null}
          {canResume ? (
            <Button
              size="compact-xs"
              variant="light"
              leftSection={<IconPlayerPlay size={14} />}
              onClick={upload.resume}
              data-testid={`${testId}-resume`}
            >
              {t('upload.resume')}
            </Button>
          ) : null}
          {isRunning || canResume ? (
            <Button
              size="compact-xs"
              variant="subtle"
              color="red"
              leftSection={<IconX size={14} />}
              onClick={upload.cancel}
              data-testid={`${testId}-cancel`}
            >
              {t('upload.cancel')}
            </Button>
          ) : null}
        </Group>
      </Group>
      {state.status === 'error' && state.error ? (
        <Text size="xs" c="red" role="alert" data-testid={`${testId}-error`}>
          {state.error.message}
        </Text>
      ) : null}
    </Stack>
  );
}
