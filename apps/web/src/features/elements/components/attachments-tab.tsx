import {
  ActionIcon,
  Badge,
  Button,
  FileButton,
  Group,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import {
  type AttachmentType,
  attachmentContentTypes,
  attachmentNameMaxLength,
  saveErrorToastMs,
} from '@mise/shared/catalogue/constants';
import type { Attachment } from '@mise/shared/catalogue/schemas';
import {
  IconArrowDown,
  IconArrowUp,
  IconDownload,
  IconFileTypePdf,
  IconPencil,
  IconPhoto,
  IconTrash,
  IconUpload,
  IconVideo,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyApiError, notifyErrorCode } from '../../../shared/ui/notify';
import { isUploadCancelled } from '../../../shared/upload/upload-errors';
import { UploadProgress } from '../../../shared/upload/upload-progress';
import { isUploadActive } from '../../../shared/upload/use-resumable-upload';
import type { ElementLevel } from '../api/element-query-keys';
import { getElement } from '../api/get-element';
import { attachmentDownloadUrl } from '../api/upload-element-files';
import { useElementForm } from './element-form-context';
import { FieldStateControl } from './field-state-control';
import { ModuleActiveSwitch } from './module-fields';

const acceptedTypes = Object.keys(attachmentContentTypes).join(',');

/** The resumable upload purposes of element attachments (apps/server/src/modules/uploads). */
const attachmentPurposes: Record<ElementLevel, string> = {
  database: 'database-element-attachment',
  store: 'store-element-attachment',
};

function TypeIcon({ type }: { type: AttachmentType }) {
  if (type === 'image') return <IconPhoto size={18} />;
  if (type === 'video') return <IconVideo size={18} />;
  return <IconFileTypePdf size={18} />;
}

function AttachmentName({
  attachment,
  isEditable,
  onRename,
}: {
  attachment: Attachment;
  isEditable: boolean;
  onRename: (name: string) => void;
}) {
  const { t } = useTranslation();
  const [editedName, setEditedName] = useState<string | null>(null);
  if (editedName === null) {
    return (
      <Group gap={4} wrap="nowrap">
        <Text size="sm" data-testid="attachment-name">
          {attachment.name}
        </Text>
        {isEditable ? (
          <Tooltip label={t('attachment.rename')}>
            <ActionIcon
              variant="subtle"
              size="sm"
              aria-label={t('attachment.rename')}
              onClick={() => setEditedName(attachment.name)}
              data-testid="attachment-rename"
            >
              <IconPencil size={14} />
            </ActionIcon>
          </Tooltip>
        ) : null}
      </Group>
    );
  }
  const commit = () => {
    const name = editedName.trim();
    if (name !== '') onRename(name);
    setEditedName(null);
  };
  return (
    <TextInput
      size="xs"
      value={editedName}
      maxLength={attachmentNameMaxLength}
      aria-label={t('attachment.name')}
      autoFocus
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
      data-testid="attachment-name-input"
    />
  );
}

/**
 * Encyclopedia (spec 001 §2.5, §3.8): upload once the element exists (resumable, up to 500 MB,
 * with progress, pause and cancel), rename, reorder, download and delete. Renames, order and
 * deletions are written by the next Save.
 */
export function AttachmentsTab() {
  const { t } = useTranslation();
  const {
    level,
    draft,
    isFieldReadOnly,
    update,
    elementId,
    runUpload,
    acceptServerElement,
    attachmentUpload: upload,
  } = useElementForm();
  const isUploading = isUploadActive(upload.state);
  const isListReadOnly = isFieldReadOnly('attachments');
  const attachments = draft.attachments;
  const firstOwn = attachments.findIndex((attachment) => !attachment.inherited);

  function setAttachments(change: (current: Attachment[]) => Attachment[]) {
    update((current) => ({ ...current, attachments: change(current.attachments) }));
  }

  function move(from: number, to: number) {
    setAttachments((current) => {
      const next = [...current];
      const [item] = next.splice(from, 1);
      if (item) next.splice(to, 0, item);
      return next;
    });
  }

  async function handleFile(file: File | null) {
    if (!file || !elementId || isUploading) return;
    if (!attachmentContentTypes[file.type]) {
      notifyErrorCode('file/unsupported-type', { autoClose: saveErrorToastMs });
      return;
    }
    try {
      // The attachment is added on the server's current element; the element read again
      // brings it with its new version (as the plain upload's answer did).
      const element = await runUpload(async () => {
        await upload.start(file, { purpose: attachmentPurposes[level], owner: elementId });
        return getElement(level, elementId);
      });
      acceptServerElement(element);
    } catch (error) {
      if (!isUploadCancelled(error)) notifyApiError(error, { autoClose: saveErrorToastMs });
    }
  }

  return (
    <Stack gap="sm">
      <ModuleActiveSwitch field="encyclopedia_extension_active" />
      <Group justify="space-between">
        <Group gap="xs">
          <Text fw={500}>{t('attachment.title')}</Text>
          <FieldStateControl field="attachments" />
        </Group>
        <FileButton
          onChange={handleFile}
          accept={acceptedTypes}
          disabled={!elementId || isListReadOnly || isUploading}
        >
          {(props) => (
            <Button
              {...props}
              size="xs"
              variant="light"
              leftSection={<IconUpload size={14} />}
              loading={isUploading}
              disabled={!elementId || isListReadOnly}
              data-testid="attachment-upload"
            >
              {t('attachment.upload')}
            </Button>
          )}
        </FileButton>
      </Group>
      {elementId ? null : (
        <Text size="xs" c="dimmed" data-testid="attachment-save-first">
          {t('element.saveFirst')}
        </Text>
      )}
      {isUploading ? <UploadProgress upload={upload} testId="attachment-upload-progress" /> : null}
      {attachments.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('attachment.empty')}
        </Text>
      ) : (
        <Table verticalSpacing="xs" data-testid="attachments-table">
          <Table.Tbody>
            {attachments.map((attachment, position) => {
              const isEditable = !attachment.inherited && !isListReadOnly;
              return (
                <Table.Tr key={attachment.id} data-testid="attachment-row">
                  <Table.Td w={32}>
                    <TypeIcon type={attachment.type} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <AttachmentName
                        attachment={attachment}
                        isEditable={isEditable}
                        onRename={(name) =>
                          setAttachments((current) =>
                            current.map((item) =>
                              item.id === attachment.id ? { ...item, name } : item,
                            ),
                          )
                        }
                      />
                      {attachment.inherited ? (
                        <Badge size="xs" variant="light">
                          {t('element.states.inherited')}
                        </Badge>
                      ) : null}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap" justify="flex-end">
                      {isEditable ? (
                        <>
                          <ActionIcon
                            variant="subtle"
                            aria-label={t('element.moveUp')}
                            disabled={position <= firstOwn}
                            onClick={() => move(position, position - 1)}
                            data-testid="attachment-up"
                          >
                            <IconArrowUp size={16} />
                          </ActionIcon>
                          <ActionIcon
                            variant="subtle"
                            aria-label={t('element.moveDown')}
                            disabled={position === attachments.length - 1}
                            onClick={() => move(position, position + 1)}
                            data-testid="attachment-down"
                          >
                            <IconArrowDown size={16} />
                          </ActionIcon>
                        </>
                      ) : null}
                      <Tooltip label={t('attachment.download')}>
                        <ActionIcon
                          component="a"
                          href={attachmentDownloadUrl(attachment.id)}
                          download={attachment.name}
                          variant="subtle"
                          aria-label={t('attachment.download')}
                          data-testid="attachment-download"
                        >
                          <IconDownload size={16} />
                        </ActionIcon>
                      </Tooltip>
                      {isEditable ? (
                        <Tooltip label={t('attachment.delete')}>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={t('attachment.delete')}
                            onClick={() =>
                              setAttachments((current) =>
                                current.filter((item) => item.id !== attachment.id),
                              )
                            }
                            data-testid="attachment-delete"
                          >
                            <IconTrash size={16} />
                          </ActionIcon>
                        </Tooltip>
                      ) : null}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      {attachments.length > 0 ? (
        <Text size="xs" c="dimmed">
          {t('attachment.savedWithElement')}
        </Text>
      ) : null}
    </Stack>
  );
}
