import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { normalizeEmail } from '@mise/shared/auth/rules';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MessageDialog } from '../../../shared/ui/message-dialog';
import { useForgotPassword } from '../api/forgot-password';

type LostPasswordFormProps = {
  initialEmail?: string;
  onShowLogin: () => void;
};

type Outcome = 'sent' | 'failed';

export function LostPasswordForm({ initialEmail = '', onShowLogin }: LostPasswordFormProps) {
  const { t } = useTranslation();
  const [email, setEmail] = useState(initialEmail);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const forgotPasswordMutation = useForgotPassword();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (forgotPasswordMutation.isPending) return;
    const normalized = normalizeEmail(email);
    if (!normalized) {
      setOutcome('failed');
      return;
    }
    forgotPasswordMutation.mutate(normalized, {
      onSuccess: () => setOutcome('sent'),
      onError: () => setOutcome('failed'),
    });
  }

  return (
    <>
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('lostPassword.explanation')}
          </Text>
          <TextInput
            label={t('lostPassword.email')}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            data-testid="lost-email"
            data-autofocus
          />
          <Button
            type="submit"
            loading={forgotPasswordMutation.isPending}
            data-testid="lost-submit"
            fullWidth
          >
            {t('lostPassword.submit')}
          </Button>
          <Group justify="center">
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={onShowLogin}
              data-testid="link-login"
            >
              {t('lostPassword.toLogin')}
            </Anchor>
          </Group>
        </Stack>
      </form>
      <MessageDialog
        opened={outcome !== null}
        onClose={() => setOutcome(null)}
        title={t('dialog.information')}
        kind={outcome === 'failed' ? 'error' : 'information'}
        message={outcome === 'failed' ? t('lostPassword.failed') : t('lostPassword.sent')}
        testId="lost-result"
      />
    </>
  );
}
