import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../shared/api/api-client';
import { pushQueryKeys } from './alerts-query-keys';

/**
 * Web Push on this browser: a push-only service worker (public/push-sw.js, no caching, no
 * fetch handler) registered on its own scope, so it controls no page of the back-office and
 * never meets the tablet app's worker (/tablet/).
 */
export const pushWorkerUrl = '/push-sw.js';
export const pushWorkerScope = '/push/';

/** Service workers, the Push API and notifications: all three, or no toggle at all. */
export function isPushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    typeof navigator !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

/** The VAPID public key (base64url) as the bytes pushManager.subscribe wants. */
export function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

function sameBytes(left: ArrayBuffer | null, right: Uint8Array): boolean {
  if (!left || left.byteLength !== right.byteLength) return false;
  const view = new Uint8Array(left);
  return view.every((byte, index) => byte === right[index]);
}

/** GET /api/push/key: the server's VAPID public key, null when push is off on the server. */
export async function getPushKey(signal?: AbortSignal): Promise<string | null> {
  const { publicKey } = await apiRequest<{ publicKey: string | null }>('/push/key', { signal });
  return publicKey;
}

export function usePushKey(enabled: boolean) {
  return useQuery({
    queryKey: pushQueryKeys.key,
    queryFn: ({ signal }) => getPushKey(signal),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration(pushWorkerScope);
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** Whether this browser receives the alerts: subscribed, and notifications still allowed. */
export async function isPushEnabled(): Promise<boolean> {
  if (Notification.permission !== 'granted') return false;
  return (await currentSubscription()) !== null;
}

export function usePushEnabled(enabled: boolean) {
  return useQuery({
    queryKey: pushQueryKeys.subscription,
    queryFn: isPushEnabled,
    enabled,
  });
}

/** The worker must be active before the push manager accepts a subscription. */
function activeWorker(registration: ServiceWorkerRegistration): Promise<void> {
  if (registration.active) return Promise.resolve();
  const worker = registration.installing ?? registration.waiting;
  if (!worker) return Promise.resolve();
  return new Promise((resolve, reject) => {
    worker.addEventListener('statechange', () => {
      if (worker.state === 'activated') resolve();
      else if (worker.state === 'redundant') reject(new Error('The push worker failed to start'));
    });
  });
}

/** Thrown when the user (or the browser's settings) refuses notifications. */
export class PushPermissionError extends Error {
  constructor() {
    super('Notifications are not allowed on this browser');
    this.name = 'PushPermissionError';
  }
}

/**
 * Asks for the permission (first, while the click still counts as the user's gesture),
 * registers the worker, subscribes with the server's key (a subscription under an older key is
 * replaced) and hands it to the server: POST /api/push/subscriptions.
 */
export async function enablePush(publicKey: string): Promise<void> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new PushPermissionError();
  const registration = await navigator.serviceWorker.register(pushWorkerUrl, {
    scope: pushWorkerScope,
  });
  await activeWorker(registration);
  const applicationServerKey = base64UrlToBytes(publicKey);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameBytes(subscription.options.applicationServerKey, applicationServerKey)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey,
  });
  await apiRequest<void>('/push/subscriptions', { method: 'POST', body: subscription.toJSON() });
}

/** Tells the server to forget this browser (DELETE /api/push/subscriptions), then unsubscribes. */
export async function disablePush(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await apiRequest<void>('/push/subscriptions', {
    method: 'DELETE',
    body: { endpoint: subscription.endpoint },
  });
  await subscription.unsubscribe();
}

export function useTogglePush() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ isOn, publicKey }: { isOn: boolean; publicKey: string }) =>
      isOn ? enablePush(publicKey) : disablePush(),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: pushQueryKeys.subscription });
    },
  });
}
