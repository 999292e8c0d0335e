import type { Role } from '@mise/shared/auth/constants';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { getSelection, setSelection } from '../../shared/selection/use-selection';
import { updateAppSession } from '../../shared/session/app-session';
import { buildId, buildUser } from '../../test/factories';
import { apiError, mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render-app';

/** The spec's table (000 §2), read per role, in display order. */
const expectedEntries: Record<Role, string[]> = {
  admin: [
    'Home',
    'Distributors',
    'Databases',
    'Communications',
    'Documents',
    'History',
    'Audits',
    'Stores',
    'Trainings',
    'Probes',
    'Accounts',
    'Billing',
    'Technical',
  ],
  distributor: [
    'Home',
    'Distributors',
    'Databases',
    'Shop',
    'Documents',
    'History',
    'Audits',
    'Stores',
    'Trainings',
    'Accounts',
  ],
  manager: [
    'Home',
    'Databases',
    'Communications',
    'Documents',
    'History',
    'Audits',
    'Stores',
    'Trainings',
  ],
  customer: ['Home', 'Communications', 'Documents', 'History', 'Stores', 'Trainings'],
};

describe('navigation panel', () => {
  it.each(Object.entries(expectedEntries))(
    'shows exactly the entries of a %s',
    async (role, labels) => {
      mockApi({ 'GET /api/me': { body: { user: buildUser({ role: role as Role }) } } });
      renderApp('/home');

      const panel = await screen.findByTestId('navigation-panel');
      const links = within(panel).getAllByRole('link');
      expect(links.map((link) => link.textContent)).toEqual(labels);
      expect(links.every((link) => link.getAttribute('data-testid')?.startsWith('nav-'))).toBe(
        true,
      );
    },
  );

  it('links each entry to its flat route and marks the current one', async () => {
    mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'distributor' }) } },
      'GET /api/shop': {
        body: {
          shop: {
            distributor: { id: buildId(), name: 'Frais Distribution', shop_email: null },
            items: [],
            can_edit: true,
          },
        },
      },
    });
    const { user, router } = renderApp('/home');

    const shop = await screen.findByTestId('nav-shop');
    expect(shop.getAttribute('href')).toBe('/shop');
    expect(screen.getByTestId('nav-home').hasAttribute('data-active')).toBe(true);

    await user.click(shop);
    expect(await screen.findByTestId('shop-items')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/shop');
    expect(screen.getByTestId('page-title').textContent).toBe('Shop');
    expect(screen.getByTestId('nav-shop').hasAttribute('data-active')).toBe(true);
  });

  it('is hidden in tablet mode (an initial page is set)', async () => {
    updateAppSession({ initialPage: '/punchCards' });
    mockApi({ 'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } } });
    renderApp('/punchCards');

    expect(await screen.findByTestId('punch-cards-page', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByTestId('page-title').textContent).toBe('Punch cards');
    expect(screen.queryByTestId('navigation-panel')).toBeNull();
    expect(screen.queryByTestId('nav-home')).toBeNull();
    // The header stays: the user can still sign out.
    expect(screen.getByTestId('logout')).toBeTruthy();
  });

  it('shows the header with the initial, name, translated role, and opens the own account', async () => {
    const me = buildUser({ role: 'distributor', name: 'élise', surname: 'Roux' });
    mockApi({
      'GET /api/me': { body: { user: me } },
      [`GET /api/users/${me.id}`]: { body: { user: me } },
    });
    const { user, router } = renderApp('/home');

    const name = await screen.findByTestId('header-name');
    expect(within(name).getByTestId('header-initial').textContent).toBe('É');
    expect(name.textContent).toContain('élise Roux');
    expect(screen.getByTestId('header-role').textContent).toBe('Distributor');

    await user.click(name);
    expect((await screen.findByTestId('account-email')).getAttribute('value')).toBe(me.email);
    expect(router.state.location.pathname).toBe('/account');
    expect(router.state.location.search).toBe(`?id=${me.id}`);
  });

  it('clears the store/database selection on logout', async () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    setSelection({ kind: 'store', id: 'store-1', name: 'Bistro Opéra' });
    const api = mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
      'POST /api/auth/logout': { body: { status: 'ok' } },
    });
    const { user } = renderApp('/home');

    await user.click(await screen.findByTestId('logout'));
    await waitFor(() => expect(api.callsTo('POST', '/api/auth/logout')).toHaveLength(1));
    await waitFor(() => expect(reload).toHaveBeenCalled());
    expect(getSelection()).toBeNull();
  });

  it('sends a signed-out user to the login screen, without a navigation panel', async () => {
    mockApi({ 'GET /api/me': apiError(401, 'auth/unauthenticated') });
    const { router } = renderApp('/accounts');

    expect(await screen.findByTestId('login-email')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.queryByTestId('navigation-panel')).toBeNull();
  });
});
