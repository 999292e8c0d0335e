import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';
import { errorMessage } from '../i18n/error-message';
import { i18n } from '../i18n/i18n';

/** Toast durations (spec 000 §9). */
export const noticeDurationMs = 2500;
/** The fade that follows a notice. */
export const noticeFadeMs = 900;
export const sensorNoticeDurationMs = 5000;
export const saveErrorDurationMs = 3000;

type NotifyOptions = {
  title?: ReactNode;
  autoClose?: number | false;
  id?: string;
};

/** The toast's close button, named for assistive technologies (an icon alone has no name). */
function closeButtonProps() {
  return { 'aria-label': i18n.t('common.close') };
}

export function notifySuccess(message: ReactNode, options: NotifyOptions = {}): string {
  return notifications.show({
    message,
    title: options.title,
    id: options.id,
    color: 'teal',
    autoClose: options.autoClose ?? noticeDurationMs,
    closeButtonProps: closeButtonProps(),
    'data-testid': 'notice-success',
  });
}

export function notifyInfo(message: ReactNode, options: NotifyOptions = {}): string {
  return notifications.show({
    message,
    title: options.title,
    id: options.id,
    color: 'blue',
    autoClose: options.autoClose ?? noticeDurationMs,
    closeButtonProps: closeButtonProps(),
    'data-testid': 'notice-info',
  });
}

export function notifyError(message: ReactNode, options: NotifyOptions = {}): string {
  return notifications.show({
    message,
    title: options.title,
    id: options.id,
    color: 'red',
    autoClose: options.autoClose ?? noticeDurationMs,
    closeButtonProps: closeButtonProps(),
    'data-testid': 'notice-error',
  });
}

/** A toast with the translation of an error code ('permission/denied', ...). */
export function notifyErrorCode(code: string, options: NotifyOptions = {}): string {
  return notifyError(i18n.t(`errors.${code}`), options);
}

/** A toast for a failed API call: its translated code, else the server's message. */
export function notifyApiError(error: unknown, options: NotifyOptions = {}): string {
  return notifyError(errorMessage(i18n.t, error), options);
}
