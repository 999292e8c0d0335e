import type { DatabaseDetail } from '@mise/shared/organisation/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildDatabaseDetail, buildId, buildUser } from '../../../test/factories';
import { mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';

const distributorId = buildId();

function buildDatabase(overrides: Partial<DatabaseDetail> = {}): DatabaseDetail {
  return buildDatabaseDetail({
    name: 'Base Boulangeries',
    distributor: distributorId,
    hidden_extensions: ['planning'],
    managers: [{ id: buildId(), name: 'Paul', surname: 'Henry', email: 'paul@frais.fr' }],
    version: 2,
    ...overrides,
  });
}

function renderDatabase(database: DatabaseDetail, role: 'admin' | 'distributor' | 'manager') {
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role }) } },
    'GET /api/distributors': { body: { items: [] } },
    [`GET /api/databases/${database.id}`]: { body: { database } },
    [`PATCH /api/databases/${database.id}`]: ({ body }) => ({
      body: { database: { ...database, ...(body as object), version: database.version + 1 } },
    }),
    'POST /api/database/addManager': { body: { status: 'ok' } },
  });
  return { ...renderApp(`/database?id=${database.id}`), api };
}

describe('database detail', { timeout: 20_000 }, () => {
  it('locks the distributor once set, opens every tab, and saves the unchecked modules', async () => {
    const database = buildDatabase();
    const { user, api } = renderDatabase(database, 'admin');

    const distributor = (await screen.findByTestId('database-distributor')) as HTMLInputElement;
    expect(distributor.disabled).toBe(true);
    expect(distributor.value).toBe('Frais Distribution');
    expect(screen.getByTestId('database-tab-elements').hasAttribute('disabled')).toBe(false);
    expect(screen.getByTestId('database-tab-tasks').hasAttribute('disabled')).toBe(false);
    expect(screen.getByTestId('database-tab-tags').hasAttribute('disabled')).toBe(false);
    expect(screen.getByTestId('database-tab-shop').hasAttribute('disabled')).toBe(false);
    expect(screen.getByTestId('database-manager').textContent).toContain('paul@frais.fr');

    await user.click(screen.getByTestId('database-modules'));
    const dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByTestId('extension-planning') as HTMLInputElement).checked).toBe(
      false,
    );
    await user.click(within(dialog).getByTestId('module-temperatures'));
    await user.click(within(dialog).getByTestId('extension-planning'));
    await user.click(within(dialog).getByTestId('modules-confirm'));
    await user.click(screen.getByTestId('save'));

    await waitFor(() =>
      expect(api.callsTo('PATCH', `/api/databases/${database.id}`)).toHaveLength(1),
    );
    const body = api.callsTo('PATCH', `/api/databases/${database.id}`)[0]?.body;
    expect(body).toMatchObject({
      version: 2,
      hidden_modules: ['temperatures'],
      hidden_extensions: [],
      licence_price: null,
    });
    expect(body).not.toHaveProperty('distributorId');
  });

  it('adds a manager by e-mail', async () => {
    const database = buildDatabase();
    const { user, api } = renderDatabase(database, 'distributor');
    await user.click(await screen.findByTestId('add-manager-email'));
    await user.paste('Lea@Frais.fr');
    await user.click(screen.getByTestId('add-manager-submit'));
    await waitFor(() => expect(api.callsTo('POST', '/api/database/addManager')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/database/addManager')[0]?.body).toEqual({
      email: 'lea@frais.fr',
      databaseId: database.id,
    });
    expect(screen.queryByTestId('database-licence-price')).toBeNull();
  });

  it('says a manager of another tenant was invited and lists the invitation, e-mail only (issue 13)', async () => {
    const database = buildDatabase({ invited_managers: [] });
    let invitedManagers: DatabaseDetail['invited_managers'] = [];
    const api = mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'distributor' }) } },
      'GET /api/distributors': { body: { items: [] } },
      [`GET /api/databases/${database.id}`]: () => ({
        body: { database: { ...database, invited_managers: invitedManagers } },
      }),
      [`POST /api/databases/${database.id}/invitations/withdraw`]: () => {
        invitedManagers = [];
        return { body: { database: { ...database, invited_managers: [] } } };
      },
      'POST /api/database/addManager': ({ body }) => {
        invitedManagers = [
          {
            email: (body as { email: string }).email,
            status: 'invited',
            invited_at: '2026-11-24T10:00:00Z',
          },
        ];
        return { body: { status: 'invited' } };
      },
    });
    const { user } = renderApp(`/database?id=${database.id}`);

    await user.click(await screen.findByTestId('add-manager-email'));
    await user.paste('Lea@Other-Tenant.fr');
    await user.click(screen.getByTestId('add-manager-submit'));

    expect(
      await screen.findByText(
        'Invitation sent to lea@other-tenant.fr: they will be added as a manager once they accept.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText('The manager has been added.')).toBeNull();
    // The list is read again and shows the invitation after the linked manager.
    const invited = await screen.findByTestId('database-manager-invited');
    expect(invited.textContent).toBe('lea@other-tenant.fr' + 'Invited');
    // Nothing of the account: only the e-mail, "Invited" and the withdraw button.
    expect(
      within(invited)
        .getAllByRole('button')
        .map((button) => button.dataset.testid),
    ).toEqual(['database-manager-invited-withdraw']);
    const managers = within(screen.getByTestId('database-managers')).getAllByTestId(
      /^database-manager(-invited)?$/,
    );
    expect(managers.map((entry) => entry.dataset.testid)).toEqual([
      'database-manager',
      'database-manager-invited',
    ]);
    expect((screen.getByTestId('add-manager-email') as HTMLInputElement).value).toBe('');
    expect(api.callsTo('GET', `/api/databases/${database.id}`).length).toBeGreaterThanOrEqual(2);

    await user.click(within(invited).getByTestId('database-manager-invited-withdraw'));
    await user.click(await screen.findByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(screen.queryByTestId('database-manager-invited')).toBeNull());
    expect(
      api
        .callsTo('POST', `/api/databases/${database.id}/invitations/withdraw`)
        .map((call) => call.body),
    ).toEqual([{ email: 'lea@other-tenant.fr' }]);
  });

  it('keeps the "added" notice when the manager is linked', async () => {
    const database = buildDatabase();
    const { user } = renderDatabase(database, 'admin');
    await user.click(await screen.findByTestId('add-manager-email'));
    await user.paste('lea@frais.fr');
    await user.click(screen.getByTestId('add-manager-submit'));
    expect(await screen.findByText('The manager has been added.')).toBeTruthy();
    expect(screen.queryByTestId('database-manager-invited')).toBeNull();
  });

  it('hides the settings of a hidden database', async () => {
    const database = buildDatabase({ hidden: true });
    renderDatabase(database, 'admin');
    expect(await screen.findByTestId('database-hidden')).toBeTruthy();
    expect(screen.queryByTestId('database-managers')).toBeNull();
    expect(screen.queryByTestId('database-modules')).toBeNull();
    expect(screen.queryByTestId('database-tab-elements')).toBeNull();
    expect(screen.queryByTestId('database-tab-tags')).toBeNull();
    expect(screen.queryByTestId('database-tab-roles')).toBeNull();
  });
  it('asks for the e-mail before adding a manager', async () => {
    const database = buildDatabase();
    const { user, api } = renderDatabase(database, 'admin');
    await user.click(await screen.findByTestId('add-manager-submit'));
    expect(await screen.findByText("Enter the manager's e-mail address.")).toBeTruthy();
    expect(api.callsTo('POST', '/api/database/addManager')).toHaveLength(0);
  });

  it('lets a manager see the managers but not add or remove them', async () => {
    const database = buildDatabase();
    renderDatabase(database, 'manager');
    expect((await screen.findByTestId('database-manager')).textContent).toContain('paul@frais.fr');
    expect(screen.queryByTestId('add-manager-email')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove' })).toBeNull();
  });

  it('opens the allergens of the database from the general tab', async () => {
    const database = buildDatabase();
    const { user, router } = renderDatabase(database, 'admin');
    await user.click(await screen.findByTestId('database-allergens'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/allergens'));
    expect(router.state.location.search).toBe(`?database=${database.id}`);
  });

  it('keeps the open tab in the address and loads the elements there', async () => {
    const database = buildDatabase();
    const { user, router, api } = renderDatabase(database, 'admin');
    await user.click(await screen.findByTestId('database-tab-elements'));
    await waitFor(() => expect(router.state.location.search).toContain('tab=1'));
    await waitFor(() =>
      expect(api.callsTo('GET', `/api/databases/${database.id}/elements`)).toHaveLength(1),
    );
  });
});
