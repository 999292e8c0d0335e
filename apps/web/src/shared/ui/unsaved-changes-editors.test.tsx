import type { Distributor } from '@mise/shared/organisation/schemas';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildId, buildStore, buildUser } from '../../test/factories';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render-app';

const question = 'You have unsaved changes. Leave this page anyway?';

function buildDistributor(): Distributor {
  return {
    id: buildId(),
    name: 'Frais Distribution',
    active: true,
    city: 'Lyon',
    countries: ['FR'],
    logo: null,
    store_count: 1,
    licensed_store_count: 1,
    address: '3 rue des Halles',
    postal_code: '69002',
    phone: '',
    email: '',
    shop_email: null,
    billing_cycle: 60,
    licence_price: 22,
    contacts: [],
    databases: [],
    sensor_connected: false,
    version: 4,
  };
}

type Rendered = ReturnType<typeof renderApp>;

/** Types into a field, then the menu's navigation: asked; No stays with the edit; Yes leaves. */
async function expectPromptOnLeaving({ user, router }: Rendered, testId: string, path: string) {
  const field = (await screen.findByTestId(testId, {}, { timeout: 10_000 })) as HTMLInputElement;
  await user.type(field, ' bis');
  const typed = field.value;

  await router.navigate('/home');
  expect(await screen.findByText(question)).toBeTruthy();
  await user.click(screen.getByTestId('confirm-dialog-cancel'));
  await waitFor(() => expect(router.state.location.pathname).toBe(path));
  expect((screen.getByTestId(testId) as HTMLInputElement).value).toBe(typed);

  await router.navigate('/home');
  await user.click(await screen.findByTestId('confirm-dialog-confirm'));
  await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
}

describe('unsaved changes prompt of the back-office editors (issue 13)', {
  timeout: 30_000,
}, () => {
  it('asks before leaving an account with unsaved changes', async () => {
    const account = buildUser({ role: 'customer', name: 'Yann', surname: 'Le Gall' });
    mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
      [`GET /api/users/${account.id}`]: { body: { user: account } },
      [`GET /api/users/${account.id}/stores`]: { body: { items: [] } },
    });
    await expectPromptOnLeaving(renderApp(`/account?id=${account.id}`), 'account-name', '/account');
  });

  it('asks before leaving a distributor with unsaved changes', async () => {
    const distributor = buildDistributor();
    mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
      [`GET /api/distributors/${distributor.id}`]: { body: { distributor } },
    });
    await expectPromptOnLeaving(
      renderApp(`/distributor?id=${distributor.id}`),
      'distributor-name',
      '/distributor',
    );
  });

  it("asks before leaving a store's General tab with unsaved changes, not when switching tabs", async () => {
    const store = buildStore();
    mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
      [`GET /api/stores/${store.id}`]: { body: { store } },
      [`GET /api/stores/${store.id}/devices`]: { body: { items: [] } },
      [`GET /api/stores/${store.id}/employees`]: { body: { items: [], roles: [] } },
      'GET /api/koovea/session': { body: { isDistributor: false, loggedIn: false, stickers: [] } },
    });
    const rendered = renderApp(`/store?id=${store.id}`);
    const { user, router } = rendered;
    const name = (await screen.findByTestId(
      'store-name',
      {},
      { timeout: 10_000 },
    )) as HTMLInputElement;
    await user.type(name, ' Nord');
    await user.click(screen.getByTestId('store-tab-devices'));
    await waitFor(() => expect(router.state.location.search).toContain('tab=5'));
    expect(screen.queryByText(question)).toBeNull();
    await user.click(screen.getByTestId('store-tab-general'));
    expect(((await screen.findByTestId('store-name')) as HTMLInputElement).value).toBe(
      `${store.name} Nord`,
    );

    await router.navigate('/home');
    expect(await screen.findByText(question)).toBeTruthy();
    await user.click(screen.getByTestId('confirm-dialog-cancel'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/store'));
    expect((screen.getByTestId('store-name') as HTMLInputElement).value).toBe(`${store.name} Nord`);
  });
});
