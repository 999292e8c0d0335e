import { Avatar, Button, FileButton, Progress, Stack } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyApiError, notifyErrorCode, saveErrorDurationMs } from './notify';

export const imageTypes = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const imageMaxBytes = 5 * 1024 * 1024;

type ImageUploadProps = {
  imageUrl: string | null;
  /** Initials shown while there is no image. */
  name: string;
  label: string;
  /** Sends the file; reports progress in percent. */
  onUpload: (file: File, onProgress: (percent: number) => void) => Promise<unknown>;
  isDisabled?: boolean;
  isSquare?: boolean;
  testId: string;
};

/** A picture (logo, illustration, screen saver) with an upload button, preview and progress. */
export function ImageUpload({
  imageUrl,
  name,
  label,
  onUpload,
  isDisabled = false,
  isSquare = false,
  testId,
}: ImageUploadProps) {
  const { t } = useTranslation();
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const [progress, setProgress] = useState(0);
  const [isUploading, setIsUploading] = useState(false);

  async function handleFile(file: File | null) {
    if (!file || isUploading) return;
    if (!(imageTypes as readonly string[]).includes(file.type)) {
      notifyErrorCode('file/unsupported-type', { autoClose: saveErrorDurationMs });
      return;
    }
    if (file.size > imageMaxBytes) {
      notifyErrorCode('file/too-large', { autoClose: saveErrorDurationMs });
      return;
    }
    const url = URL.createObjectURL(file);
    setPreviewUrl(url);
    setProgress(0);
    setIsUploading(true);
    try {
      await onUpload(file, setProgress);
    } catch (error) {
      notifyApiError(error, { autoClose: saveErrorDurationMs });
    } finally {
      URL.revokeObjectURL(url);
      setPreviewUrl(null);
      setIsUploading(false);
    }
  }

  return (
    <Stack align="center" gap="xs" w={160}>
      <Avatar
        src={previewUrl ?? imageUrl}
        name={name}
        color="initials"
        size={120}
        radius={isSquare ? 'md' : 120}
        alt={label}
        data-testid={testId}
      />
      {isUploading ? (
        <Progress value={progress} w="100%" size="sm" animated aria-label={t('upload.uploading')} />
      ) : null}
      <FileButton onChange={handleFile} accept={imageTypes.join(',')} disabled={isDisabled}>
        {(props) => (
          <Button
            {...props}
            variant="light"
            size="xs"
            leftSection={<IconUpload size={14} />}
            loading={isUploading}
            disabled={isDisabled}
            data-testid={`${testId}-upload`}
          >
            {label}
          </Button>
        )}
      </FileButton>
    </Stack>
  );
}
