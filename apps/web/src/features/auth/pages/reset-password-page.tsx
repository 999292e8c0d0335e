import { Anchor, Button, Stack, Text } from '@mantine/core';
import { type PasswordChangeError, validatePasswordChange } from '@mise/shared/auth/rules';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { errorMessage } from '../../../shared/i18n/error-message';
import { ErrorText } from '../../../shared/ui/error-text';
import { notifySuccess } from '../../../shared/ui/notify';
import { useResetPassword } from '../api/reset-password';
import { AuthLayout } from '../components/auth-layout';
import { NewPasswordFields } from '../components/new-password-fields';

/** Target of the mailed reset link: /resetPassword?token=... */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [validationError, setValidationError] = useState<PasswordChangeError | null>(null);
  const resetPasswordMutation = useResetPassword();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (resetPasswordMutation.isPending) return;
    const error = validatePasswordChange(password, confirmation);
    setValidationError(error);
    if (error) return;
    resetPasswordMutation.mutate(
      { token, password, confirmation },
      {
        onSuccess: () => {
          notifySuccess(t('resetPassword.success'));
          navigate('/login', { replace: true });
        },
      },
    );
  }

  if (!token) {
    return (
      <AuthLayout title={t('resetPassword.title')}>
        <Stack gap="sm">
          <ErrorText testId="reset-error">{t('errors.auth/reset-link-invalid')}</ErrorText>
          <Anchor component={Link} to="/login" size="sm">
            {t('resetPassword.toLogin')}
          </Anchor>
        </Stack>
      </AuthLayout>
    );
  }

  const message = validationError
    ? t(`errors.${validationError}`)
    : resetPasswordMutation.isError
      ? errorMessage(t, resetPasswordMutation.error)
      : null;

  return (
    <AuthLayout title={t('resetPassword.title')}>
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="sm">
          <Text size="sm">{t('resetPassword.explanation')}</Text>
          <NewPasswordFields
            passwordLabel={t('resetPassword.password')}
            confirmationLabel={t('resetPassword.confirmation')}
            password={password}
            confirmation={confirmation}
            onPasswordChange={setPassword}
            onConfirmationChange={setConfirmation}
            testIdPrefix="reset"
          />
          <ErrorText testId="reset-error">{message}</ErrorText>
          <Button
            type="submit"
            loading={resetPasswordMutation.isPending}
            data-testid="reset-submit"
            fullWidth
          >
            {t('resetPassword.submit')}
          </Button>
          <Anchor component={Link} to="/login" size="sm" ta="center">
            {t('resetPassword.toLogin')}
          </Anchor>
        </Stack>
      </form>
    </AuthLayout>
  );
}
