import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildId, buildUser } from '../../test/factories';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render-app';
import { getSelection, selectionStorageKey } from './use-selection';

const storeId = buildId();
const databaseId = buildId();

const lists = {
  'GET /api/stores': {
    body: {
      items: [
        {
          id: storeId,
          name: 'Boulangerie du Port',
          address: '1 quai Est',
          postal_code: '29200',
          city: 'Brest',
          country: 'FR',
          active: true,
          illustration_url: null,
          distributor: null,
          distributor_name: null,
          database: databaseId,
          database_name: 'Base Boulangeries',
          mise_licence: true,
        },
      ],
    },
  },
  'GET /api/databases': {
    body: {
      items: [
        {
          id: databaseId,
          name: 'Base Boulangeries',
          distributor: null,
          distributor_name: null,
          illustration_url: null,
          hidden: false,
          store_count: 3,
        },
      ],
    },
  },
};

describe('store and database selection popup', { timeout: 20_000 }, () => {
  it('offers customers their stores only, without the Database tab', async () => {
    const api = mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'customer' }) } },
      ...lists,
    });
    const { user } = renderApp('/home');

    await user.click(await screen.findByTestId('home-select'));
    const popup = await screen.findByRole('dialog');
    expect(await within(popup).findByText('Boulangerie du Port')).toBeTruthy();
    expect(within(popup).getByText('1 quai Est, 29200, Brest')).toBeTruthy();
    expect(within(popup).queryByTestId('selection-tab-databases')).toBeNull();
    expect(within(popup).queryByTestId('selection-tab-stores')).toBeNull();
    expect(api.callsTo('GET', '/api/databases')).toHaveLength(0);
  });

  it('lists databases with their store count; choosing a store clears the database', async () => {
    window.localStorage.setItem(
      selectionStorageKey,
      JSON.stringify({ kind: 'database', id: databaseId, name: 'Base Boulangeries' }),
    );
    mockApi({ 'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } }, ...lists });
    const { user } = renderApp('/home');

    expect((await screen.findByTestId('home-selected')).textContent).toBe(
      'Database: Base Boulangeries',
    );
    await user.click(screen.getByTestId('home-select'));
    const popup = await screen.findByRole('dialog');
    await user.click(within(popup).getByTestId('selection-tab-databases'));
    expect(await within(popup).findByText('3 stores')).toBeTruthy();

    await user.click(within(popup).getByTestId('selection-tab-stores'));
    await user.click(await within(popup).findByText('Boulangerie du Port'));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByTestId('home-selected').textContent).toBe('Store: Boulangerie du Port');
    expect(getSelection()).toEqual({ kind: 'store', id: storeId, name: 'Boulangerie du Port' });
  });
});
