import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { updateAppSession, useAppSession } from '../../shared/session/app-session';
import { MessageDialog } from '../../shared/ui/message-dialog';
import { RouteDocumentTitle } from './document-title';

/** Top of every screen; shows the token sign-in failure wherever the user lands. */
export function RootRoute() {
  const { t } = useTranslation();
  const { hasTokenSignInFailed } = useAppSession();
  return (
    <>
      <RouteDocumentTitle />
      <Outlet />
      <MessageDialog
        opened={hasTokenSignInFailed}
        onClose={() => updateAppSession({ hasTokenSignInFailed: false })}
        title={t('dialog.error')}
        kind="error"
        message={t('errors.auth/invalid-token')}
        testId="token-error"
      />
    </>
  );
}
