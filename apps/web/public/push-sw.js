/*
 * The back-office's push-only service worker (registered by features/alerts on the scope
 * /push/, so it controls no page): shows each Web Push message of the alert engine as a
 * notification and, on a click, focuses the tab already on its link or opens it. No fetch
 * handler, no cache: the web app itself never goes through this worker.
 *
 * The message is JSON (AlertPushPayload in packages/shared/src/probes/alerts.ts):
 * { title, body, url, alertId, storeId, kind }, already in the recipient's language.
 */

self.addEventListener('install', () => {
  // A new version takes over at once: there is no cached state to keep consistent.
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

/** The payload, or a bare text message; never throws on a malformed push. */
function readPayload(data) {
  if (!data) return {};
  try {
    const value = data.json();
    return value && typeof value === 'object' ? value : {};
  } catch {
    return { body: data.text() };
  }
}

/** Only links of this origin are followed; anything else opens the home page. */
function targetUrl(url) {
  try {
    const target = new URL(typeof url === 'string' && url ? url : '/home', self.location.origin);
    return target.origin === self.location.origin
      ? target.href
      : new URL('/home', self.location.origin).href;
  } catch {
    return new URL('/home', self.location.origin).href;
  }
}

self.addEventListener('push', (event) => {
  const payload = readPayload(event.data);
  const title = typeof payload.title === 'string' && payload.title ? payload.title : 'Mise';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof payload.body === 'string' ? payload.body : '',
      icon: '/favicon.svg',
      badge: '/favicon.svg',
      // One notification per episode: an escalation or a resolution replaces the earlier one.
      tag: typeof payload.alertId === 'string' ? `alert-${payload.alertId}` : undefined,
      renotify: typeof payload.alertId === 'string',
      data: { url: targetUrl(payload.url) },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = targetUrl(event.notification.data?.url);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const same = windows.find((client) => client.url === url);
      if (same) return same.focus();
      return self.clients.openWindow(url);
    })(),
  );
});
