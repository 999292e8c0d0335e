import { Outlet, useLocation } from 'react-router';
import { useCurrentUser } from '../../shared/auth/get-me';
import { NoPermissionPage } from './no-permission-page';
import { canOpenScreen } from './route-access';

/** Inside the signed-in layout: a screen the role may not open shows the no-permission page. */
export function RequireScreenAccess() {
  const user = useCurrentUser();
  const { pathname } = useLocation();
  return canOpenScreen(user.role, pathname) ? <Outlet /> : <NoPermissionPage />;
}
