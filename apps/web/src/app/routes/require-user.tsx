import { landingPath } from '@mise/shared/navigation/rules';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useMe } from '../../shared/auth/get-me';
import { useAppSession } from '../../shared/session/app-session';
import { FullPageLoader } from '../../shared/ui/full-page-loader';
import { RouteErrorPage } from './route-error-page';

/**
 * Sign-in guard: signed-out users go to /login; a user who must choose a new
 * password goes to /changePassword first (unless in tablet mode, where the
 * initial page wins, as after login).
 */
export function RequireUser() {
  const me = useMe();
  const { pathname } = useLocation();
  const { initialPage } = useAppSession();

  if (me.isPending) return <FullPageLoader />;
  if (me.isError) return <RouteErrorPage error={me.error} />;
  if (!me.data) return <Navigate to="/login" replace />;
  if (me.data.new_password_required && pathname !== '/changePassword') {
    const target = landingPath(initialPage, true);
    if (target === '/changePassword') return <Navigate to={target} replace />;
  }
  return <Outlet />;
}

/** /login is for signed-out users; a signed-in user goes to their landing page. */
export function RequireSignedOut() {
  const me = useMe();
  const { initialPage } = useAppSession();

  if (me.isPending) return <FullPageLoader />;
  if (me.data)
    return <Navigate to={landingPath(initialPage, me.data.new_password_required)} replace />;
  return <Outlet />;
}
