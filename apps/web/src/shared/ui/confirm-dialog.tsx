import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ReactNode } from 'react';
import { i18n } from '../i18n/i18n';

type ConfirmDialogOptions = {
  title: ReactNode;
  message: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  isDanger?: boolean;
  onConfirm: () => void;
  /** Called however the dialog is dismissed: the cancel button, Escape, the close button. */
  onCancel?: () => void;
};

/**
 * Asks for confirmation (Mantine modals). The confirm button takes the focus,
 * so Enter confirms and Escape cancels.
 */
export function openConfirmDialog(options: ConfirmDialogOptions): string {
  let isConfirmed = false;
  return modals.openConfirmModal({
    title: options.title,
    children: <Text size="sm">{options.message}</Text>,
    labels: {
      confirm: options.confirmLabel ?? i18n.t('common.confirm'),
      cancel: options.cancelLabel ?? i18n.t('common.cancel'),
    },
    confirmProps: {
      color: options.isDanger ? 'red' : undefined,
      'data-autofocus': true,
      'data-testid': 'confirm-dialog-confirm',
    } as Record<string, unknown>,
    cancelProps: { 'data-testid': 'confirm-dialog-cancel' } as Record<string, unknown>,
    closeOnEscape: true,
    onConfirm: () => {
      isConfirmed = true;
      options.onConfirm();
    },
    // Mantine calls onCancel for the cancel button only; Escape and the close button only close.
    onClose: () => {
      if (!isConfirmed) options.onCancel?.();
    },
  });
}
