import { Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { type PasswordChangeError, validatePasswordChange } from '@mise/shared/auth/rules';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '../../../shared/api/api-error';
import { useLogout } from '../../../shared/auth/logout';
import { errorMessage } from '../../../shared/i18n/error-message';
import { ErrorText } from '../../../shared/ui/error-text';
import { useChangePassword } from '../api/change-password';
import { AuthLayout } from '../components/auth-layout';
import { NewPasswordFields } from '../components/new-password-fields';

/** Delay before signing out when the sign-in is too old to change the password (spec 000 §8). */
export const staleLoginLogoutDelayMs = 5000;

/** Forced password change (spec 000 §2): new password, confirmation, Ok, logout. */
export function ChangePasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [currentPassword, setCurrentPassword] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [validationError, setValidationError] = useState<PasswordChangeError | null>(null);
  const changePasswordMutation = useChangePassword();
  const logoutMutation = useLogout();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (changePasswordMutation.isPending) return;
    // The current password first: a session alone must not be able to change it.
    const error =
      currentPassword === ''
        ? 'auth/password-required'
        : validatePasswordChange(password, confirmation);
    setValidationError(error);
    if (error) return;
    changePasswordMutation.mutate(
      { current_password: currentPassword, password, confirmation },
      {
        onSuccess: () => navigate('/home', { replace: true }),
        onError: (failure) => {
          if (isApiError(failure, 'auth/requires-recent-login')) {
            window.setTimeout(() => logoutMutation.mutate(), staleLoginLogoutDelayMs);
          }
        },
      },
    );
  }

  const message = validationError
    ? t(`errors.${validationError}`)
    : changePasswordMutation.isError
      ? errorMessage(t, changePasswordMutation.error)
      : null;

  return (
    <AuthLayout title={t('changePassword.title')}>
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="sm">
          <Text size="sm">{t('changePassword.explanation')}</Text>
          <PasswordInput
            label={t('changePassword.currentPassword')}
            autoComplete="current-password"
            value={currentPassword}
            onChange={(event) => setCurrentPassword(event.currentTarget.value)}
            data-testid="change-current-password"
          />
          <NewPasswordFields
            passwordLabel={t('changePassword.password')}
            confirmationLabel={t('changePassword.confirmation')}
            password={password}
            confirmation={confirmation}
            onPasswordChange={setPassword}
            onConfirmationChange={setConfirmation}
            testIdPrefix="change"
          />
          <ErrorText testId="change-error">{message}</ErrorText>
          <Group justify="space-between" mt="sm">
            <Button
              variant="default"
              type="button"
              onClick={() => logoutMutation.mutate()}
              loading={logoutMutation.isPending}
              data-testid="logout"
            >
              {t('header.logout')}
            </Button>
            <Button
              type="submit"
              loading={changePasswordMutation.isPending}
              data-testid="change-submit"
            >
              {t('common.ok')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AuthLayout>
  );
}
