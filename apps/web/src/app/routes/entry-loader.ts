import { landingPath } from '@mise/shared/navigation/rules';
import type { QueryClient } from '@tanstack/react-query';
import { redirect } from 'react-router';
import { signInWithToken } from '../../features/auth/api/token-sign-in';
import { meQueryOptions } from '../../shared/auth/get-me';
import { getAppSession, updateAppSession } from '../../shared/session/app-session';

/**
 * The root path (spec 000 §2): after the entry rule kept the query values,
 * a pending login token is exchanged for a session, then the user goes to
 * their landing page (initial page, changePassword or home), or to /login.
 */
export function createEntryLoader(queryClient: QueryClient) {
  return async function entryLoader() {
    const session = getAppSession();
    if (session.isTokenSignInPending && session.sessionToken) {
      updateAppSession({ isTokenSignInPending: false });
      try {
        const user = await signInWithToken(queryClient, session.sessionToken);
        return redirect(landingPath(session.initialPage, user.new_password_required));
      } catch {
        updateAppSession({ hasTokenSignInFailed: true });
      }
    }
    const user = await queryClient.ensureQueryData(meQueryOptions());
    if (!user) return redirect('/login');
    return redirect(landingPath(session.initialPage, user.new_password_required));
  };
}
