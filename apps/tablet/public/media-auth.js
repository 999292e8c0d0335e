/*
 * Videos that stream on the tablet (issue 17). A <video src> cannot send the device token the
 * API asks for (Authorization: Bearer), so its requests for the app's files come here: the
 * token is read from the app's IndexedDB (database 'mise-tablet', store 'kv', key
 * 'device_token', as shared/device/device-token.ts keeps it) and added; the player's Range
 * header goes on as it is and the server's answer (206 Partial Content) comes back untouched,
 * never cached (the player asks for the parts it needs, seeking included). Imported by the
 * generated service worker before Workbox's own routes (vite.config.ts:
 * workbox.importScripts), which do not answer these requests.
 *
 * Only GET requests of the app's own origin under /api/files/, made by a <video> or an
 * <audio> (or carrying a Range header), and not already authenticated (the app's own fetches
 * carry their header and pass through).
 */
const mediaFilesPath = '/api/files/';
const mediaDestinations = ['video', 'audio'];

/** The paired device's token, or null (not paired, or no database yet: it is never created here). */
function readDeviceToken() {
  return new Promise((resolve) => {
    let request;
    try {
      request = indexedDB.open('mise-tablet');
    } catch {
      resolve(null);
      return;
    }
    // No database yet (the app has never run): leave it to the app to create, with its schema.
    request.onupgradeneeded = () => request.transaction?.abort();
    request.onerror = () => resolve(null);
    request.onblocked = () => resolve(null);
    request.onsuccess = () => {
      const database = request.result;
      try {
        const read = database.transaction('kv', 'readonly').objectStore('kv').get('device_token');
        read.onsuccess = () => {
          database.close();
          resolve(typeof read.result === 'string' && read.result !== '' ? read.result : null);
        };
        read.onerror = () => {
          database.close();
          resolve(null);
        };
      } catch {
        database.close();
        resolve(null);
      }
    };
  });
}

function isMediaFileRequest(request) {
  if (request.method !== 'GET') return false;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !url.pathname.startsWith(mediaFilesPath)) return false;
  if (request.headers.has('authorization')) return false;
  return mediaDestinations.includes(request.destination) || request.headers.has('range');
}

async function fetchWithDeviceToken(request) {
  const token = await readDeviceToken();
  if (!token) return fetch(request);
  // A new request: the player's is a no-cors one, whose headers cannot carry Authorization.
  const headers = new Headers();
  const range = request.headers.get('range');
  if (range) headers.set('range', range);
  const accept = request.headers.get('accept');
  if (accept) headers.set('accept', accept);
  headers.set('authorization', `Bearer ${token}`);
  return fetch(request.url, {
    method: 'GET',
    headers,
    mode: 'same-origin',
    // The device token alone: a back-office cookie in the same browser would take over.
    credentials: 'omit',
    // Parts are read from the network each time, never kept (neither here nor in Cache Storage).
    cache: 'no-store',
    signal: request.signal,
  });
}

self.addEventListener('fetch', (event) => {
  if (!isMediaFileRequest(event.request)) return;
  event.respondWith(fetchWithDeviceToken(event.request));
});
