import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type MockHandler, mockApi } from '../../../test/mock-api';
import { renderWithProviders } from '../../../test/render-app';
import { base64UrlToBytes } from '../api/push-subscription';
import { PushToggle } from './push-toggle';

const endpoint = 'https://push.example.net/send/abc';
/** Bytes 1, 2, 3, 255 in base64url ("/" written "_", no padding). */
const publicKey = 'AQID_w';

/** A browser with service workers, the Push API and notifications, all in memory. */
function fakePushBrowser(permission: NotificationPermission = 'default') {
  let current: PushSubscription | null = null;
  let isRegistered = false;
  const unsubscribe = vi.fn(async () => {
    current = null;
    return true;
  });
  const pushManager = {
    getSubscription: vi.fn(async () => current),
    subscribe: vi.fn(async (options: PushSubscriptionOptionsInit) => {
      current = {
        endpoint,
        options: { applicationServerKey: (options.applicationServerKey as Uint8Array).buffer },
        toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: 'p256', auth: 'auth' } }),
        unsubscribe,
      } as unknown as PushSubscription;
      return current;
    }),
  };
  const registration = { active: {}, pushManager };
  const serviceWorker = {
    register: vi.fn(async () => {
      isRegistered = true;
      return registration;
    }),
    getRegistration: vi.fn(async () => (isRegistered ? registration : undefined)),
  };
  const FakeNotification = {
    permission,
    requestPermission: vi.fn(async () => {
      if (FakeNotification.permission === 'default') FakeNotification.permission = 'granted';
      return FakeNotification.permission;
    }),
  };
  vi.stubGlobal('PushManager', class {});
  vi.stubGlobal('Notification', FakeNotification);
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: serviceWorker });
  return { serviceWorker, pushManager, unsubscribe, notification: FakeNotification };
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

function renderToggle(key: string | null, extra: Record<string, MockHandler> = {}) {
  const api = mockApi({
    'GET /api/push/key': { body: { publicKey: key } },
    'POST /api/push/subscriptions': { status: 204 },
    'DELETE /api/push/subscriptions': { status: 204 },
    ...extra,
  });
  return { ...renderWithProviders(<PushToggle />), api };
}

describe('notifications on this browser', () => {
  it('subscribes with the server key, hands the subscription over, then unsubscribes', async () => {
    const browser = fakePushBrowser();
    const { user, api } = renderToggle(publicKey);
    const toggle = (await screen.findByLabelText(
      'Notifications on this browser',
    )) as HTMLInputElement;
    await waitFor(() => expect(toggle.disabled).toBe(false));
    expect(toggle.checked).toBe(false);

    await user.click(toggle);
    await waitFor(() => expect(api.callsTo('POST', '/api/push/subscriptions')).toHaveLength(1));
    expect(browser.notification.requestPermission).toHaveBeenCalledTimes(1);
    expect(browser.serviceWorker.register).toHaveBeenCalledWith('/push-sw.js', { scope: '/push/' });
    const options = browser.pushManager.subscribe.mock.calls[0]![0];
    expect(options.userVisibleOnly).toBe(true);
    expect([...(options.applicationServerKey as Uint8Array)]).toEqual([1, 2, 3, 255]);
    expect(api.callsTo('POST', '/api/push/subscriptions')[0]?.body).toEqual({
      endpoint,
      expirationTime: null,
      keys: { p256dh: 'p256', auth: 'auth' },
    });
    expect((await screen.findByTestId('notice-success')).textContent).toContain(
      'This browser will now receive the alerts.',
    );
    await waitFor(() => expect(toggle.checked).toBe(true));

    await user.click(toggle);
    await waitFor(() => expect(api.callsTo('DELETE', '/api/push/subscriptions')).toHaveLength(1));
    expect(api.callsTo('DELETE', '/api/push/subscriptions')[0]?.body).toEqual({ endpoint });
    expect(browser.unsubscribe).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(toggle.checked).toBe(false));
  });

  it('says so when notifications are refused, and subscribes nothing', async () => {
    const browser = fakePushBrowser();
    browser.notification.requestPermission.mockResolvedValueOnce('denied');
    const { user, api } = renderToggle(publicKey);
    const toggle = (await screen.findByLabelText(
      'Notifications on this browser',
    )) as HTMLInputElement;
    await waitFor(() => expect(toggle.disabled).toBe(false));
    await user.click(toggle);
    expect((await screen.findByTestId('notice-error')).textContent).toContain(
      'Notifications are blocked for this site in the browser settings.',
    );
    expect(browser.pushManager.subscribe).not.toHaveBeenCalled();
    expect(api.callsTo('POST', '/api/push/subscriptions')).toHaveLength(0);
  });

  it('is hidden when the server has no push key, or the browser cannot receive pushes', async () => {
    fakePushBrowser();
    const { api, unmount } = renderToggle(null);
    await waitFor(() => expect(api.callsTo('GET', '/api/push/key')).toHaveLength(1));
    expect(screen.queryByLabelText('Notifications on this browser')).toBeNull();
    unmount();

    Reflect.deleteProperty(navigator, 'serviceWorker');
    const second = renderToggle(publicKey);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(second.api.callsTo('GET', '/api/push/key')).toHaveLength(0);
    expect(screen.queryByLabelText('Notifications on this browser')).toBeNull();
  });

  it('reads a base64url key as bytes', () => {
    expect([...base64UrlToBytes('AQID_w')]).toEqual([1, 2, 3, 255]);
    expect([...base64UrlToBytes('-_8')]).toEqual([251, 255]);
  });
});
