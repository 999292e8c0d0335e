import {
  Anchor,
  Button,
  Checkbox,
  Group,
  PasswordInput,
  SimpleGrid,
  Stack,
  TextInput,
} from '@mantine/core';
import {
  normalizeEmail,
  type RegistrationError,
  type RegistrationForm as RegistrationValues,
  validateRegistration,
} from '@mise/shared/auth/rules';
import type { User } from '@mise/shared/users/schemas';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../shared/i18n/error-message';
import { getAppSession } from '../../../shared/session/app-session';
import { ErrorText } from '../../../shared/ui/error-text';
import { useSignUp } from '../api/sign-up';

type RegistrationFormProps = {
  initialEmail?: string;
  onSignedIn: (user: User) => void;
  onShowLogin: () => void;
};

type TextField = Exclude<keyof RegistrationValues, 'hasAcceptedTerms'>;

export function RegistrationForm({
  initialEmail = '',
  onSignedIn,
  onShowLogin,
}: RegistrationFormProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<RegistrationValues>({
    name: '',
    surname: '',
    email: initialEmail,
    phone: '',
    password: '',
    confirmation: '',
    hasAcceptedTerms: false,
  });
  const [validationError, setValidationError] = useState<RegistrationError | null>(null);
  const signUpMutation = useSignUp();

  function fieldProps(field: TextField) {
    return {
      value: values[field],
      onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
        const value = event.currentTarget.value;
        setValues((current) => ({ ...current, [field]: value }));
      },
    };
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (signUpMutation.isPending) return;
    const error = validateRegistration(values);
    setValidationError(error);
    if (error) return;
    signUpMutation.mutate(
      {
        name: values.name.trim(),
        surname: values.surname.trim(),
        email: normalizeEmail(values.email),
        phone: values.phone.trim(),
        password: values.password,
        // An invitation link's token: the server applies it only to the invited e-mail.
        invitation: getAppSession().invitationToken ?? undefined,
      },
      { onSuccess: onSignedIn },
    );
  }

  const message = validationError
    ? t(`registration.errors.${validationError}`)
    : signUpMutation.isError
      ? errorMessage(t, signUpMutation.error)
      : null;

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput
            label={t('registration.name')}
            autoComplete="given-name"
            data-testid="register-name"
            {...fieldProps('name')}
          />
          <TextInput
            label={t('registration.surname')}
            autoComplete="family-name"
            data-testid="register-surname"
            {...fieldProps('surname')}
          />
        </SimpleGrid>
        <TextInput
          label={t('registration.email')}
          type="email"
          autoComplete="email"
          data-testid="register-email"
          {...fieldProps('email')}
        />
        <TextInput
          label={t('registration.phone')}
          type="tel"
          autoComplete="tel"
          data-testid="register-phone"
          {...fieldProps('phone')}
        />
        <PasswordInput
          label={t('registration.password')}
          autoComplete="new-password"
          data-testid="register-password"
          {...fieldProps('password')}
        />
        <PasswordInput
          label={t('registration.confirmation')}
          autoComplete="new-password"
          data-testid="register-confirmation"
          {...fieldProps('confirmation')}
        />
        <Checkbox
          label={t('registration.terms')}
          checked={values.hasAcceptedTerms}
          onChange={(event) => {
            const isChecked = event.currentTarget.checked;
            setValues((current) => ({ ...current, hasAcceptedTerms: isChecked }));
          }}
          data-testid="register-terms"
        />
        <ErrorText testId="register-error">{message}</ErrorText>
        <Button
          type="submit"
          loading={signUpMutation.isPending}
          data-testid="register-submit"
          fullWidth
        >
          {t('registration.submit')}
        </Button>
        <Group justify="center">
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={onShowLogin}
            data-testid="link-login"
          >
            {t('registration.toLogin')}
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
