import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../../shared/i18n/i18n';
import { buildId, buildUser } from '../../../test/factories';
import { apiError, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';

describe('account detail', () => {
  it('saves with the version read and confirms it', async () => {
    const viewer = buildUser({ role: 'distributor' });
    const account = buildUser({ role: 'customer', name: 'Yann', surname: 'Le Gall', version: 7 });
    const api = mockApi({
      'GET /api/me': { body: { user: viewer } },
      [`GET /api/users/${account.id}`]: { body: { user: account } },
      [`PATCH /api/users/${account.id}`]: ({ body }) => ({
        body: { user: { ...account, ...(body as object), version: 8 } },
      }),
    });
    const { user } = renderApp(`/account?id=${account.id}`);

    expect((await screen.findByTestId('page-title')).textContent).toBe('Yann Le Gall');
    expect(screen.getByTestId('page-subtitle').textContent).toBe('Customer');
    expect(screen.getByTestId('account-email').hasAttribute('readonly')).toBe(true);

    await user.clear(screen.getByTestId('account-phone'));
    await user.type(screen.getByTestId('account-phone'), '0600000000');
    await user.click(screen.getByTestId('account-active'));
    await user.click(screen.getByTestId('account-save'));

    expect(await screen.findByText('Saved successfully.')).toBeTruthy();
    expect(api.callsTo('PATCH', `/api/users/${account.id}`)[0]?.body).toEqual({
      version: 7,
      name: 'Yann',
      surname: 'Le Gall',
      phone_number: '0600000000',
      active: false,
    });
  });

  it('saves the own account without `active`, its toggle locked', async () => {
    const viewer = buildUser({ role: 'admin', name: 'Léa', surname: 'Roux', version: 4 });
    const api = mockApi({
      'GET /api/me': { body: { user: viewer } },
      [`GET /api/users/${viewer.id}`]: { body: { user: viewer } },
      [`GET /api/users/${viewer.id}/stores`]: { body: { items: [] } },
      [`PATCH /api/users/${viewer.id}`]: ({ body }) => ({
        body: { user: { ...viewer, ...(body as object), version: 5 } },
      }),
    });
    const { user } = renderApp(`/account?id=${viewer.id}`);

    expect((await screen.findByTestId('account-active')).hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByTestId('account-save'));

    expect(await screen.findByText('Saved successfully.')).toBeTruthy();
    expect(api.callsTo('PATCH', `/api/users/${viewer.id}`)[0]?.body).toEqual({
      version: 4,
      name: 'Léa',
      surname: 'Roux',
      phone_number: viewer.phone_number,
    });
  });

  it('locks the active toggle for a manager viewer and leaves `active` out', async () => {
    const viewer = buildUser({ role: 'manager' });
    const account = buildUser({ role: 'customer', version: 2 });
    const api = mockApi({
      'GET /api/me': { body: { user: viewer } },
      [`GET /api/users/${account.id}`]: { body: { user: account } },
      [`PATCH /api/users/${account.id}`]: ({ body }) => ({
        body: { user: { ...account, ...(body as object), version: 3 } },
      }),
    });
    const { user } = renderApp(`/account?id=${account.id}`);

    expect((await screen.findByTestId('account-active')).hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByTestId('account-save'));
    expect(await screen.findByText('Saved successfully.')).toBeTruthy();
    expect(api.callsTo('PATCH', `/api/users/${account.id}`)[0]?.body).not.toHaveProperty('active');
  });

  it('tells the user to reload when someone else saved first', async () => {
    const account = buildUser({ role: 'manager' });
    mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
      [`GET /api/users/${account.id}`]: { body: { user: account } },
      [`GET /api/users/${account.id}/stores`]: { body: { items: [] } },
      [`PATCH /api/users/${account.id}`]: apiError(409, 'conflict/stale-version'),
    });
    const { user } = renderApp(`/account?id=${account.id}`);

    await user.click(await screen.findByTestId('account-save'));
    expect(
      await screen.findByText(
        'This record was changed by someone else. Reload it before saving again.',
      ),
    ).toBeTruthy();
  });

  it('labels an admin account as customer and lists its stores for an admin viewer', async () => {
    const account = buildUser({ role: 'admin' });
    const storeId = buildId();
    mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
      [`GET /api/users/${account.id}`]: { body: { user: account } },
      [`GET /api/users/${account.id}/stores`]: {
        body: { items: [{ id: storeId, name: 'Boulangerie du Port', city: 'Brest' }] },
      },
    });
    renderApp(`/account?id=${account.id}`);

    expect((await screen.findByTestId('page-subtitle')).textContent).toBe('Customer');
    const stores = await screen.findByTestId('account-stores');
    expect(await within(stores).findByText('Boulangerie du Port (Brest)')).toBeTruthy();
  });

  it('offers change-password on the own account only, and login tokens to distributors', async () => {
    const viewer = buildUser({ role: 'distributor' });
    const other = buildUser({ role: 'customer' });
    mockApi({
      'GET /api/me': { body: { user: viewer } },
      [`GET /api/users/${viewer.id}`]: { body: { user: viewer } },
      [`GET /api/users/${other.id}`]: { body: { user: other } },
    });
    const own = renderApp(`/account?id=${viewer.id}`);
    expect(await screen.findByTestId('account-change-password')).toBeTruthy();
    expect(screen.getByTestId('account-create-token')).toBeTruthy();
    expect(screen.queryByTestId('account-stores')).toBeNull();
    own.unmount();

    renderApp(`/account?id=${other.id}`);
    expect(await screen.findByTestId('account-create-token')).toBeTruthy();
    expect(screen.queryByTestId('account-change-password')).toBeNull();
  });

  it('hides login tokens from a customer viewer', async () => {
    const viewer = buildUser({ role: 'customer' });
    mockApi({
      'GET /api/me': { body: { user: viewer } },
      [`GET /api/users/${viewer.id}`]: { body: { user: viewer } },
    });
    renderApp(`/account?id=${viewer.id}`);
    expect(await screen.findByTestId('account-change-password')).toBeTruthy();
    expect(screen.queryByTestId('account-create-token')).toBeNull();
  });

  it('creates a login token and copies it to the clipboard', async () => {
    await changeLanguage('fr');
    const account = buildUser({ role: 'customer' });
    const api = mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
      [`GET /api/users/${account.id}`]: { body: { user: account } },
      [`GET /api/users/${account.id}/stores`]: { body: { items: [] } },
      'POST /api/auth/createToken': { body: { token: 'tok-123' } },
    });
    const { user } = renderApp(`/account?id=${account.id}`);

    await user.click(await screen.findByTestId('account-create-token'));
    expect((await screen.findByTestId('login-token')).textContent).toBe('tok-123');
    expect(api.callsTo('POST', '/api/auth/createToken')[0]?.body).toEqual({ UId: account.id });

    await user.click(screen.getByTestId('login-token-copy'));
    // user-event provides the clipboard of the test browser.
    expect(await navigator.clipboard.readText()).toBe('tok-123');
    expect(await screen.findByText('Texte copié dans le presse-papiers !')).toBeTruthy();
  });

  it('asks for confirmation, then requires a new password and reloads', async () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    const viewer = buildUser({ role: 'manager' });
    const api = mockApi({
      'GET /api/me': { body: { user: viewer } },
      [`GET /api/users/${viewer.id}`]: { body: { user: viewer } },
      'POST /api/auth/password/require-change': { body: { status: 'ok' } },
    });
    const { user } = renderApp(`/account?id=${viewer.id}`);

    await user.click(await screen.findByTestId('account-change-password'));
    expect(api.callsTo('POST', '/api/auth/password/require-change')).toHaveLength(0);
    await user.click(await screen.findByTestId('confirm-dialog-confirm'));

    await waitFor(() => expect(reload).toHaveBeenCalled());
    expect(api.callsTo('POST', '/api/auth/password/require-change')).toHaveLength(1);
  });
});
