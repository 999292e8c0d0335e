import { Button, Group, Modal, type ModalProps, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDialogEnterKey } from './use-dialog-enter-key';

type FormDialogProps = {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  primaryLabel: ReactNode;
  onPrimary: () => void;
  /** A disabled primary button is not "valid": Enter does nothing. */
  isPrimaryDisabled?: boolean;
  isPrimaryLoading?: boolean;
  primaryTestId?: string;
  /** Shown above the buttons (a red error label, typically). */
  footer?: ReactNode;
  size?: ModalProps['size'];
  testId?: string;
};

/**
 * The dialog every form uses: closes on Escape, Enter activates the primary
 * button (unless the focus is in a text field), primary spins while it works.
 */
export function FormDialog({
  opened,
  onClose,
  title,
  children,
  primaryLabel,
  onPrimary,
  isPrimaryDisabled = false,
  isPrimaryLoading = false,
  primaryTestId,
  footer,
  size = 'md',
  testId,
}: FormDialogProps) {
  const { t } = useTranslation();
  const isPrimaryEnabled = !isPrimaryDisabled && !isPrimaryLoading;
  const handleKeyDown = useDialogEnterKey(onPrimary, isPrimaryEnabled);

  return (
    <Modal
      opened={opened}
      onClose={isPrimaryLoading ? () => undefined : onClose}
      title={title}
      size={size}
      closeOnEscape
      closeButtonProps={{ 'aria-label': t('common.close') }}
      centered
      data-testid={testId}
    >
      <Stack gap="sm" onKeyDown={handleKeyDown}>
        {children}
        {footer}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose} disabled={isPrimaryLoading}>
            {t('common.cancel')}
          </Button>
          <Button
            onClick={onPrimary}
            loading={isPrimaryLoading}
            disabled={isPrimaryDisabled || isPrimaryLoading}
            data-testid={primaryTestId}
          >
            {primaryLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
