import { type KeyboardEvent, useCallback } from 'react';

/** Input types a user types text into (Mantine's NumberInput is a text input too). */
const textInputTypes = new Set(['text', 'email', 'password', 'search', 'tel', 'url', 'number']);

/**
 * Where Enter does not activate the primary button: in a text field (single-line or not,
 * spec 000 §4), where the user is typing and may press Enter by habit, and on a focused
 * button, which Enter activates itself. A read-only input (a closed Select) is no text field.
 */
function isEnterHandledByTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLTextAreaElement) return true;
  if (target instanceof HTMLInputElement && textInputTypes.has(target.type) && !target.readOnly) {
    return true;
  }
  if (target.isContentEditable) return true;
  if (target.closest('button, a[href], [role="option"], [role="button"]')) return true;
  // An open dropdown (Select, Combobox) uses Enter to pick an option.
  return target.getAttribute('aria-expanded') === 'true';
}

/**
 * Dialog keyboard rule (spec 000 §4): Enter activates the dialog's primary
 * button when it is valid, unless the focus is in a text field (or on another
 * button, which Enter activates itself). Escape closing is the Modal's own.
 */
export function useDialogEnterKey(
  onPrimary: () => void,
  isPrimaryEnabled: boolean,
): (event: KeyboardEvent<HTMLElement>) => void {
  return useCallback(
    (event: KeyboardEvent<HTMLElement>) => {
      if (event.key !== 'Enter' || event.nativeEvent.isComposing || event.defaultPrevented) return;
      if (event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return;
      if (isEnterHandledByTarget(event.target)) return;
      event.preventDefault();
      if (isPrimaryEnabled) onPrimary();
    },
    [onPrimary, isPrimaryEnabled],
  );
}
