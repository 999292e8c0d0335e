import type { Device, StoreDetail } from '@mise/shared/organisation/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildId, buildStore, buildUser } from '../../../test/factories';
import { mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import { pairingKeyQrCodeUrl } from './pairing-key-qr-code';

function buildDevice(overrides: Partial<Device> = {}): Device {
  return {
    id: buildId(),
    store_id: buildId(),
    device_id: 'tablet-1',
    device_model: 'Galaxy Tab',
    name: 'Kitchen tablet',
    app_version: '1.0.0',
    os_version: 'Android 14',
    creation_timestamp: '2026-11-01T08:00:00Z',
    last_connexion: null,
    dark_mode: false,
    slow_internet_mode: false,
    audio_task_reminders: false,
    show_unscheduled_tasks: false,
    rotation_lock: false,
    prevent_screen_lock: true,
    calendar_types_order: [],
    linked_user: null,
    version: 3,
    ...overrides,
  };
}

const owner = (name: string) => ({
  id: buildId(),
  name,
  surname: 'Owner',
  email: `${name.toLowerCase()}@example.test`,
  role: 'customer',
  store_count: 1,
});

function renderDevicesTab(store: StoreDetail, devices: Device[]) {
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
    [`GET /api/stores/${store.id}`]: { body: { store } },
    [`GET /api/stores/${store.id}/devices`]: { body: { items: devices } },
    'GET /api/koovea/session': { body: { isDistributor: false, loggedIn: false, stickers: [] } },
    ...Object.fromEntries(
      devices.map((device) => [
        `PATCH /api/devices/${device.id}`,
        ({ body }: { body: unknown }) => ({
          body: { device: { ...device, ...(body as object), version: device.version + 1 } },
        }),
      ]),
    ),
  });
  return { ...renderApp(`/storeDatabase?id=${store.id}`), api };
}

describe('store devices tab', { timeout: 20_000 }, () => {
  it('shows the pairing key as a QR code that encodes the key only, with its alt text', async () => {
    const store = buildStore({ pairing_key: 'K7P2QX' });
    const { user } = renderDevicesTab(store, []);
    await user.click(await screen.findByTestId('store-tab-devices', {}, { timeout: 10_000 }));
    const image = (await screen.findByTestId('pairing-key-qr')) as HTMLImageElement;
    expect(image.getAttribute('alt')).toBe('QR code of the pairing key K7P2QX');
    const source = image.getAttribute('src') ?? '';
    expect(source).toBe(await pairingKeyQrCodeUrl('K7P2QX'));
    expect(source.startsWith('data:image/svg+xml')).toBe(true);
    // Another key draws another code: the image depends on the key.
    expect(source).not.toBe(await pairingKeyQrCodeUrl('K7P2QY'));
    expect(screen.getByTestId('pairing-key').textContent).toBe('K7P2QX');
  });

  it("chooses the device's linked account among the store's owners and saves it", async () => {
    const first = owner('Alice');
    const second = owner('Bruno');
    const store = buildStore({ owners: [first, second] });
    const device = buildDevice({ store_id: store.id, linked_user: first.id });
    const { user, api } = renderDevicesTab(store, [device]);
    await user.click(await screen.findByTestId('store-tab-devices', {}, { timeout: 10_000 }));
    await user.click(await screen.findByTestId('device-open'));
    const dialog = await screen.findByTestId('device-dialog');
    const select = within(dialog).getByTestId('device-linked-user') as HTMLInputElement;
    expect(select.value).toBe('Alice Owner (alice@example.test)');
    await user.click(select);
    await user.click(
      await screen.findByRole('option', { name: 'Bruno Owner (bruno@example.test)' }),
    );
    await user.click(within(dialog).getByTestId('device-save'));
    await waitFor(() => expect(api.callsTo('PATCH', `/api/devices/${device.id}`)).toHaveLength(1));
    expect(api.callsTo('PATCH', `/api/devices/${device.id}`)[0]?.body).toEqual({
      version: 3,
      dark_mode: false,
      slow_internet_mode: false,
      audio_task_reminders: false,
      rotation_lock: false,
      prevent_screen_lock: true,
      linked_user: second.id,
    });
  });

  it('leaves the linked account out of the save when it is not changed', async () => {
    const first = owner('Alice');
    const store = buildStore({ owners: [first] });
    const device = buildDevice({ store_id: store.id, linked_user: null });
    const { user, api } = renderDevicesTab(store, [device]);
    await user.click(await screen.findByTestId('store-tab-devices', {}, { timeout: 10_000 }));
    await user.click(await screen.findByTestId('device-open'));
    const dialog = await screen.findByTestId('device-dialog');
    await user.click(within(dialog).getByTestId('device-dark_mode'));
    await user.click(within(dialog).getByTestId('device-save'));
    await waitFor(() => expect(api.callsTo('PATCH', `/api/devices/${device.id}`)).toHaveLength(1));
    const body = api.callsTo('PATCH', `/api/devices/${device.id}`)[0]?.body as object;
    expect(body).toMatchObject({ dark_mode: true });
    expect(body).not.toHaveProperty('linked_user');
  });
});
