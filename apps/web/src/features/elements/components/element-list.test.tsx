import type { ElementListItem } from '@mise/shared/catalogue/schemas';
import type { DatabaseDetail, StoreDetail } from '@mise/shared/organisation/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { buildDatabaseDetail, buildId, buildStore, buildUser } from '../../../test/factories';
import { type ApiCall, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';

function buildDatabase(overrides: Partial<DatabaseDetail> = {}): DatabaseDetail {
  return buildDatabaseDetail({ distributor_name: 'Mise Distribution France', ...overrides });
}

function buildItem(overrides: Partial<ElementListItem> = {}): ElementListItem {
  const id = overrides.id === undefined ? buildId() : overrides.id;
  return {
    key: id ?? `origin:${overrides.origin_id}`,
    id,
    origin_id: null,
    is_remote: false,
    name: 'Chambre froide',
    type_id: null,
    type_name: 'Réfrigérateurs',
    active: true,
    illustration_url: null,
    allergens: [],
    minimum_temperature: null,
    maximum_temperature: null,
    temperature_delivery_item: false,
    probe_id: null,
    probe_missing: false,
    ...overrides,
  };
}

type ListHandler = (call: ApiCall) => ElementListItem[];

function renderDatabaseElements(
  database: DatabaseDetail,
  list: ListHandler,
  extra: Record<string, MockHandler> = {},
  role: 'admin' | 'customer' = 'admin',
) {
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role }) } },
    [`GET /api/databases/${database.id}`]: { body: { database } },
    [`GET /api/databases/${database.id}/elements`]: (call) => ({ body: { items: list(call) } }),
    ...extra,
  });
  return { ...renderApp(`/database?id=${database.id}&tab=1`), api };
}

function renderStoreElements(
  store: StoreDetail,
  list: ListHandler,
  options: { role?: 'admin' | 'manager' | 'customer'; path?: string } = {},
) {
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: options.role ?? 'admin' }) } },
    [`GET /api/stores/${store.id}`]: { body: { store } },
    [`GET /api/stores/${store.id}/devices`]: { body: { items: [] } },
    'GET /api/koovea/session': { body: { isDistributor: false, loggedIn: false, stickers: [] } },
    [`GET /api/stores/${store.id}/elements`]: (call) => ({ body: { items: list(call) } }),
  });
  return { ...renderApp(options.path ?? `/storeDatabase?id=${store.id}&tab=1`), api };
}

const rowNames = () =>
  screen.getAllByTestId('element-row-name').map((element) => element.textContent);

describe('element list', { timeout: 20_000 }, () => {
  it('lists the database elements in the server order with type, temperatures, allergens and the inactive badge', async () => {
    const database = buildDatabase();
    renderDatabaseElements(database, () => [
      buildItem({
        name: 'Saumon',
        type_name: 'Poissons',
        minimum_temperature: 0,
        maximum_temperature: 2,
        allergens: ['milkOrLactose', 'fish'],
      }),
      buildItem({ name: 'Armoire', type_name: null, active: false, maximum_temperature: 4 }),
    ]);

    await waitFor(() => expect(rowNames()).toEqual(['Saumon', 'Armoire']));
    const [salmon, cupboard] = screen.getAllByTestId('element-row');
    if (!salmon || !cupboard) throw new Error('two rows expected');
    expect(within(salmon).getByTestId('element-row-type').textContent).toBe('Poissons');
    expect(within(salmon).getByTestId('element-row-temperatures').textContent).toBe('0 °C to 2 °C');
    // Letters in the spec's order (D fish before G milk), whatever the stored order.
    expect(within(salmon).getByTestId('element-row-allergens').textContent).toBe('DG');
    expect(within(salmon).queryByTestId('element-row-inactive')).toBeNull();
    expect(within(salmon).queryByTestId('element-row-origin')).toBeNull();
    expect(within(cupboard).getByTestId('element-row-type').textContent).toBe('No type');
    expect(within(cupboard).getByTestId('element-row-temperatures').textContent).toBe('max. 4 °C');
    expect(within(cupboard).getByTestId('element-row-inactive').textContent).toBe('Inactive');
  });

  it('sends the search and the inactive toggle to the server', async () => {
    const database = buildDatabase();
    const { user, api } = renderDatabaseElements(database, (call) =>
      call.query.get('search') === 'sau' ? [buildItem({ name: 'Saumon' })] : [buildItem()],
    );
    const path = `/api/databases/${database.id}/elements`;

    await waitFor(() => expect(rowNames()).toEqual(['Chambre froide']));
    expect(api.callsTo('GET', path)[0]?.query.get('includeInactive')).toBe('false');
    expect(api.callsTo('GET', path)[0]?.query.has('search')).toBe(false);

    await user.type(screen.getByTestId('elements-search'), 'sau');
    await waitFor(() => expect(rowNames()).toEqual(['Saumon']));

    await user.click(screen.getByTestId('elements-inactive'));
    await waitFor(() =>
      expect(api.callsTo('GET', path).at(-1)?.query.get('includeInactive')).toBe('true'),
    );
    expect(api.callsTo('GET', path).at(-1)?.query.get('search')).toBe('sau');
  });

  it('opens the creation screen of the database', async () => {
    const database = buildDatabase();
    const { user, router } = renderDatabaseElements(database, () => [buildItem()]);

    await user.click(await screen.findByTestId('elements-new'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/databaseElement'));
    expect(router.state.location.search).toBe(`?database=${database.id}`);
  });

  it('does not open the database screen to a customer (no-permission page, no New)', async () => {
    const database = buildDatabase();
    const { router } = renderDatabaseElements(database, () => [buildItem()], {}, 'customer');
    expect(await screen.findByTestId('no-permission')).toBeTruthy();
    expect(screen.queryByTestId('elements-new')).toBeNull();
    expect(router.state.location.pathname).toBe('/database');
  });

  it('opens the database element of a row', async () => {
    const database = buildDatabase();
    const item = buildItem({ name: 'Saumon' });
    const { user, router } = renderDatabaseElements(database, () => [item]);

    await user.click(await screen.findByRole('link', { name: 'Saumon' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/databaseElement'));
    expect(router.state.location.search).toBe(`?id=${item.id}`);
  });

  it('keeps the search text when the user comes back to the tab, and restores the scroll', async () => {
    const database = buildDatabase();
    const originalScrollTo = window.scrollTo;
    const scrollTo = vi.fn();
    window.scrollTo = scrollTo as unknown as typeof window.scrollTo;
    onTestFinished(() => {
      window.scrollTo = originalScrollTo;
    });
    const { user, api, router } = renderDatabaseElements(database, (call) =>
      call.query.get('search') === 'saumon' ? [buildItem({ name: 'Saumon' })] : [buildItem()],
    );
    const path = `/api/databases/${database.id}/elements`;

    await user.type(await screen.findByTestId('elements-search'), 'saumon');
    await waitFor(() => expect(rowNames()).toEqual(['Saumon']));
    Object.defineProperty(window, 'scrollY', { value: 640, configurable: true });
    window.dispatchEvent(new Event('scroll'));
    await new Promise((resolve) => window.requestAnimationFrame(() => resolve(null)));

    // Another tab, then back.
    await user.click(screen.getByTestId('database-tab-general'));
    await waitFor(() => expect(screen.queryByTestId('elements-search')).toBeNull());
    await user.click(screen.getByTestId('database-tab-elements'));
    expect(((await screen.findByTestId('elements-search')) as HTMLInputElement).value).toBe(
      'saumon',
    );
    await waitFor(() => expect(rowNames()).toEqual(['Saumon']));

    // Another screen, then back: the list reopens on its tab with its search and scroll.
    Object.defineProperty(window, 'scrollY', { value: 0, configurable: true });
    scrollTo.mockClear();
    await router.navigate('/support');
    await waitFor(() => expect(screen.queryByTestId('element-list')).toBeNull());
    await router.navigate(-1);
    expect(((await screen.findByTestId('elements-search')) as HTMLInputElement).value).toBe(
      'saumon',
    );
    await waitFor(() => expect(scrollTo).toHaveBeenCalledWith({ top: 640 }));
    expect(api.callsTo('GET', path).at(-1)?.query.get('search')).toBe('saumon');
  });

  it('hides the elements tab of a hidden database', async () => {
    const database = buildDatabase({ hidden: true });
    renderDatabaseElements(database, () => [buildItem()]);
    expect(await screen.findByTestId('database-tab-general')).toBeTruthy();
    expect(screen.queryByTestId('database-tab-elements')).toBeNull();
    expect(screen.queryByTestId('element-list')).toBeNull();
  });

  it('marks store rows by origin and opens the store row, or the database element not yet overridden', async () => {
    const store = buildStore({ database: buildId(), database_name: 'Bistro Group' });
    const originId = buildId();
    const own = buildItem({ name: 'Bac à glace', is_remote: true });
    const overridden = buildItem({ name: 'Chambre froide', is_remote: true, origin_id: buildId() });
    const inherited = buildItem({ id: null, name: 'Saumon', origin_id: originId });
    const { user, router, api } = renderStoreElements(store, () => [own, overridden, inherited]);

    await waitFor(() => expect(rowNames()).toEqual(['Bac à glace', 'Chambre froide', 'Saumon']));
    expect(api.callsTo('GET', `/api/stores/${store.id}/elements`)[0]?.query.get('tab')).toBe(
      'temperature',
    );
    expect(
      screen.getAllByTestId('element-row-origin').map((badge) => badge.dataset.origin),
    ).toEqual(['own', 'overridden', 'inherited']);
    expect(screen.getAllByTestId('element-row-origin')[2]?.textContent).toBe('From the database');

    expect(screen.getByRole('link', { name: 'Chambre froide' }).getAttribute('href')).toBe(
      `/storeElement?id=${overridden.id}`,
    );
    expect(screen.getByRole('link', { name: 'Bac à glace' }).getAttribute('href')).toBe(
      `/storeElement?id=${own.id}`,
    );

    await user.click(screen.getByRole('link', { name: 'Saumon' }));
    await waitFor(() => expect(router.state.location.search).toContain('origin='));
    expect(router.state.location.pathname).toBe('/storeElement');
    const query = new URLSearchParams(router.state.location.search);
    expect(query.get('store')).toBe(store.id);
    expect(query.get('origin')).toBe(originId);
    expect(query.has('id')).toBe(false);
  });

  it('opens element creation for the store, and the store allergens', async () => {
    const store = buildStore({ database: buildId(), database_name: 'Bistro Group' });
    const { user, router } = renderStoreElements(store, () => []);

    expect((await screen.findByTestId('elements-allergens')).getAttribute('href')).toBe(
      `/allergens?store=${store.id}`,
    );
    await user.click(screen.getByTestId('elements-new'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/newElement'));
    expect(router.state.location.search).toBe(`?store=${store.id}`);
  });

  it('refuses New and expert mode to a manager on a store that is not manager-owned', async () => {
    const store = buildStore({
      database: buildId(),
      database_name: 'Bistro Group',
      is_read_only: true,
    });
    const { user, router } = renderStoreElements(store, () => [buildItem()], { role: 'manager' });

    await user.click(await screen.findByTestId('elements-new'));
    expect(
      await screen.findByText('You do not have permission to execute this action.'),
    ).toBeTruthy();
    await user.click(screen.getByTestId('elements-expert'));
    expect(
      await screen.findAllByText('You do not have permission to execute this action.'),
    ).toHaveLength(2);
    expect(router.state.location.pathname).toBe('/storeDatabase');
  });

  it('hides expert mode from customers', async () => {
    const store = buildStore({ database: buildId(), database_name: 'Bistro Group' });
    renderStoreElements(store, () => [buildItem()], { role: 'customer' });
    expect(await screen.findByTestId('elements-new')).toBeTruthy();
    expect(screen.queryByTestId('elements-expert')).toBeNull();
  });

  it('shows the probes tab empty state and asks the server for that tab', async () => {
    const store = buildStore({ database: buildId(), database_name: 'Bistro Group' });
    const { user, api } = renderStoreElements(store, (call) =>
      call.query.get('tab') === 'probes' ? [] : [buildItem()],
    );

    await waitFor(() => expect(rowNames()).toEqual(['Chambre froide']));
    await user.click(screen.getByTestId('element-tab-probes'));
    expect((await screen.findByTestId('empty-state')).textContent).toContain('No probes yet.');
    expect(api.callsTo('GET', `/api/stores/${store.id}/elements`).at(-1)?.query.get('tab')).toBe(
      'probes',
    );
  });

  it('shows no elements tab on a store without a database', async () => {
    const store = buildStore({ database: null });
    renderStoreElements(store, () => [buildItem()], { path: `/store?id=${store.id}&tab=1` });
    expect(await screen.findByTestId('store-tab-general')).toBeTruthy();
    expect(screen.queryByTestId('store-tab-elements')).toBeNull();
    expect(screen.queryByTestId('element-list')).toBeNull();
  });
});
