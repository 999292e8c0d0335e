import { Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import { IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../../shared/ui/notify';

type LoginTokenDialogProps = {
  token: string | null;
  onClose: () => void;
};

/** Shows a created login token with a copy-to-clipboard button. */
export function LoginTokenDialog({ token, onClose }: LoginTokenDialogProps) {
  const { t } = useTranslation();

  async function handleCopy() {
    if (!token) return;
    try {
      await navigator.clipboard.writeText(token);
      notifySuccess(t('account.tokenCopied'));
    } catch {
      notifyError(t('account.tokenCopyFailed'));
    }
  }

  return (
    <Modal
      opened={token !== null}
      onClose={onClose}
      title={t('account.tokenTitle')}
      centered
      closeOnEscape
    >
      <Stack gap="sm">
        <Text size="sm">{t('account.tokenExplanation')}</Text>
        <Code
          block
          data-testid="login-token"
          style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}
        >
          {token}
        </Code>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.close')}
          </Button>
          <Button
            leftSection={<IconCopy size={16} />}
            onClick={handleCopy}
            data-autofocus
            data-testid="login-token-copy"
          >
            {t('account.copyToken')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
