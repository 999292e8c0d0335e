import { Button, Group, Modal, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

type MessageDialogProps = {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  message: ReactNode;
  /** 'error' shows the message in red. */
  kind?: 'information' | 'error';
  testId?: string;
};

/** An information or error dialog with one Ok button (Enter and Escape close it). */
export function MessageDialog({
  opened,
  onClose,
  title,
  message,
  kind = 'information',
  testId = 'message-dialog',
}: MessageDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered closeOnEscape>
      <Text size="sm" c={kind === 'error' ? 'red' : undefined} data-testid={testId} role="alert">
        {message}
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button onClick={onClose} data-autofocus data-testid={`${testId}-ok`}>
          {t('common.ok')}
        </Button>
      </Group>
    </Modal>
  );
}
