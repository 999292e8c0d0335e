import { Button, Group, Stack, Text } from '@mantine/core';
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
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [validationError, setValidationError] = useState<PasswordChangeError | null>(null);
  const changePasswordMutation = useChangePassword();
  const logoutMutation = useLogout();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (changePasswordMutation.isPending) return;
    const error = validatePasswordChange(password, confirmation);
    setValidationError(error);
    if (error) return;
    changePasswordMutation.mutate(
      { password, confirmation },
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
