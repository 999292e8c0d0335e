import { Badge, Button, Card, FileButton, Group, Stack, Text, Title } from '@mantine/core';
import { attachmentContentTypes } from '@mise/shared/catalogue/constants';
import {
  type CommunicationAttachment,
  type CommunicationAttachmentType,
  communicationLimits,
} from '@mise/shared/communications/schemas';
import { IconDownload, IconFile, IconReplace, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { notifyApiError, notifyErrorCode } from '../ui/notify';
import { isUploadCancelled } from '../upload/upload-errors';
import { UploadProgress } from '../upload/upload-progress';
import { isUploadActive, useResumableUpload } from '../upload/use-resumable-upload';

/** The attachment of an editor's draft: a saved one (with its type and link) or a fresh upload. */
export type DraftAttachment = {
  name: string;
  path: string;
  /** Where to download it; null when unknown. */
  url: string | null;
  type: CommunicationAttachmentType | null;
};

/** A saved attachment as a draft's. */
export function draftAttachmentOf(
  attachment: CommunicationAttachment | null,
): DraftAttachment | null {
  return attachment
    ? { name: attachment.name, path: attachment.path, url: attachment.url, type: attachment.type }
    : null;
}

type UploadResult = { path: string; name: string; url: string };

function isUploadResult(value: unknown): value is UploadResult {
  if (!value || typeof value !== 'object') return false;
  const result = value as Record<string, unknown>;
  return typeof result.path === 'string' && typeof result.name === 'string';
}

type AttachmentCardProps = {
  attachment: DraftAttachment | null;
  /** The resumable upload's purpose and owner (the server builds the storage key from them). */
  upload: { purpose: string; owner: string };
  /** The save refused the draft for a missing attachment: this text shows instead of "none". */
  missingMessage: string | null;
  onChange: (attachment: DraftAttachment) => void;
  /** Test ids: `<prefix>`, `<prefix>-upload`, `-progress`, `-file`, `-name`, `-download`, `-empty`. */
  testIdPrefix: string;
};

/**
 * The attachment of a communication or a training section (spec 002 §2, §5): its name and
 * kind, download, and upload or replace through the resumable upload (progress, pause, resume,
 * cancel). A new file only changes the draft: it is kept by the next Save.
 */
export function AttachmentCard({
  attachment,
  upload: meta,
  missingMessage,
  onChange,
  testIdPrefix,
}: AttachmentCardProps) {
  const { t } = useTranslation();
  const upload = useResumableUpload();
  const isUploading = isUploadActive(upload.state);

  async function handleFile(file: File | null) {
    if (!file || isUploading) return;
    try {
      const outcome = await upload.start(file, meta);
      if (!isUploadResult(outcome.result)) {
        notifyErrorCode('unknown');
        return;
      }
      onChange({
        name: outcome.result.name.slice(0, communicationLimits.attachmentNameMax),
        path: outcome.result.path,
        url: typeof outcome.result.url === 'string' ? outcome.result.url : null,
        // The kind the server will give it (by the file's type), shown until the next read.
        type: attachmentContentTypes[file.type]?.type ?? null,
      });
    } catch (error) {
      if (!isUploadCancelled(error)) notifyApiError(error);
    }
  }

  return (
    <Card withBorder radius="md" data-testid={testIdPrefix}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={2} size="h4">
            {t('content.attachment.title')}
          </Title>
          <FileButton onChange={handleFile} disabled={isUploading}>
            {(props) => (
              <Button
                {...props}
                variant="light"
                size="compact-sm"
                leftSection={
                  attachment ? (
                    <IconReplace size={14} aria-hidden />
                  ) : (
                    <IconUpload size={14} aria-hidden />
                  )
                }
                loading={isUploading}
                data-testid={`${testIdPrefix}-upload`}
              >
                {attachment ? t('content.attachment.replace') : t('content.attachment.upload')}
              </Button>
            )}
          </FileButton>
        </Group>
        {isUploading ? (
          <UploadProgress upload={upload} testId={`${testIdPrefix}-progress`} />
        ) : null}
        {attachment ? (
          <Group gap="xs" wrap="nowrap" data-testid={`${testIdPrefix}-file`}>
            <IconFile size={20} aria-hidden style={{ flex: 'none' }} />
            <Text
              size="sm"
              style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}
              data-testid={`${testIdPrefix}-name`}
            >
              {attachment.name}
            </Text>
            {attachment.type ? (
              <Badge variant="light" color="gray" data-testid={`${testIdPrefix}-type`}>
                {t(`content.attachment.types.${attachment.type}`)}
              </Badge>
            ) : null}
            {attachment.url ? (
              <Button
                component="a"
                href={attachment.url}
                download={attachment.name}
                variant="subtle"
                size="compact-sm"
                leftSection={<IconDownload size={14} aria-hidden />}
                aria-label={t('content.attachment.downloadNamed', { name: attachment.name })}
                data-testid={`${testIdPrefix}-download`}
              >
                {t('content.attachment.download')}
              </Button>
            ) : null}
          </Group>
        ) : (
          <Text
            size="sm"
            c={missingMessage ? 'red' : 'dimmed'}
            data-testid={`${testIdPrefix}-empty`}
          >
            {missingMessage ?? t('content.attachment.none')}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
