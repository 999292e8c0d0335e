import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { createQueryClient } from './app/query-client';
import { refreshCsrfToken } from './shared/api/api-client';
import { initI18n } from './shared/i18n/i18n';
import { captureEntryParameters } from './shared/session/app-session';

initI18n();

// Entry rule (spec 000 §2): the first navigation's token, page, store_id and
// email are kept in the session state, then the router starts from the root.
if (captureEntryParameters(window.location)) {
  window.history.replaceState(null, '', '/');
}

void refreshCsrfToken();

const queryClient = createQueryClient();
const container = document.getElementById('root');
if (!container) throw new Error('The #root element is missing from index.html');

createRoot(container).render(
  <StrictMode>
    <App queryClient={queryClient} />
  </StrictMode>,
);
