import { Center, Loader } from '@mantine/core';
import { landingPath } from '@mise/shared/navigation/rules';
import type { User } from '@mise/shared/users/schemas';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAppSession } from '../../../shared/session/app-session';
import { useEmailExists } from '../api/get-email-exists';
import { AuthLayout } from '../components/auth-layout';
import { LoginForm } from '../components/login-form';
import { LostPasswordForm } from '../components/lost-password-form';
import { RegistrationForm } from '../components/registration-form';

type LoginView = 'login' | 'registration' | 'lostPassword';

/**
 * The login screen and its three views (spec 000 §2). With an initial e-mail
 * no account uses, it opens on registration with the e-mail prefilled.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useAppSession();
  const initialEmail = session.initialEmail ?? '';
  const emailExists = useEmailExists(session.initialEmail);
  const [chosenView, setChosenView] = useState<LoginView | null>(null);

  const isCheckingEmail = Boolean(session.initialEmail) && emailExists.isPending;
  const view: LoginView =
    chosenView ?? (emailExists.data?.exists === false ? 'registration' : 'login');

  function handleSignedIn(user: User) {
    navigate(landingPath(session.initialPage, user.new_password_required), { replace: true });
  }

  const titles: Record<LoginView, string> = {
    login: t('login.title'),
    registration: t('registration.title'),
    lostPassword: t('lostPassword.title'),
  };

  return (
    <AuthLayout title={titles[view]}>
      {isCheckingEmail && chosenView === null ? (
        <Center py="xl">
          <Loader size="sm" />
        </Center>
      ) : view === 'registration' ? (
        <RegistrationForm
          initialEmail={initialEmail}
          onSignedIn={handleSignedIn}
          onShowLogin={() => setChosenView('login')}
        />
      ) : view === 'lostPassword' ? (
        <LostPasswordForm initialEmail={initialEmail} onShowLogin={() => setChosenView('login')} />
      ) : (
        <LoginForm
          initialEmail={initialEmail}
          onSignedIn={handleSignedIn}
          onShowRegistration={() => setChosenView('registration')}
          onShowLostPassword={() => setChosenView('lostPassword')}
        />
      )}
    </AuthLayout>
  );
}
