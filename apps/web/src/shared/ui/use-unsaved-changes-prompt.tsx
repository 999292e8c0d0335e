import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';

type Place = { pathname: string; search: string };

/** One per mounted prompt: whether a navigation would lose changes its editor did not save. */
type DirtySource = { losesChangesOn: (current: Place, next: Place) => boolean };

/**
 * Every mounted prompt of the page. A router consults only its last registered blocker, so a
 * page with several editors (a database's general tab and its roles editor, a store's General
 * tab and its employees) would otherwise lose the prompt of all but one: each blocker asks
 * whether ANY editor of the page would lose unsaved changes.
 */
const dirtySources = new Set<DirtySource>();

/** Whether `next` is another screen than `current`, query parameters in `ignored` aside. */
function isOtherScreen(current: Place, next: Place, ignored: readonly string[]): boolean {
  if (current.pathname !== next.pathname) return true;
  const strip = (search: string) => {
    const params = new URLSearchParams(search);
    for (const key of ignored) params.delete(key);
    params.sort();
    return params.toString();
  };
  return strip(current.search) !== strip(next.search);
}

type UnsavedChangesOptions = {
  /**
   * Query parameters whose change keeps this editor mounted with its changes (the `tab` of a
   * screen whose form lives above its tabs): switching them does not ask.
   */
  keptAcrossParams?: readonly string[];
  /**
   * Screens a navigation may reach without asking (a bulk screen's matching detail screen,
   * spec 001 §2.9): the editor keeps its changes elsewhere for the way back.
   */
  freePathnames?: readonly string[];
};

/**
 * Leaving with unsaved changes asks for confirmation (spec 001 §2.5, §2.6, key unsaved-changes):
 * in-app navigations through react-router's blocker, closing or reloading the tab through
 * `beforeunload`. `suppress()` lets the next navigation through (after a save). Several editors
 * of one page may each use it: leaving asks once if any of them would lose changes.
 */
export function useUnsavedChangesPrompt(isDirty: boolean, options: UnsavedChangesOptions = {}) {
  const { t } = useTranslation();
  const isDirtyRef = useRef(isDirty);
  const isSuppressedRef = useRef(false);
  const keptAcrossParamsRef = useRef(options.keptAcrossParams ?? []);
  const freePathnamesRef = useRef(options.freePathnames ?? []);
  isDirtyRef.current = isDirty;
  keptAcrossParamsRef.current = options.keptAcrossParams ?? [];
  freePathnamesRef.current = options.freePathnames ?? [];

  useEffect(() => {
    const source: DirtySource = {
      losesChangesOn: (current, next) =>
        isDirtyRef.current &&
        !isSuppressedRef.current &&
        !freePathnamesRef.current.includes(next.pathname) &&
        isOtherScreen(current, next, keptAcrossParamsRef.current),
    };
    dirtySources.add(source);
    return () => {
      dirtySources.delete(source);
    };
  }, []);

  const blocker = useBlocker(({ currentLocation, nextLocation }) => {
    for (const source of dirtySources) {
      if (source.losesChangesOn(currentLocation, nextLocation)) return true;
    }
    return false;
  });

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
