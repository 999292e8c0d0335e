import { Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { normalizeEmail } from '@mise/shared/auth/rules';
import type { User } from '@mise/shared/users/schemas';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../shared/i18n/error-message';
import { ErrorText } from '../../../shared/ui/error-text';
import { useLogin } from '../api/login';

type LoginFormProps = {
  initialEmail?: string;
  onSignedIn: (user: User) => void;
  onShowRegistration: () => void;
  onShowLostPassword: () => void;
};

export function LoginForm({
  initialEmail = '',
  onSignedIn,
  onShowRegistration,
  onShowLostPassword,
}: LoginFormProps) {
  const { t } = useTranslation();
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const loginMutation = useLogin();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (loginMutation.isPending) return;
    loginMutation.mutate(
      { email: normalizeEmail(email), password },
      { onSuccess: ({ user }) => onSignedIn(user) },
    );
  }

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('login.email')}
          type="email"
          autoComplete="username"
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          data-testid="login-email"
          data-autofocus
        />
        <PasswordInput
          label={t('login.password')}
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          data-testid="login-password"
        />
        <ErrorText testId="login-error">
          {loginMutation.isError ? errorMessage(t, loginMutation.error) : null}
        </ErrorText>
        <Button
          type="submit"
          loading={loginMutation.isPending}
          data-testid="login-submit"
          fullWidth
        >
          {t('login.submit')}
        </Button>
        <Group justify="space-between">
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={onShowRegistration}
            data-testid="link-register"
          >
            {t('login.toRegistration')}
          </Anchor>
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={onShowLostPassword}
            data-testid="link-lost-password"
          >
            {t('login.toLostPassword')}
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
