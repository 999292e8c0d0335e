import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../i18n/error-message';
import { notifyError } from './notify';

/**
 * Returns a handler that shows a failed call as a translated toast, for
 * mutations' onError: `const notifyApiError = useApiErrorNotification()`.
 */
export function useApiErrorNotification(
  options: { autoClose?: number } = {},
): (error: unknown) => void {
  const { t } = useTranslation();
  const { autoClose } = options;
  return useCallback(
    (error: unknown) => {
      notifyError(errorMessage(t, error), { autoClose });
    },
    [t, autoClose],
  );
}
