import type { StoreDetail } from '@mise/shared/organisation/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../shared/i18n/i18n';
import { updateAppSession } from '../../../shared/session/app-session';
import { buildId, buildStore, buildUser } from '../../../test/factories';
import { apiError, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';

const distributorId = buildId();
const linkedDatabaseId = buildId();
const orphanDatabaseId = buildId();

function renderStore(
  store: StoreDetail,
  path: string,
  role: 'admin' | 'distributor' | 'customer' = 'admin',
  extra: Record<string, MockHandler> = {},
) {
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role }) } },
    [`GET /api/stores/${store.id}`]: { body: { store } },
    [`GET /api/stores/${store.id}/devices`]: { body: { items: [] } },
    'GET /api/koovea/session': { body: { isDistributor: false, loggedIn: false, stickers: [] } },
    'GET /api/koovea/tags': { body: { tags: [] } },
    'GET /api/databases': {
      body: {
        items: [
          { id: linkedDatabaseId, name: 'Base Paris', distributor: distributorId, store_count: 2 },
          { id: orphanDatabaseId, name: 'Base orpheline', distributor: null, store_count: 0 },
        ],
      },
    },
    ...extra,
  });
  return { ...renderApp(path), api };
}

/** SHA-256 of "secret-pass", hex. */
const secretHash = 'f38eb016088980f10dcbffce49bc7d0d476d198c43a6fa8a343416709049c9db';

describe('store database and probe provider', { timeout: 20_000 }, () => {
  it('asks for a database with a distributor before attaching it (invalid-database)', async () => {
    const store = buildStore({ database: null });
    const attached = { ...store, database: linkedDatabaseId, database_name: 'Base Paris' };
    const { user, api, router } = renderStore(store, `/store?id=${store.id}`, 'admin', {
      [`POST /api/stores/${store.id}/database`]: { body: { store: attached } },
    });

    await user.click(await screen.findByTestId('select-database'));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByTestId('select-database-submit'));
    expect(within(dialog).getByTestId('select-database-error').textContent).toBe(
      'Select a database that belongs to a distributor.',
    );

    await user.click(within(dialog).getByTestId('select-database-choice'));
    await user.click(await screen.findByRole('option', { name: 'Base orpheline' }));
    await user.click(within(dialog).getByTestId('select-database-submit'));
    expect(within(dialog).getByTestId('select-database-error').textContent).toBe(
      'Select a database that belongs to a distributor.',
    );
    expect(api.callsTo('POST', `/api/stores/${store.id}/database`)).toHaveLength(0);

    await user.click(within(dialog).getByTestId('select-database-choice'));
    await user.click(await screen.findByRole('option', { name: 'Base Paris' }));
    await user.click(within(dialog).getByTestId('select-database-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/storeDatabase'));
    expect(api.callsTo('POST', `/api/stores/${store.id}/database`)[0]?.body).toEqual({
      databaseId: linkedDatabaseId,
    });
  });

  it("shows the server's invalid-database refusal", async () => {
    const store = buildStore({ database: null });
    const { user } = renderStore(store, `/store?id=${store.id}`, 'admin', {
      [`POST /api/stores/${store.id}/database`]: apiError(400, 'invalid-database'),
    });
    await user.click(await screen.findByTestId('select-database'));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByTestId('select-database-choice'));
    await user.click(await screen.findByRole('option', { name: 'Base Paris' }));
    await user.click(within(dialog).getByTestId('select-database-submit'));
    await waitFor(() =>
      expect(within(dialog).getByTestId('select-database-error').textContent).toBe(
        'Select a database that belongs to a distributor.',
      ),
    );
  });

  it('sends the provider password hashed, and tells wrong credentials from a connection', async () => {
    const store = buildStore({ database: linkedDatabaseId });
    const answers = ['false', 'ok'];
    const { user, api } = renderStore(store, `/storeDatabase?id=${store.id}&tab=4`, 'admin', {
      'POST /api/koovea/validCredentials': () => ({ body: { status: answers.shift() } }),
    });

    expect((await screen.findByTestId('sensor-state')).textContent).toBe('Not connected');
    await user.click(screen.getByTestId('store-sensor-credentials'));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByTestId('sensor-credentials-email'));
    await user.paste('kitchen@opera.fr');
    await user.click(within(dialog).getByTestId('sensor-credentials-password'));
    await user.paste('secret-pass');
    await user.click(within(dialog).getByTestId('sensor-credentials-submit'));

    expect(await screen.findByText('Incorrect Koovea credentials.')).toBeTruthy();
    expect(api.callsTo('POST', '/api/koovea/validCredentials')[0]?.body).toEqual({
      email: 'kitchen@opera.fr',
      password: secretHash,
      storeId: store.id,
    });

    await user.click(within(dialog).getByTestId('sensor-credentials-submit'));
    expect(await screen.findByText('Connection with Koovea established.')).toBeTruthy();
  });

  it('locks the hub once stored and only logs when the stored one is no longer listed', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const store = buildStore({ database: linkedDatabaseId, sensor_sticker_id: 'sticker-9' });
    renderStore(store, `/storeDatabase?id=${store.id}&tab=4`, 'distributor', {
      'GET /api/koovea/session': {
        body: {
          isDistributor: true,
          loggedIn: true,
          stickers: [{ id: 'sticker-1', name: 'Hub 1' }],
        },
      },
    });

    expect((await screen.findByTestId('sensor-state')).textContent).toBe('Set by the distributor');
    expect((screen.getByTestId('sensor-hub') as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByTestId('sensor-hub-missing')).toBeNull();
    expect(
      screen.queryByText('The previously selected probe cannot be found. Change it.'),
    ).toBeNull();
    await waitFor(() => expect(warn).toHaveBeenCalledWith(expect.stringContaining('sticker-9')));
    warn.mockRestore();
  });

  it("imports the provider's probes into the store and says how many were new", async () => {
    const store = buildStore({ database: linkedDatabaseId });
    const answers = [
      { body: { created: 2, existing: 1, skipped: 0 } },
      apiError(409, 'sensor/not-connected'),
    ];
    const { user, api } = renderStore(store, `/storeDatabase?id=${store.id}&tab=4`, 'customer', {
      'GET /api/koovea/session': { body: { isDistributor: false, loggedIn: true, stickers: [] } },
      'GET /api/koovea/tags': { body: { tags: [{ id: 'tag-1', name: 'Frigo 1' }] } },
      'POST /api/koovea/import': () => answers.shift()!,
    });

    await user.click(await screen.findByTestId('sensor-import-probes'));
    expect(await screen.findByText('2 probe(s) imported, 1 already there.')).toBeTruthy();
    expect(api.callsTo('POST', '/api/koovea/import')[0]?.body).toEqual({ storeId: store.id });
    await user.click(screen.getByTestId('sensor-import-probes'));
    expect(
      await screen.findByText('This store is not connected to the probe provider.'),
    ).toBeTruthy();
  });

  it('offers no import while the store is not connected', async () => {
    const store = buildStore({ database: linkedDatabaseId });
    renderStore(store, `/storeDatabase?id=${store.id}&tab=4`, 'admin', {
      'GET /api/koovea/session': { body: { isDistributor: false, loggedIn: false, stickers: [] } },
    });
    expect((await screen.findByTestId('sensor-state')).textContent).toBe('Not connected');
    expect(screen.queryByTestId('sensor-import-probes')).toBeNull();
  });

  it('hides the probe provider tab from owners when the distributor connected it', async () => {
    const store = buildStore({ database: linkedDatabaseId });
    renderStore(store, `/storeDatabase?id=${store.id}`, 'customer', {
      'GET /api/koovea/session': { body: { isDistributor: true, loggedIn: true, stickers: [] } },
    });
    expect(await screen.findByTestId('store-tab-devices')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('store-tab-probeProvider')).toBeNull());
  });

  it('locks the General fields in tablet mode', async () => {
    updateAppSession({ initialPage: '/storeDatabase' });
    const store = buildStore({ database: linkedDatabaseId });
    renderStore(store, `/storeDatabase?id=${store.id}`);
    expect(((await screen.findByTestId('store-name')) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByTestId('licence-toggle') as HTMLInputElement).disabled).toBe(true);
  });

  it('keeps the French texts of the spec for the owner statuses', async () => {
    await i18n.changeLanguage('fr');
    const store = buildStore({ database: linkedDatabaseId });
    const statuses = ['not-elligible', 'ok'];
    const { user } = renderStore(store, `/storeDatabase?id=${store.id}`, 'admin', {
      'POST /api/stores/addOwner': () => ({ body: { status: statuses.shift() } }),
    });
    await user.click(await screen.findByTestId('store-owners'));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByTestId('add-owner-email'));
    await user.paste('chef@opera.fr');
    await user.click(within(dialog).getByTestId('add-owner-submit'));
    expect(
      await screen.findByText("Cet utilisateur n'est pas elligible a l'établissement."),
    ).toBeTruthy();
    await user.click(within(dialog).getByTestId('add-owner-submit'));
    expect(await screen.findByText("L'utilisateur a été ajouté en propriétaire.")).toBeTruthy();
  });
});
