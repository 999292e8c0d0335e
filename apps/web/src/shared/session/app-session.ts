import { routePaths } from '@mise/shared/navigation/rules';
import { useSyncExternalStore } from 'react';

/**
 * App session state (spec 000 §3): values read from the first navigation's
 * query and kept for the browser tab, in sessionStorage so a reload keeps
 * them. The signed-in user itself lives in the `me` query.
 */
export type AppSession = {
  /** Login token passed as `?token=`; exchanged once for a session. */
  sessionToken: string | null;
  /** `?page=`: set means tablet mode (no navigation panel). */
  initialPage: string | null;
  /** `?store_id=` */
  customStoreId: string | null;
  /** `?email=`: opens registration prefilled when no account uses it. */
  initialEmail: string | null;
  /** `?invitation=`: the store-owner invitation token, sent with the registration. */
  invitationToken: string | null;
  /** True between capturing a token and trying it. */
  isTokenSignInPending: boolean;
  /** Set when the token sign-in failed, until its dialog is closed. */
  hasTokenSignInFailed: boolean;
};

const storageKey = 'mise.session';

const emptySession: AppSession = {
  sessionToken: null,
  initialPage: null,
  customStoreId: null,
  initialEmail: null,
  invitationToken: null,
  isTokenSignInPending: false,
  hasTokenSignInFailed: false,
};

const listeners = new Set<() => void>();
let cached: AppSession | null = null;

function readStorage(): AppSession {
  try {
    const raw = window.sessionStorage.getItem(storageKey);
    if (!raw) return emptySession;
    return { ...emptySession, ...(JSON.parse(raw) as Partial<AppSession>) };
  } catch {
    return emptySession;
  }
}

export function getAppSession(): AppSession {
  cached ??= readStorage();
  return cached;
}

export function updateAppSession(patch: Partial<AppSession>): void {
  cached = { ...getAppSession(), ...patch };
  try {
    window.sessionStorage.setItem(storageKey, JSON.stringify(cached));
  } catch {
    // Storage unavailable (private mode): the state lives in memory for this page.
  }
  for (const listener of listeners) listener();
}

export function clearAppSession(): void {
  cached = emptySession;
  try {
    window.sessionStorage.removeItem(storageKey);
  } catch {
    // Nothing to clear.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useAppSession(): AppSession {
  return useSyncExternalStore(subscribe, getAppSession, getAppSession);
}

const knownPaths = new Set<string>(routePaths);

/** `page` must name a route of the route table; anything else is ignored. */
function normalizeInitialPage(page: string | null): string | null {
  if (!page) return null;
  const path = page.startsWith('/') ? page : `/${page}`;
  return knownPaths.has(path) && path !== '/login' ? path : null;
}

/** Pages whose own query uses these names (the mailed reset link carries `token`). */
const pathsOutsideEntryRule = new Set(['/resetPassword']);

/**
 * Entry rule (spec 000 §2): on the first navigation only, the query values
 * token, page, store_id and email are kept in the app session state; the
 * caller then goes to the root path. Returns whether any value was found.
 */
export function captureEntryParameters(location: { pathname: string; search: string }): boolean {
  if (pathsOutsideEntryRule.has(location.pathname)) return false;
  const query = new URLSearchParams(location.search);
  const token = query.get('token');
  const page = query.get('page');
  const storeId = query.get('store_id');
  const email = query.get('email');
  const invitation = query.get('invitation');
  if (token === null && page === null && storeId === null && email === null) return false;
  updateAppSession({
    sessionToken: token || null,
    initialPage: normalizeInitialPage(page),
    customStoreId: storeId || null,
    initialEmail: email?.trim() || null,
    invitationToken: invitation || null,
    isTokenSignInPending: Boolean(token),
    hasTokenSignInFailed: false,
  });
  return true;
}

/** Test helper: forget the in-memory copy so the next read comes from storage. */
export function resetAppSessionCache(): void {
  cached = null;
}
