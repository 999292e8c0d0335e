import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createQueryClient } from './app/app';
import { loadDevice } from './shared/device/device-state';
import { initI18n } from './shared/i18n/i18n';
import { hydrateCachedQueries } from './shared/offline/cached-query';
import { loadSession } from './shared/session/employee-session';
import './app/global.css';

const queryClient = createQueryClient();

// Everything the first screen needs is local: texts, pairing, session, the kept lists.
await Promise.all([initI18n(), loadDevice(), loadSession(), hydrateCachedQueries(queryClient)]);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App queryClient={queryClient} />
  </StrictMode>,
);
