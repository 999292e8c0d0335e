import type { StoreDetail } from '@mise/shared/organisation/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildId, buildStore, buildUser } from '../../../test/factories';
import { apiError, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';

function renderStore(
  store: StoreDetail,
  options: { role?: 'admin' | 'distributor' | 'manager' | 'customer'; tab?: number } = {},
  extra: Record<string, MockHandler> = {},
) {
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: options.role ?? 'admin' }) } },
    [`GET /api/stores/${store.id}`]: { body: { store } },
    [`GET /api/stores/${store.id}/devices`]: { body: { items: [] } },
    'GET /api/koovea/session': { body: { isDistributor: false, loggedIn: false, stickers: [] } },
    [`PATCH /api/stores/${store.id}`]: ({ body }) => ({
      body: { store: { ...store, ...(body as object), version: store.version + 1 } },
    }),
    ...extra,
  });
  const path = `/storeDatabase?id=${store.id}${options.tab ? `&tab=${options.tab}` : ''}`;
  return { ...renderApp(path), api };
}

const confirmDialog = () => screen.getByTestId('confirm-dialog-confirm');

describe('store detail', { timeout: 20_000 }, () => {
  it('warns that turning the licence on starts a new billing, and aborts the save when monitoring fails', async () => {
    const store = buildStore({ mise_licence: false });
    const { user, api } = renderStore(
      store,
      {},
      {
        'POST /api/stores/updateLicence': apiError(502, 'licence/monitoring-failed'),
      },
    );

    // The first test of the file waits for the store page's chunk to load.
    await user.click(await screen.findByTestId('licence-toggle', {}, { timeout: 10_000 }));
    expect(
      await screen.findByText('Activating the licence starts a new billing for the current month.'),
    ).toBeTruthy();
    await user.click(confirmDialog());
    await waitFor(() =>
      expect((screen.getByTestId('licence-toggle') as HTMLInputElement).checked).toBe(true),
    );

    await user.click(screen.getByTestId('save'));
    expect(
      await screen.findByText(
        'Unable to update the licence on the Mise server. Please try again later.',
      ),
    ).toBeTruthy();
    expect(api.callsTo('POST', '/api/stores/updateLicence')[0]?.body).toEqual({
      storeId: store.id,
      activated: true,
    });
    expect(api.callsTo('PATCH', `/api/stores/${store.id}`)).toHaveLength(0);
  });

  it('warns that turning the licence off stops the tablets; cancelling keeps it on', async () => {
    const store = buildStore({ mise_licence: true });
    const { user } = renderStore(store, { role: 'distributor' });

    await user.click(await screen.findByTestId('licence-toggle'));
    expect(
      await screen.findByText('Deactivating the licence stops the tablet services immediately.'),
    ).toBeTruthy();
    await user.click(screen.getByTestId('confirm-dialog-cancel'));
    expect((screen.getByTestId('licence-toggle') as HTMLInputElement).checked).toBe(true);
  });

  it('updates the licence on the monitoring server first, then saves the store', async () => {
    const store = buildStore({ mise_licence: true });
    const { user, api } = renderStore(
      store,
      {},
      {
        'POST /api/stores/updateLicence': { body: { status: 'ok' } },
      },
    );

    await user.click(await screen.findByTestId('licence-toggle'));
    await user.click(confirmDialog());
    await user.click(screen.getByTestId('save'));

    await waitFor(() => expect(api.callsTo('PATCH', `/api/stores/${store.id}`)).toHaveLength(1));
    const licenceIndex = api.calls.findIndex((call) => call.path === '/api/stores/updateLicence');
    const patchIndex = api.calls.findIndex((call) => call.method === 'PATCH');
    expect(licenceIndex).toBeGreaterThanOrEqual(0);
    expect(licenceIndex).toBeLessThan(patchIndex);
    expect(api.callsTo('POST', '/api/stores/updateLicence')[0]?.body).toEqual({
      storeId: store.id,
      activated: false,
    });
    expect(await screen.findByText('Saved successfully.')).toBeTruthy();
  });

  it('stores the hidden modules and extensions as the complement of the checked ones', async () => {
    const store = buildStore({ hidden_modules: ['labels'], hidden_extensions: [] });
    const { user, api } = renderStore(store);

    await user.click(await screen.findByTestId('store-modules'));
    const dialog = await screen.findByRole('dialog');
    const labels = within(dialog).getByTestId('module-labels') as HTMLInputElement;
    expect(labels.checked).toBe(false);
    expect((within(dialog).getByTestId('module-oils') as HTMLInputElement).checked).toBe(true);
    await user.click(within(dialog).getByTestId('module-oils'));
    await user.click(within(dialog).getByTestId('extension-shop'));
    await user.click(within(dialog).getByTestId('modules-confirm'));
    await user.click(screen.getByTestId('save'));

    await waitFor(() => expect(api.callsTo('PATCH', `/api/stores/${store.id}`)).toHaveLength(1));
    expect(api.callsTo('PATCH', `/api/stores/${store.id}`)[0]?.body).toMatchObject({
      version: store.version,
      hidden_modules: ['oils', 'labels'],
      hidden_extensions: ['shop'],
    });
  });

  it('tells each add-owner status apart: not eligible, invited, added', async () => {
    const store = buildStore();
    const statuses = ['not-elligible', 'invited', 'ok'];
    const { user, api } = renderStore(
      store,
      {},
      {
        'POST /api/stores/addOwner': () => ({ body: { status: statuses.shift() } }),
      },
    );

    await user.click(await screen.findByTestId('store-owners'));
    const dialog = await screen.findByRole('dialog');
    async function addOwner(email: string) {
      await user.clear(within(dialog).getByTestId('add-owner-email'));
      await user.click(within(dialog).getByTestId('add-owner-email'));
      await user.paste(email);
      await user.click(within(dialog).getByTestId('add-owner-submit'));
    }

    await addOwner('Chef@Opera.fr');
    expect(
      await screen.findByText('This user is not eligible for the establishment.'),
    ).toBeTruthy();
    expect(api.callsTo('POST', '/api/stores/addOwner')[0]?.body).toEqual({
      email: 'chef@opera.fr',
      storeId: store.id,
    });

    await addOwner('new@opera.fr');
    expect(
      await screen.findByText(
        'Invitation sent to new@opera.fr: they will be added as an owner once they accept.',
      ),
    ).toBeTruthy();

    await addOwner('owner@opera.fr');
    expect(await screen.findByText('The user has been added as an owner.')).toBeTruthy();
    expect(api.callsTo('POST', '/api/stores/addOwner')).toHaveLength(3);
  });

  it('lists a pending owner invitation after the owners, with its e-mail only (issue 13)', async () => {
    const owner = {
      id: '00000000-0000-4000-8000-00000000ab02',
      name: 'Yann',
      surname: 'Le Gall',
      email: 'yann@opera.fr',
      role: 'customer',
      store_count: 2,
    };
    const store = buildStore({ owners: [owner], invited_owners: [] });
    let invitedOwners: StoreDetail['invited_owners'] = [];
    const { user, api } = renderStore(
      store,
      { role: 'distributor' },
      {
        [`GET /api/stores/${store.id}`]: () => ({
          body: { store: { ...store, invited_owners: invitedOwners } },
        }),
        'POST /api/stores/addOwner': ({ body }) => {
          // An account of another tenant: the server invites and tells nothing about it.
          invitedOwners = [
            {
              email: (body as { email: string }).email,
              status: 'invited',
              invited_at: '2026-11-24T10:00:00Z',
            },
          ];
          return { body: { status: 'invited' } };
        },
        [`POST /api/stores/${store.id}/invitations/withdraw`]: () => {
          invitedOwners = [];
          return { body: { store: { ...store, invited_owners: [] } } };
        },
      },
    );

    await user.click(await screen.findByTestId('store-owners'));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByTestId('add-owner-email'));
    await user.paste('Chef@Other-Tenant.fr');
    await user.click(within(dialog).getByTestId('add-owner-submit'));

    expect(
      await screen.findByText(
        'Invitation sent to chef@other-tenant.fr: they will be added as an owner once they accept.',
      ),
    ).toBeTruthy();
    // The list is read again and shows the invitation after the linked owner.
    const invited = await within(dialog).findByTestId('owner-invited');
    expect(invited.textContent).toBe('chef@other-tenant.fr' + 'Invited');
    expect(within(invited).queryByTestId('owner-link')).toBeNull();
    expect(within(invited).queryByTestId('owner-remove')).toBeNull();
    const cards = within(dialog).getAllByTestId(/^owner-(card|invited)$/);
    expect(cards.map((card) => card.dataset.testid)).toEqual(['owner-card', 'owner-invited']);
    expect(within(dialog).getAllByTestId('owner-card')).toHaveLength(1);
    expect((within(dialog).getByTestId('add-owner-email') as HTMLInputElement).value).toBe('');
    expect(api.callsTo('GET', `/api/stores/${store.id}`).length).toBeGreaterThanOrEqual(2);

    // The adder withdraws it, after a confirmation naming the e-mail: its link adds nobody.
    await user.click(within(invited).getByTestId('owner-invited-withdraw'));
    expect(
      await screen.findByText(
        'Withdraw the invitation sent to chef@other-tenant.fr? Its link will no longer add them.',
      ),
    ).toBeTruthy();
    await user.click(screen.getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(within(dialog).queryByTestId('owner-invited')).toBeNull());
    expect(
      api.callsTo('POST', `/api/stores/${store.id}/invitations/withdraw`).map((call) => call.body),
    ).toEqual([{ email: 'chef@other-tenant.fr' }]);
    expect(
      await screen.findByText('The invitation sent to chef@other-tenant.fr is withdrawn.'),
    ).toBeTruthy();
  });

  it('links owner cards to their account, except for customers', async () => {
    const owner = {
      id: '00000000-0000-4000-8000-00000000ab01',
      name: 'Yann',
      surname: 'Le Gall',
      email: 'yann@opera.fr',
      role: 'customer',
      store_count: 2,
    };
    const store = buildStore({ owners: [owner] });
    const { user } = renderStore(store, { role: 'customer' });
    await user.click(await screen.findByTestId('store-owners'));
    const card = await screen.findByTestId('owner-card');
    expect(within(card).getByText('Yann Le Gall')).toBeTruthy();
    expect(within(card).getByText('2 stores')).toBeTruthy();
    expect(within(card).queryByTestId('owner-link')).toBeNull();
  });

  it('warns that more than one device starts a new billing, then saves the maximum', async () => {
    const store = buildStore({ maximum_devices: 1 });
    const { user, api } = renderStore(store, { tab: 5 });

    const picker = await screen.findByTestId('maximum-devices');
    await user.clear(picker);
    await user.type(picker, '3');
    expect(
      await screen.findByText(
        'Changing the maximum number of devices starts a new billing for the current month.',
      ),
    ).toBeTruthy();
    await user.click(confirmDialog());
    await user.click(screen.getByTestId('save'));

    await waitFor(() => expect(api.callsTo('PATCH', `/api/stores/${store.id}`)).toHaveLength(1));
    expect(api.callsTo('PATCH', `/api/stores/${store.id}`)[0]?.body).toMatchObject({
      maximum_devices: 3,
    });
  });

  it('puts the stored maximum back on screen when the billing warning is dismissed with Escape', async () => {
    const store = buildStore({ maximum_devices: 2 });
    const { user, api } = renderStore(store, { tab: 5 });

    const picker = (await screen.findByTestId('maximum-devices')) as HTMLInputElement;
    expect(picker.value).toBe('2');
    await user.clear(picker);
    await user.type(picker, '4');
    expect(
      await screen.findByText(
        'Changing the maximum number of devices starts a new billing for the current month.',
      ),
    ).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(confirmDialog()));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(picker.value).toBe('2'));

    await user.click(screen.getByTestId('save'));
    expect(await screen.findByText('Saved successfully.')).toBeTruthy();
    expect(api.callsTo('PATCH', `/api/stores/${store.id}`)[0]?.body).toMatchObject({
      maximum_devices: 2,
    });
    expect(picker.value).toBe('2');
  });

  it("changes a store's country and time zone on the General tab (issue 13)", async () => {
    const store = buildStore({ country: 'FR', timezone_name: 'Europe/Paris' });
    const { user, api } = renderStore(store);

    const country = (await screen.findByTestId('store-country')) as HTMLInputElement;
    expect(country.value).toBe('France');
    expect((screen.getByTestId('store-timezone') as HTMLInputElement).value).toBe('Europe/Paris');
    await user.click(country);
    await user.click(await screen.findByRole('option', { name: 'Portugal' }));
    // Picking a country picks its zone, which may then be changed.
    expect((screen.getByTestId('store-timezone') as HTMLInputElement).value).toBe('Europe/Lisbon');
    await user.clear(screen.getByTestId('store-timezone'));
    await user.type(screen.getByTestId('store-timezone'), 'Madeira');
    await user.click(await screen.findByRole('option', { name: 'Atlantic/Madeira' }));

    await user.click(screen.getByTestId('save'));
    expect(await screen.findByText('Saved successfully.')).toBeTruthy();
    expect(api.callsTo('PATCH', `/api/stores/${store.id}`)[0]?.body).toMatchObject({
      country: 'PT',
      timezone_name: 'Atlantic/Madeira',
    });
  });

  it('sends neither country nor time zone when they did not change', async () => {
    const store = buildStore();
    const { user, api } = renderStore(store);
    await user.type(await screen.findByTestId('store-name'), ' Nord');
    await user.click(screen.getByTestId('save'));
    await waitFor(() => expect(api.callsTo('PATCH', `/api/stores/${store.id}`)).toHaveLength(1));
    const body = api.callsTo('PATCH', `/api/stores/${store.id}`)[0]?.body;
    expect(body).toMatchObject({ name: `${store.name} Nord` });
    expect(body).not.toHaveProperty('country');
    expect(body).not.toHaveProperty('timezone_name');
  });

  it('refuses to save for a manager on a store that is not manager-owned', async () => {
    const store = buildStore({ is_read_only: true });
    const { user, api } = renderStore(store, { role: 'manager' });

    await user.click(await screen.findByTestId('save'));
    expect(
      await screen.findByText('You do not have permission to execute this action.'),
    ).toBeTruthy();
    expect(api.callsTo('PATCH', `/api/stores/${store.id}`)).toHaveLength(0);
  });
  it('locks the General fields and the owners for a manager on a read-only store', async () => {
    const store = buildStore({ is_read_only: true });
    const { user } = renderStore(store, { role: 'manager' });

    expect(((await screen.findByTestId('store-name')) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByTestId('store-city') as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByTestId('store-active') as HTMLInputElement).disabled).toBe(true);
    await user.click(screen.getByTestId('store-owners'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByTestId('add-owner-email')).toBeNull();
  });

  it('offers neither owner management nor pairing-key regeneration to a manager', async () => {
    const store = buildStore({ is_read_only: false, manager_owned: true });
    const { user } = renderStore(store, { role: 'manager' });

    expect(((await screen.findByTestId('store-name')) as HTMLInputElement).disabled).toBe(false);
    await user.click(screen.getByTestId('store-owners'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByTestId('add-owner-email')).toBeNull();
    await user.keyboard('{Escape}');

    await user.click(screen.getByTestId('store-tab-devices'));
    expect(await screen.findByTestId('maximum-devices')).toBeTruthy();
    expect(screen.queryByTestId('pairing-key-regenerate')).toBeNull();
  });

  it('lists the licence history, newest first, at most ten', async () => {
    const history = Array.from({ length: 12 }, (_, index) => ({
      timestamp: new Date(2026, 0, index + 1, 9, 30).toISOString(),
      activated: index % 2 === 0,
    }));
    const store = buildStore({ licence_activation_history: history });
    renderStore(store);

    const events = await screen.findAllByTestId('licence-history-event');
    expect(events).toHaveLength(10);
    expect(events[0]?.textContent).toBe('12/01/2026 09:30 · Deactivated');
    expect(events[1]?.textContent).toBe('11/01/2026 09:30 · Activated');
    expect(screen.getByTestId('licence-history-more').textContent).toBe('and 2 more');
  });
  it('opens the tasks tab of a store with a database', async () => {
    const store = buildStore({ database: buildId(), database_name: 'Bistro Group' });
    renderStore(
      store,
      { tab: 2 },
      { [`GET /api/stores/${store.id}/taskConfigurations`]: { body: { items: [] } } },
    );
    expect(await screen.findByTestId('task-configuration-list')).toBeTruthy();
    expect(screen.getByTestId('store-tasks-tab-day')).toBeTruthy();
    expect(screen.getByTestId('store-tab-employees').hasAttribute('disabled')).toBe(false);
  });

  it('shows no tasks tab before the store has a database', async () => {
    const store = buildStore({ database: null });
    renderStore(store, { tab: 2 });
    expect(await screen.findByTestId('store-tab-general')).toBeTruthy();
    expect(screen.queryByTestId('store-tab-tasks')).toBeNull();
    expect(screen.queryByTestId('task-configuration-list')).toBeNull();
  });
});
