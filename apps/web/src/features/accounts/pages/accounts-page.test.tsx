import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser, buildUserSummary } from '../../../test/factories';
import { mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';

describe('accounts list', () => {
  it('shows name, e-mail and store count, and opens the account from its card', async () => {
    const listed = buildUserSummary({
      name: 'Alex',
      surname: 'Durand',
      email: 'alex@example.com',
      store_count: 3,
    });
    mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
      'GET /api/users': { body: { items: [listed], total: 1 } },
    });
    const { user, router } = renderApp('/accounts');

    const card = await screen.findByTestId('account-card');
    expect(within(card).getByTestId('account-card-name').textContent).toBe('Alex Durand');
    expect(within(card).getByTestId('account-card-email').textContent).toBe('alex@example.com');
    expect(within(card).getByTestId('account-card-store-count').textContent).toBe('3 stores');
    expect(screen.getByTestId('accounts-new')).toBeTruthy();

    await user.click(card);
    await waitFor(() => expect(router.state.location.pathname).toBe('/account'));
    expect(router.state.location.search).toBe(`?id=${listed.id}`);
  });

  it('searches on the server once typing pauses, with the inactive toggle', async () => {
    const api = mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'distributor' }) } },
      'GET /api/users': ({ query }) => ({
        body: {
          items: query.get('search') === 'dur' ? [buildUserSummary({ name: 'Found' })] : [],
          total: query.get('search') === 'dur' ? 1 : 0,
        },
      }),
    });
    const { user } = renderApp('/accounts');

    expect(await screen.findByText('No account matches.')).toBeTruthy();
    expect(api.callsTo('GET', '/api/users')[0]?.query.get('includeInactive')).toBe('false');

    await user.type(screen.getByTestId('accounts-search'), 'dur');
    expect(await screen.findByText('Found Durand')).toBeTruthy();
    const searches = api.callsTo('GET', '/api/users').map((call) => call.query.get('search'));
    // Debounced: no request for the partial "d" or "du".
    expect(searches).toEqual([null, 'dur']);

    await user.click(screen.getByTestId('accounts-inactive'));
    await waitFor(() =>
      expect(api.callsTo('GET', '/api/users').at(-1)?.query.get('includeInactive')).toBe('true'),
    );
  });

  it("shows no store count on a manager's card (issue 13)", async () => {
    mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
      'GET /api/users': {
        body: {
          items: [
            buildUserSummary({ name: 'Marc', role: 'manager', store_count: 0 }),
            buildUserSummary({ name: 'Claire', role: 'customer', store_count: 2 }),
          ],
          total: 2,
        },
      },
    });
    renderApp('/accounts');

    const manager = await screen.findByRole('link', { name: 'Marc Durand' });
    expect(within(manager).queryByTestId('account-card-store-count')).toBeNull();
    expect(within(manager).queryByText('0 stores')).toBeNull();
    const customer = screen.getByRole('link', { name: 'Claire Durand' });
    expect(within(customer).getByTestId('account-card-store-count').textContent).toBe('2 stores');
  });

  it('shows a manager the no-permission page: accounts are for admins and distributors (spec 000 §2)', async () => {
    const api = mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'manager' }) } },
      'GET /api/users': { body: { items: [buildUserSummary()], total: 1 } },
    });
    renderApp('/accounts');

    expect(await screen.findByTestId('no-permission')).toBeTruthy();
    expect(screen.queryByTestId('account-card')).toBeNull();
    expect(screen.queryByTestId('accounts-new')).toBeNull();
    expect(api.callsTo('GET', '/api/users')).toEqual([]);
  });
});
