// The browser's zone is not the stores' (Europe/Paris): a date computed on the browser's
// calendar instead of the store's shows up as a failing test. Set before anything reads dates.
process.env.TZ = 'America/New_York';

import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { resetCsrfToken } from '../shared/api/api-client';
import { i18n, initI18n } from '../shared/i18n/i18n';
import { resetAppSessionCache } from '../shared/session/app-session';

// Pages are lazy chunks: on a busy 2-core machine (CI runs every project at once) the first
// render of a route can take seconds, so waits allow 5 s instead of the default 1 s.
configure({ asyncUtilTimeout: 5000 });

// Polyfills Mantine needs under happy-dom.
if (typeof window.matchMedia !== 'function') {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    configurable: true,
    value: (query: string): MediaQueryList =>
      ({
        matches: false,
        media: query,
        onchange: null,
        addListener: () => undefined,
        removeListener: () => undefined,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        dispatchEvent: () => false,
      }) as MediaQueryList,
  });
}

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
if (typeof window.ResizeObserver !== 'function') {
  window.ResizeObserver = ResizeObserverStub as unknown as typeof ResizeObserver;
}
window.HTMLElement.prototype.scrollIntoView ??= () => undefined;
window.scrollTo = (() => undefined) as typeof window.scrollTo;

// Every language loaded up front: tests switch languages and read fixed translators.
await initI18n('en');
await i18n.loadLanguages(['fr', 'en', 'de', 'pl']);

beforeEach(async () => {
  window.sessionStorage.clear();
  window.localStorage.clear();
  resetAppSessionCache();
  resetCsrfToken();
  if (i18n.language !== 'en') await i18n.changeLanguage('en');
});

afterEach(() => {
  cleanup();
  // Toasts live in a module-level store: one test's toasts must not queue the next one's.
  notifications.clean();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
