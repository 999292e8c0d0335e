import type { TFunction } from 'i18next';
import { ApiError } from '../api/api-error';

/**
 * The user-facing text of an error: the translated code when the locale has
 * it, else the server's message, else a generic text.
 */
export function errorMessage(t: TFunction, error: unknown): string {
  if (error instanceof ApiError) {
    return t(`errors.${error.code}`, { defaultValue: error.message || t('errors.unknown') });
  }
  return t('errors.unknown');
}

/** Text of an error code (client-side validations use the same catalogue). */
export function errorCodeMessage(t: TFunction, code: string): string {
  return t(`errors.${code}`);
}
