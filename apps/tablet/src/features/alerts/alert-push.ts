import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { apiRequest } from '../../shared/api/client';

/** The message the service worker's push handler (public/alert-push.js) posts to open pages. */
export const alertPushMessageType = 'mise-alert-push';

/** A VAPID public key (base64url) as PushManager.subscribe wants it. */
export function applicationServerKey(base64Url: string): Uint8Array<ArrayBuffer> {
  const base64 = `${base64Url}${'='.repeat((4 - (base64Url.length % 4)) % 4)}`
    .replaceAll('-', '+')
    .replaceAll('_', '/');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

function sameKey(subscription: PushSubscription, key: Uint8Array): boolean {
  const current = subscription.options.applicationServerKey;
  if (!current) return false;
  const bytes = new Uint8Array(current);
  return bytes.length === key.length && bytes.every((byte, index) => byte === key[index]);
}

/**
 * Subscribes this tablet to the server's Web Push (when the server has a key and the system
 * allows notifications) and hands the subscription to POST /api/device/push/subscriptions.
 * Best effort: polling keeps working without it.
 */
export async function subscribeToAlertPush(): Promise<boolean> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window)) return false;
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return false;
  const { publicKey } = await apiRequest<{ publicKey: string | null }>('/push/key');
  if (!publicKey) return false;
  const registration = await navigator.serviceWorker.ready;
  const key = applicationServerKey(publicKey);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription, key)) {
    // The server's keys changed: the old subscription can no longer be used.
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: key,
  });
  // Sent at each start: the server keeps one row per endpoint (a renewed endpoint replaces it).
  await apiRequest('/device/push/subscriptions', { method: 'POST', body: subscription.toJSON() });
  return true;
}

/**
 * Web Push on the tablet: subscribes at start when notifications are already allowed; else, if
 * the server has a key, asks once at the first touch (browsers only ask during a gesture). A push
 * refreshes the alert list at once.
 */
export function useAlertPush(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!('serviceWorker' in navigator) || typeof Notification === 'undefined') return;
    const handleMessage = (event: MessageEvent) => {
      if ((event.data as { type?: string } | null)?.type === alertPushMessageType)
        void queryClient.invalidateQueries({ queryKey: ['alerts'] });
    };
    navigator.serviceWorker.addEventListener('message', handleMessage);
    let isActive = true;
    const handleFirstTouch = () => {
      void Notification.requestPermission()
        .then((permission) =>
          permission === 'granted' ? subscribeToAlertPush() : Promise.resolve(false),
        )
        .catch(() => false);
    };
    if (Notification.permission === 'granted') void subscribeToAlertPush().catch(() => false);
    else if (Notification.permission === 'default')
      void apiRequest<{ publicKey: string | null }>('/push/key')
        .then(({ publicKey }) => {
          if (publicKey && isActive)
            window.addEventListener('pointerdown', handleFirstTouch, { once: true });
        })
        .catch(() => undefined);
    return () => {
      isActive = false;
      navigator.serviceWorker.removeEventListener('message', handleMessage);
      window.removeEventListener('pointerdown', handleFirstTouch);
    };
  }, [queryClient]);
}
