import { ActionIcon, Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { IconLock, IconUpload, IconX } from '@tabler/icons-react';
import { type DragEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MessageDialog } from '../../../shared/ui/message-dialog';
import { UploadProgress } from '../../../shared/upload/upload-progress';
import type { QueuedUpload, UploadQueue } from './use-upload-queue';

type UploadAreaProps = {
  queue: UploadQueue;
  /** Whether the caller may upload into this folder (spec 002 §5). */
  isWritable: boolean;
  /** Queues files for the folder on screen. */
  onFiles: (files: File[]) => void;
};

const refusalKeys = {
  'documents.file-too-big': 'documents.fileTooBig',
  'documents.file-exists': 'documents.fileExists',
} as const;

/**
 * The upload area: files dropped on it or chosen with Upload (several at once) join the queue;
 * locked where the caller may not write. Below it, each queued file with its state, the one
 * uploading with its progress, pause, resume and cancel.
 */
export function UploadArea({ queue, isWritable, onFiles }: UploadAreaProps) {
  const { t } = useTranslation();
  const [isDragging, setIsDragging] = useState(false);
  const { refusal } = queue;

  const handleDragOver = (event: DragEvent<HTMLDivElement>) => {
    if (!isWritable) return;
    event.preventDefault();
    setIsDragging(true);
  };
  const handleDrop = (event: DragEvent<HTMLDivElement>) => {
    setIsDragging(false);
    if (!isWritable) return;
    event.preventDefault();
    const files = Array.from(event.dataTransfer.files);
    if (files.length > 0) onFiles(files);
  };

  return (
    <Stack gap="xs" mb="md">
      {isWritable ? (
        <Group
          className="documents-dropzone"
          data-dragging={isDragging}
          justify="space-between"
          gap="sm"
          onDragOver={handleDragOver}
          onDragLeave={() => setIsDragging(false)}
          onDrop={handleDrop}
          data-testid="document-dropzone"
        >
          <Text size="sm" c="dimmed" style={{ flex: '1 1 12rem' }}>
            {t('documents.dropHint')}
          </Text>
          <FileButton onChange={onFiles} multiple>
            {(props) => (
              <Button
                {...props}
                leftSection={<IconUpload size={16} aria-hidden />}
                data-testid="document-upload"
              >
                {t('documents.upload')}
              </Button>
            )}
          </FileButton>
        </Group>
      ) : (
        <Group className="documents-dropzone" gap="sm" wrap="nowrap" data-testid="upload-locked">
          <IconLock size={18} aria-hidden />
          <Text size="sm" c="dimmed">
            {t('documents.uploadLocked')}
          </Text>
        </Group>
      )}
      {queue.entries.length > 0 ? <UploadQueueList queue={queue} /> : null}
      <MessageDialog
        opened={refusal !== null}
        onClose={queue.dismissRefusal}
        title={refusal?.fileName ?? ''}
        message={refusal ? t(refusalKeys[refusal.code]) : ''}
        testId="document-upload-refused"
      />
    </Stack>
  );
}

function UploadQueueList({ queue }: { queue: UploadQueue }) {
  const { t } = useTranslation();
  const hasFinished = queue.entries.some(
    (entry) => entry.status !== 'waiting' && entry.status !== 'uploading',
  );
  return (
    <Stack gap={6} data-testid="upload-queue">
      <Group justify="space-between">
        <Text size="sm" fw={500}>
          {t('documents.queue.title')}
        </Text>
        {hasFinished ? (
          <Button variant="subtle" size="compact-sm" onClick={queue.clearFinished}>
            {t('documents.queue.clear')}
          </Button>
        ) : null}
      </Group>
      {queue.entries.map((entry) => (
        <QueueEntry key={entry.key} entry={entry} queue={queue} />
      ))}
    </Stack>
  );
}

function QueueEntry({ entry, queue }: { entry: QueuedUpload; queue: UploadQueue }) {
  const { t } = useTranslation();
  const { upload } = queue;
  return (
    <div data-testid="upload-entry" data-status={entry.status}>
      <Group gap="xs" wrap="nowrap" justify="space-between">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {entry.file.name}
        </Text>
        {entry.status === 'uploading' ? null : (
          <Group gap={4} wrap="nowrap">
            <Text
              size="xs"
              c={entry.status === 'failed' ? 'red' : 'dimmed'}
              data-testid="upload-entry-status"
            >
              {entry.status === 'failed' && entry.errorCode
                ? t(`errors.${entry.errorCode}`, { defaultValue: t('documents.queue.failed') })
                : t(`documents.queue.${entry.status}`)}
            </Text>
            {entry.status === 'waiting' ? (
              <ActionIcon
                variant="subtle"
                color="gray"
                size="sm"
                aria-label={t('documents.queue.remove', { name: entry.file.name })}
                onClick={() => queue.remove(entry.key)}
              >
                <IconX size={14} aria-hidden />
              </ActionIcon>
            ) : null}
          </Group>
        )}
      </Group>
      {entry.status === 'uploading' ? (
        <UploadProgress upload={upload} fileName={entry.file.name} />
      ) : null}
    </div>
  );
}
