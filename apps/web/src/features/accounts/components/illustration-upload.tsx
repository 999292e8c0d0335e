import { Avatar, Button, FileButton, Progress, Stack } from '@mantine/core';
import type { User } from '@mise/shared/users/schemas';
import { IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyApiError, notifyErrorCode, saveErrorDurationMs } from '../../../shared/ui/notify';
import {
  illustrationMaxBytes,
  illustrationTypes,
  useUploadUserIllustration,
} from '../api/upload-user-illustration';

type IllustrationUploadProps = {
  user: User;
};

/** The account picture: preview of the chosen file while it uploads, with its progress. */
export function IllustrationUpload({ user }: IllustrationUploadProps) {
  const { t } = useTranslation();
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const [progress, setProgress] = useState(0);
  const uploadMutation = useUploadUserIllustration(user.id, setProgress);
  const fullName = `${user.name} ${user.surname}`.trim();

  function handleFile(file: File | null) {
    if (!file || uploadMutation.isPending) return;
    if (!(illustrationTypes as readonly string[]).includes(file.type)) {
      notifyErrorCode('file/unsupported-type', { autoClose: saveErrorDurationMs });
      return;
    }
    if (file.size > illustrationMaxBytes) {
      notifyErrorCode('file/too-large', { autoClose: saveErrorDurationMs });
      return;
    }
    const url = URL.createObjectURL(file);
    setPreviewUrl(url);
    setProgress(0);
    uploadMutation.mutate(file, {
      onError: (error) => notifyApiError(error, { autoClose: saveErrorDurationMs }),
      onSettled: () => {
        URL.revokeObjectURL(url);
        setPreviewUrl(null);
      },
    });
  }

  return (
    <Stack align="center" gap="xs" w={160}>
      <Avatar
        src={previewUrl ?? user.illustration_url}
        name={fullName}
        color="initials"
        size={120}
        radius={120}
        alt={t('account.illustration')}
        data-testid="account-illustration"
      />
      {uploadMutation.isPending ? (
        <Progress
          value={progress}
          w="100%"
          size="sm"
          animated
          aria-label={t('account.uploading')}
        />
      ) : null}
      <FileButton onChange={handleFile} accept={illustrationTypes.join(',')}>
        {(props) => (
          <Button
            {...props}
            variant="light"
            size="xs"
            leftSection={<IconUpload size={14} />}
            loading={uploadMutation.isPending}
            data-testid="account-illustration-upload"
          >
            {t('account.changeIllustration')}
          </Button>
        )}
      </FileButton>
    </Stack>
  );
}
