import {
  ActionIcon,
  Button,
  FileButton,
  Group,
  Image,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import {
  attachmentContentTypes,
  attachmentNameMaxLength,
  saveErrorToastMs,
} from '@mise/shared/catalogue/constants';
import { IconDownload, IconFile, IconPencil, IconTrash, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { openConfirmDialog } from '../../../shared/ui/confirm-dialog';
import { notifyApiError, notifyErrorCode } from '../../../shared/ui/notify';
import { isUploadCancelled } from '../../../shared/upload/upload-errors';
import { UploadProgress } from '../../../shared/upload/upload-progress';
import { isUploadActive, useResumableUpload } from '../../../shared/upload/use-resumable-upload';
import type { TaskConfigurationLevel } from '../api/task-configuration-query-keys';
import type { ActionDraft } from './task-configuration-form';

export type ActionAttachment = ActionDraft['attachments'][number];

/** The contract's limit (packages/shared/src/tasks/schemas.ts actionSchema: attachments max 10). */
export const maxAttachmentsPerAction = 10;
/** Spec 001 §9: attachment names are shown cut to 20 characters. */
export const attachmentNameDisplayLength = 20;

/** The resumable upload purposes of action attachments (owner: the database or store id). */
const taskAttachmentPurposes: Record<TaskConfigurationLevel, string> = {
  database: 'database-task-attachment',
  store: 'store-task-attachment',
};

const acceptedTypes = Object.keys(attachmentContentTypes).join(',');
const imageExtensions = new Set(
  Object.values(attachmentContentTypes)
    .filter((entry) => entry.type === 'image')
    .flatMap((entry) => (entry.extension === 'jpg' ? ['jpg', 'jpeg'] : [entry.extension])),
);

/** The name as the list shows it: at most 20 characters, then an ellipsis. */
export function truncateAttachmentName(name: string): string {
  const characters = Array.from(name);
  if (characters.length <= attachmentNameDisplayLength) return name;
  return `${characters.slice(0, attachmentNameDisplayLength).join('')}…`;
}

/** A stored file as the files endpoint serves it: /api/files/<path>. */
export function attachmentFileUrl(path: string): string {
  return `/api/files/${path.split('/').map(encodeURIComponent).join('/')}`;
}

function isImagePath(path: string): boolean {
  const extension = path.split('.').pop()?.toLowerCase() ?? '';
  return imageExtensions.has(extension);
}

function isUploadResult(value: unknown): value is { path: string; name: string } {
  if (!value || typeof value !== 'object') return false;
  const result = value as Record<string, unknown>;
  return typeof result.path === 'string' && typeof result.name === 'string';
}

function AttachmentRow({
  attachment,
  isReadOnly,
  onRename,
  onRemove,
}: {
  attachment: ActionAttachment;
  isReadOnly: boolean;
  onRename: (name: string) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const [editedName, setEditedName] = useState<string | null>(null);
  const url = attachmentFileUrl(attachment.path);
  const names = { name: attachment.name };

  const commit = () => {
    const name = (editedName ?? '').trim();
    if (name !== '' && name !== attachment.name) onRename(name);
    setEditedName(null);
  };

  function confirmRemove() {
    openConfirmDialog({
      title: t('taskAttachments.removeTitle'),
      message: t('taskAttachments.removeMessage', names),
      confirmLabel: t('taskAttachments.removeConfirm'),
      isDanger: true,
      onConfirm: onRemove,
    });
  }

  return (
    <Group gap="xs" wrap="nowrap" data-testid="action-attachment">
      {isImagePath(attachment.path) ? (
        <Image
          src={`${url}?size=thumb`}
          alt={attachment.name}
          w={32}
          h={32}
          radius="sm"
          fit="cover"
          data-testid="action-attachment-thumbnail"
        />
      ) : (
        <IconFile size={20} aria-hidden="true" style={{ flex: 'none', margin: 6 }} />
      )}
      {editedName === null ? (
        <Text
          size="sm"
          title={attachment.name}
          style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}
          data-testid="action-attachment-name"
        >
          {truncateAttachmentName(attachment.name)}
        </Text>
      ) : (
        <TextInput
          size="xs"
          value={editedName}
          maxLength={attachmentNameMaxLength}
          aria-label={t('taskAttachments.name')}
          autoFocus
          style={{ flex: 1, minWidth: 0 }}
          onChange={(event) => setEditedName(event.currentTarget.value)}
          onBlur={commit}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              commit();
            } else if (event.key === 'Escape') {
              event.stopPropagation();
              setEditedName(null);
            }
          }}
          data-testid="action-attachment-name-input"
        />
      )}
      <Group gap={2} wrap="nowrap">
        <Tooltip label={t('taskAttachments.download', names)}>
          <ActionIcon
            component="a"
            href={url}
            download={attachment.name}
            variant="subtle"
            aria-label={t('taskAttachments.download', names)}
            data-testid="action-attachment-download"
          >
            <IconDownload size={16} />
          </ActionIcon>
        </Tooltip>
        {isReadOnly ? null : (
          <>
            <Tooltip label={t('taskAttachments.rename', names)}>
              <ActionIcon
                variant="subtle"
                aria-label={t('taskAttachments.rename', names)}
                onClick={() => setEditedName(attachment.name)}
                data-testid="action-attachment-rename"
              >
                <IconPencil size={16} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t('taskAttachments.remove', names)}>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t('taskAttachments.remove', names)}
                onClick={confirmRemove}
                data-testid="action-attachment-remove"
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          </>
        )}
      </Group>
    </Group>
  );
}

type ActionAttachmentsProps = {
  /** The action's number, for the labels (1-based). */
  index: number;
  attachments: readonly ActionAttachment[];
  level: TaskConfigurationLevel;
  /** The database (database level) or store (store level) the files are stored under. */
  ownerId: string;
  /** The configuration's content is locked for the store, or the form is read-only. */
  isReadOnly: boolean;
  onAdd: (attachment: ActionAttachment) => void;
  onRename: (position: number, name: string) => void;
  onRemove: (position: number) => void;
};

/**
 * The attachments of one action (spec 001 §3.6, §9): a resumable upload (images, PDF, videos,
 * 500 MB at most) under the level's task_configurations_attachments folder, then rename,
 * remove and download. The list is part of the configuration: every change is saved with it.
 */
export function ActionAttachments({
  index,
  attachments,
  level,
  ownerId,
  isReadOnly,
  onAdd,
  onRename,
  onRemove,
}: ActionAttachmentsProps) {
  const { t } = useTranslation();
  const upload = useResumableUpload();
  const isUploading = isUploadActive(upload.state);
  const isFull = attachments.length >= maxAttachmentsPerAction;

  async function handleFile(file: File | null) {
    if (!file || isUploading || isFull || !ownerId) return;
    if (!attachmentContentTypes[file.type]) {
      notifyErrorCode('file/unsupported-type', { autoClose: saveErrorToastMs });
      return;
    }
    try {
      const outcome = await upload.start(file, {
        purpose: taskAttachmentPurposes[level],
        owner: ownerId,
      });
      if (!isUploadResult(outcome.result)) {
        notifyErrorCode('unknown', { autoClose: saveErrorToastMs });
        return;
      }
      onAdd({
        name: outcome.result.name.slice(0, attachmentNameMaxLength),
        path: outcome.result.path,
      });
    } catch (error) {
      if (!isUploadCancelled(error)) notifyApiError(error, { autoClose: saveErrorToastMs });
    }
  }

  if (isReadOnly && attachments.length === 0) return null;

  return (
    <Stack gap={4} pl="xs" data-testid="action-attachments">
      <Group gap="xs" justify="space-between" wrap="wrap">
        <Text size="xs" c="dimmed">
          {t('taskAttachments.title', {
            index,
            count: attachments.length,
            max: maxAttachmentsPerAction,
          })}
        </Text>
        {isReadOnly ? null : (
          <FileButton
            onChange={handleFile}
            accept={acceptedTypes}
            disabled={isUploading || isFull || !ownerId}
          >
            {(props) => (
              <Button
                {...props}
                size="compact-xs"
                variant="light"
                leftSection={<IconUpload size={14} />}
                loading={isUploading}
                disabled={isFull || !ownerId}
                aria-label={t('taskAttachments.uploadFor', { index })}
                data-testid="action-attachment-upload"
              >
                {t('taskAttachments.upload')}
              </Button>
            )}
          </FileButton>
        )}
      </Group>
      {isFull && !isReadOnly ? (
        <Text size="xs" c="dimmed" data-testid="action-attachments-full">
          {t('taskAttachments.limit', { max: maxAttachmentsPerAction })}
        </Text>
      ) : null}
      {isUploading ? (
        <UploadProgress upload={upload} testId="action-attachment-upload-progress" />
      ) : null}
      {attachments.map((attachment, position) => (
        <AttachmentRow
          key={attachment.path}
          attachment={attachment}
          isReadOnly={isReadOnly}
          onRename={(name) => onRename(position, name)}
          onRemove={() => onRemove(position)}
        />
      ))}
      {attachments.length > 0 && !isReadOnly ? (
        <Text size="xs" c="dimmed">
          {t('taskAttachments.savedWithTask')}
        </Text>
      ) : null}
    </Stack>
  );
}
