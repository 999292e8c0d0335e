// Mantine's styles for the shell's screens; the full sheet comes with the signed-in layout.
import './app/shell-styles.css';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { App } from './app/app';
import { createQueryClient } from './app/query-client';
import { createAppRoutes } from './app/router';
import { refreshCsrfToken } from './shared/api/api-client';
import { seedBootstrapData } from './shared/auth/bootstrap';
import { meQueryOptions } from './shared/auth/get-me';
import { initI18n } from './shared/i18n/i18n';
import { captureEntryParameters, getAppSession } from './shared/session/app-session';

// The active language's translations load alongside the CSRF token, the signed-in user and
// the first screen's chunks (the router starts loading them when created); the first render
// waits for them (a frame of bare keys otherwise).
const i18nReady = initI18n();

// Entry rule (spec 000 §2): the first navigation's token, page, store_id and
// email are kept in the session state, then the router starts from the root.
if (captureEntryParameters(window.location)) {
  window.history.replaceState(null, '', '/');
}

void refreshCsrfToken();

const queryClient = createQueryClient();
// A signed-in visitor's page carries the user and the demo status (the server checked the
// session); otherwise the user loads meanwhile too (the guards read it), unless a login token
// is about to be exchanged for a session first (the entry loader).
const isTokenSignInPending = getAppSession().isTokenSignInPending;
const hasUser = seedBootstrapData(queryClient, { withUser: !isTokenSignInPending });
if (!isTokenSignInPending && !hasUser) void queryClient.prefetchQuery(meQueryOptions());
const router = createBrowserRouter(createAppRoutes(queryClient));
const container = document.getElementById('root');
if (!container) throw new Error('The #root element is missing from index.html');

await i18nReady;
createRoot(container).render(
  <StrictMode>
    <App queryClient={queryClient} router={router} />
  </StrictMode>,
);
