import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildId, buildUser } from '../../../test/factories';
import { apiError, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';

const distributorId = buildId();
const databaseId = buildId();
const storeId = buildId();

const pickers = {
  'GET /api/users': { body: { items: [], total: 0 } },
  'GET /api/distributors': {
    body: { items: [{ id: distributorId, name: 'Frais Distribution', active: true }] },
  },
  'GET /api/databases': {
    body: {
      items: [
        { id: databaseId, name: 'Base Boulangeries', distributor: distributorId, store_count: 3 },
      ],
    },
  },
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
          distributor: distributorId,
          database: databaseId,
        },
      ],
    },
  },
};

async function openDialog(viewerRole: 'admin' | 'distributor', extra = {}) {
  const viewer = buildUser({
    role: viewerRole,
    distributor: viewerRole === 'distributor' ? distributorId : null,
  });
  const api = mockApi({ 'GET /api/me': { body: { user: viewer } }, ...pickers, ...extra });
  const rendered = renderApp('/accounts');
  await rendered.user.click(await screen.findByTestId('accounts-new'));
  const dialog = await screen.findByRole('dialog');
  return { ...rendered, api, dialog };
}

describe('new-account dialog', { timeout: 20_000 }, () => {
  it('validates in the spec order: role, distributor, store, database, passwords', async () => {
    const { user, dialog, api } = await openDialog('admin');
    const create = () => user.click(within(dialog).getByTestId('new-account-submit'));
    const error = () => within(dialog).getByTestId('new-account-error').textContent;
    async function chooseRole(label: string) {
      await user.click(within(dialog).getByTestId('new-account-role'));
      await user.click(await screen.findByRole('option', { name: label }));
    }

    // Passwords differ from the start: every earlier rule still wins.
    await user.type(within(dialog).getByTestId('new-account-password'), 'first-1');
    await user.type(within(dialog).getByTestId('new-account-confirmation'), 'second-2');

    await create();
    expect(error()).toBe('Select a role.');

    await chooseRole('Distributor');
    await create();
    expect(error()).toBe('Select a distributor.');

    await chooseRole('Customer');
    await create();
    expect(error()).toBe('Select a store.');

    await chooseRole('Manager');
    await create();
    expect(error()).toBe('Select a database.');

    await user.click(within(dialog).getByTestId('new-account-database'));
    await user.click(await screen.findByRole('option', { name: 'Base Boulangeries' }));
    await create();
    expect(error()).toBe('The password do not match.');

    expect(api.callsTo('POST', '/api/auth/registerAccount')).toHaveLength(0);
  });

  it('creates a customer with the chosen store and a lowercased e-mail', async () => {
    const { user, dialog, api } = await openDialog('admin', {
      'POST /api/auth/registerAccount': {
        body: { status: 'ok', user: buildUser({ role: 'customer' }) },
      },
    });

    await user.type(within(dialog).getByTestId('new-account-email'), 'Owner@Port.FR');
    await user.click(within(dialog).getByTestId('new-account-role'));
    await user.click(await screen.findByRole('option', { name: 'Customer' }));
    await user.click(within(dialog).getByTestId('new-account-store'));
    await user.click(await screen.findByRole('option', { name: 'Boulangerie du Port (Brest)' }));
    await user.type(within(dialog).getByTestId('new-account-password'), 'same-pass-1');
    await user.type(within(dialog).getByTestId('new-account-confirmation'), 'same-pass-1');
    await user.type(within(dialog).getByTestId('new-account-name'), 'Yann');
    await user.type(within(dialog).getByTestId('new-account-surname'), 'Le Gall');
    await user.type(within(dialog).getByTestId('new-account-phone'), '0298000000');
    await user.click(within(dialog).getByTestId('new-account-submit'));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('POST', '/api/auth/registerAccount')[0]?.body).toEqual({
      email: 'owner@port.fr',
      role: 'customer',
      distributorId: null,
      databaseId: null,
      storeId,
      password: 'same-pass-1',
      name: 'Yann',
      surname: 'Le Gall',
      phone: '0298000000',
    });
    expect(await screen.findByText('The account has been created.')).toBeTruthy();
  });

  it("gives a distributor viewer's own distributor to a distributor account, with no picker", async () => {
    const { user, dialog, api } = await openDialog('distributor', {
      'POST /api/auth/registerAccount': {
        body: { status: 'ok', user: buildUser({ role: 'distributor' }) },
      },
    });

    await user.type(within(dialog).getByTestId('new-account-email'), 'sales@frais.fr');
    await user.click(within(dialog).getByTestId('new-account-role'));
    await user.click(await screen.findByRole('option', { name: 'Distributor' }));
    expect(within(dialog).queryByTestId('new-account-distributor')).toBeNull();
    await user.type(within(dialog).getByTestId('new-account-password'), 'same-pass-1');
    await user.type(within(dialog).getByTestId('new-account-confirmation'), 'same-pass-1');
    await user.type(within(dialog).getByTestId('new-account-name'), 'Inès');
    await user.type(within(dialog).getByTestId('new-account-surname'), 'Morel');
    // Enter in a text field does not create (spec 000 §4): Create does.
    await user.type(within(dialog).getByTestId('new-account-phone'), '{Enter}');
    expect(api.callsTo('POST', '/api/auth/registerAccount')).toHaveLength(0);
    await user.click(within(dialog).getByTestId('new-account-submit'));

    await waitFor(() => expect(api.callsTo('POST', '/api/auth/registerAccount')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/auth/registerAccount')[0]?.body).toMatchObject({
      role: 'distributor',
      distributorId,
      email: 'sales@frais.fr',
    });
  });

  it("shows the server's refusal in the dialog's red label", async () => {
    const { user, dialog } = await openDialog('admin', {
      'POST /api/auth/registerAccount': apiError(409, 'auth/email-already-in-use'),
    });

    await user.type(within(dialog).getByTestId('new-account-email'), 'taken@example.com');
    await user.click(within(dialog).getByTestId('new-account-role'));
    await user.click(await screen.findByRole('option', { name: 'Manager' }));
    await user.click(within(dialog).getByTestId('new-account-database'));
    await user.click(await screen.findByRole('option', { name: 'Base Boulangeries' }));
    await user.type(within(dialog).getByTestId('new-account-password'), 'same-pass-1');
    await user.type(within(dialog).getByTestId('new-account-confirmation'), 'same-pass-1');
    await user.type(within(dialog).getByTestId('new-account-name'), 'Paul');
    await user.type(within(dialog).getByTestId('new-account-surname'), 'Henry');
    await user.click(within(dialog).getByTestId('new-account-submit'));

    await waitFor(() =>
      expect(within(dialog).getByTestId('new-account-error').textContent).toBe(
        'An account already exists for this e-mail address.',
      ),
    );
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});
