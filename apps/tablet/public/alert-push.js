/*
 * Probe alerts by Web Push on the tablet (issue 15). Imported by the generated service worker
 * (vite.config.ts: workbox.importScripts). The message is the server's AlertPushPayload as JSON
 * ({ title, body, url, alertId, storeId, kind }), already in the store's language. The
 * notification is shown (one per episode: its tag), and every open page of the app is told so
 * it asks for the alert list at once.
 */
self.addEventListener('push', (event) => {
  let payload = null;
  try {
    payload = event.data ? event.data.json() : null;
  } catch {
    payload = null;
  }
  if (!payload || typeof payload.title !== 'string') return;
  const scope = self.registration.scope;
  event.waitUntil(
    Promise.all([
      self.registration.showNotification(payload.title, {
        body: typeof payload.body === 'string' ? payload.body : '',
        tag: `alert-${payload.alertId ?? ''}`,
        renotify: true,
        requireInteraction: payload.kind !== 'low_battery',
        icon: new URL('icon.svg', scope).href,
        data: { url: typeof payload.url === 'string' ? payload.url : scope },
      }),
      self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((pages) => {
        for (const page of pages)
          page.postMessage({ type: 'mise-alert-push', alertId: payload.alertId ?? null });
      }),
    ]),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const scope = self.registration.scope;
  const wanted = new URL(event.notification.data?.url ?? scope, scope);
  // Only the app's own pages: a payload cannot send the tablet elsewhere.
  const target = wanted.href.startsWith(scope) ? wanted.href : scope;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((pages) => {
      const open = pages.find((page) => page.url.startsWith(scope));
      if (open) return open.focus();
      return self.clients.openWindow(target);
    }),
  );
});
