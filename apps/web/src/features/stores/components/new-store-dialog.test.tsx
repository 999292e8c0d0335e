import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildId, buildStore, buildUser } from '../../../test/factories';
import { apiError, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';

const distributorId = buildId();

async function openDialog(role: 'admin' | 'distributor', extra = {}) {
  const api = mockApi({
    'GET /api/me': {
      body: {
        user: buildUser({ role, distributor: role === 'distributor' ? distributorId : null }),
      },
    },
    'GET /api/stores': { body: { items: [] } },
    'GET /api/databases': { body: { items: [] } },
    'GET /api/distributors': {
      body: { items: [{ id: distributorId, name: 'Frais Distribution', active: true }] },
    },
    ...extra,
  });
  const rendered = renderApp('/stores');
  await rendered.user.click(await screen.findByTestId('new-store'));
  const dialog = await screen.findByRole('dialog');
  return { ...rendered, api, dialog };
}

async function fillAddress(user: ReturnType<typeof renderApp>['user'], dialog: HTMLElement) {
  const fields = {
    'store-name': 'Bistro Opéra',
    'store-address': '5 place de l’Opéra',
    'store-postal-code': '75009',
    'store-city': 'Paris',
  };
  for (const [testId, text] of Object.entries(fields)) {
    await user.click(within(dialog).getByTestId(testId));
    await user.paste(text);
  }
}

describe('new store dialog', { timeout: 20_000 }, () => {
  it('requires name, address, postal code and city, then a distributor for admins', async () => {
    const { user, dialog, api } = await openDialog('admin');
    const error = () => within(dialog).getByTestId('new-store-error').textContent;

    await user.click(within(dialog).getByTestId('new-store-submit'));
    expect(error()).toBe('Please fill all fields.');
    expect(within(dialog).getAllByText('Required')).toHaveLength(4);

    await fillAddress(user, dialog);
    await user.click(within(dialog).getByTestId('new-store-submit'));
    expect(error()).toBe('Select a distributor.');
    expect(api.callsTo('POST', '/api/stores')).toHaveLength(0);
  });

  it('sends the store with the default country and time zone for a distributor', async () => {
    const created = buildStore();
    const { user, dialog, api, router } = await openDialog('distributor', {
      'POST /api/stores': { body: { store: created } },
      [`GET /api/stores/${created.id}`]: { body: { store: created } },
      'GET /api/koovea/session': { body: { isDistributor: false, loggedIn: false, stickers: [] } },
    });
    expect(within(dialog).queryByTestId('store-distributor')).toBeNull();
    await fillAddress(user, dialog);
    await user.click(within(dialog).getByTestId('new-store-submit'));

    await waitFor(() => expect(api.callsTo('POST', '/api/stores')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/stores')[0]?.body).toEqual({
      name: 'Bistro Opéra',
      address: '5 place de l’Opéra',
      postal_code: '75009',
      city: 'Paris',
      country: 'FR',
      timezone_name: 'Europe/Paris',
      distributorId: null,
      databaseId: null,
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/store'));
  });

  it('shows the duplicate-store message when the server refuses it', async () => {
    const { user, dialog } = await openDialog('distributor', {
      'POST /api/stores': apiError(409, 'form.store.invalid.exists', 'exists'),
    });
    await fillAddress(user, dialog);
    await user.click(within(dialog).getByTestId('new-store-submit'));

    await waitFor(() =>
      expect(within(dialog).getByTestId('new-store-error').textContent).toBe(
        'A store with this name or this address already exists.',
      ),
    );
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});
