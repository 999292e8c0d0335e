import { Switch } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../shared/i18n/error-message';
import { notifyError, notifySuccess } from '../../../shared/ui/notify';
import {
  isPushSupported,
  PushPermissionError,
  usePushEnabled,
  usePushKey,
  useTogglePush,
} from '../api/push-subscription';

/**
 * "Notifications on this browser": subscribes this browser to the alerts' Web Push messages,
 * or unsubscribes it. Hidden where the browser cannot, or when push is off on the server.
 */
export function PushToggle() {
  const { t } = useTranslation();
  const isSupported = isPushSupported();
  const key = usePushKey(isSupported);
  const publicKey = key.data ?? null;
  const state = usePushEnabled(isSupported && publicKey !== null);
  const toggle = useTogglePush();
  if (!isSupported || publicKey === null) return null;
  const isBlocked = Notification.permission === 'denied';

  function handleChange(isOn: boolean) {
    if (publicKey === null) return;
    toggle.mutate(
      { isOn, publicKey },
      {
        onSuccess: () => notifySuccess(t(isOn ? 'alerts.push.enabled' : 'alerts.push.disabled')),
        onError: (error) =>
          notifyError(
            error instanceof PushPermissionError
              ? t('alerts.push.blocked')
              : errorMessage(t, error),
          ),
      },
    );
  }

  return (
    <Switch
      size="sm"
      label={t('alerts.push.label')}
      description={isBlocked ? t('alerts.push.blocked') : undefined}
      checked={state.data ?? false}
      disabled={state.isPending || toggle.isPending || isBlocked}
      onChange={(event) => handleChange(event.currentTarget.checked)}
      data-testid="alert-push-toggle"
    />
  );
}
