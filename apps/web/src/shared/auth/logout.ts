import { useMutation } from '@tanstack/react-query';
import { apiRequest, resetCsrfToken } from '../api/api-client';
import { setSelection } from '../selection/use-selection';
import { clearAppSession } from '../session/app-session';

/** POST /api/auth/logout */
export function logout(): Promise<{ status: 'ok' }> {
  return apiRequest('/auth/logout', { method: 'POST' });
}

/** Lists remember their search and scroll per tab in sessionStorage (`mise.*List:` keys). */
function clearRememberedListStates(): void {
  for (let index = window.sessionStorage.length - 1; index >= 0; index -= 1) {
    const key = window.sessionStorage.key(index);
    if (key && /^mise\.[A-Za-z]+List:/.test(key)) window.sessionStorage.removeItem(key);
  }
}

/** Reloads the page: the guard then shows the login screen. */
export function reloadPage(): void {
  window.location.reload();
}

/**
 * Logout signs out and reloads the page (spec 000 §2). The tab's app session
 * state (initial page, token...) goes with it, as the original's in-memory
 * state did. The store/database selection is cleared too, so the next user
 * of the browser does not inherit it.
 */
export function useLogout() {
  return useMutation({
    mutationFn: logout,
    onSettled: () => {
      resetCsrfToken();
      clearAppSession();
      setSelection(null);
      clearRememberedListStates();
      reloadPage();
    },
  });
}
