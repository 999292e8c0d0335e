import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';

/**
 * Leaving with unsaved changes asks for confirmation (spec 001 §2.5, §2.6, key unsaved-changes):
 * in-app navigations through react-router's blocker, closing or reloading the tab through
 * `beforeunload`. `suppress()` lets the next navigation through (after a save).
 */
export function useUnsavedChangesPrompt(isDirty: boolean) {
  const { t } = useTranslation();
  const isDirtyRef = useRef(isDirty);
  const isSuppressedRef = useRef(false);
  isDirtyRef.current = isDirty;

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      isDirtyRef.current &&
      !isSuppressedRef.current &&
      (currentLocation.pathname !== nextLocation.pathname ||
        currentLocation.search !== nextLocation.search),
  );

  const openedFor = useRef<typeof blocker | null>(null);
  useEffect(() => {
    if (blocker.state !== 'blocked') {
      openedFor.current = null;
      return;
    }
    if (openedFor.current === blocker) return;
    openedFor.current = blocker;
    let isLeaving = false;
    modals.openConfirmModal({
      title: t('dialog.unsavedTitle'),
      children: <Text size="sm">{t('errors.unsaved-changes')}</Text>,
      labels: { confirm: t('dialog.yes'), cancel: t('dialog.no') },
      confirmProps: { 'data-testid': 'confirm-dialog-confirm' } as Record<string, unknown>,
      cancelProps: {
        'data-autofocus': true,
        'data-testid': 'confirm-dialog-cancel',
      } as Record<string, unknown>,
      closeOnEscape: true,
      onConfirm: () => {
        isLeaving = true;
        blocker.proceed?.();
      },
      // "No", Escape and the close button all stay on the page.
      onClose: () => {
        if (!isLeaving) blocker.reset?.();
      },
    });
  }, [blocker, t]);

  useEffect(() => {
    if (!isDirty) return;
    const handleBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', handleBeforeUnload);
    return () => window.removeEventListener('beforeunload', handleBeforeUnload);
  }, [isDirty]);

  return {
    /** Lets the next navigation through without asking (the changes were saved). */
    suppress: () => {
      isSuppressedRef.current = true;
    },
  };
}
