import { PasswordInput, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../ui/form-dialog';
import { notifyApiError, notifyError, notifyInfo, sensorNoticeDurationMs } from '../ui/notify';
import { sha256Hex, useValidateSensorCredentials } from './validate-sensor-credentials';

type SensorCredentialsDialogProps = {
  opened: boolean;
  onClose: () => void;
  /** Exactly one of the two: whose account is being connected. */
  target: { distributorId: string } | { storeId: string };
};

/**
 * Sensor-provider (Koovea) credentials (spec 000 §2, §5, §8): account name
 * and password; the password leaves the browser as its SHA-256.
 */
export function SensorCredentialsDialog({ opened, onClose, target }: SensorCredentialsDialogProps) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const validateMutation = useValidateSensorCredentials();

  function handleClose() {
    setEmail('');
    setPassword('');
    onClose();
  }

  async function handleConnect() {
    if (email.trim() === '' || password === '') return;
    const hash = await sha256Hex(password);
    validateMutation.mutate(
      { email: email.trim(), password: hash, ...target },
      {
        onSuccess: ({ status }) => {
          if (status === 'false') {
            notifyError(t('sensor.wrongCredentials'), { autoClose: sensorNoticeDurationMs });
            return;
          }
          notifyInfo(t('sensor.connected'), { autoClose: sensorNoticeDurationMs });
          handleClose();
        },
        onError: (error) => notifyApiError(error, { autoClose: sensorNoticeDurationMs }),
      },
    );
  }

  return (
    <FormDialog
      opened={opened}
      onClose={handleClose}
      title={t('sensor.credentialsTitle')}
      primaryLabel={t('sensor.connect')}
      onPrimary={() => void handleConnect()}
      isPrimaryDisabled={email.trim() === '' || password === ''}
      isPrimaryLoading={validateMutation.isPending}
      primaryTestId="sensor-credentials-submit"
      testId="sensor-credentials-dialog"
    >
      <TextInput
        label={t('sensor.accountName')}
        value={email}
        onChange={(event) => setEmail(event.currentTarget.value)}
        autoComplete="off"
        data-autofocus
        data-testid="sensor-credentials-email"
      />
      <PasswordInput
        label={t('sensor.password')}
        value={password}
        onChange={(event) => setPassword(event.currentTarget.value)}
        autoComplete="new-password"
        data-testid="sensor-credentials-password"
      />
    </FormDialog>
  );
}
