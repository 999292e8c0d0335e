import type { DatabaseDetail } from '@mise/shared/organisation/schemas';
import type { EmployeeRole } from '@mise/shared/people/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildDatabaseDetail, buildId, buildUser } from '../../../test/factories';
import { type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import type { EmployeeRoles } from '../api/get-employee-roles';

function buildDatabase(overrides: Partial<DatabaseDetail> = {}): DatabaseDetail {
  return buildDatabaseDetail({ store_count: 2, ...overrides });
}

function buildRole(databaseId: string, overrides: Partial<EmployeeRole> = {}): EmployeeRole {
  return {
    id: buildId(),
    database_id: databaseId,
    name: 'Cuisinier',
    active: true,
    features_permissions: {},
    ...overrides,
  };
}

function renderRoles(
  database: DatabaseDetail,
  roles: EmployeeRoles,
  extra: Record<string, MockHandler> = {},
) {
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
    [`GET /api/databases/${database.id}`]: { body: { database } },
    [`GET /api/databases/${database.id}/employeeRoles`]: { body: roles },
    [`PUT /api/databases/${database.id}/employeeRoles`]: { body: roles },
    ...extra,
  });
  return { ...renderApp(`/database?id=${database.id}&tab=4`), api };
}

describe('employee roles editor', { timeout: 20_000 }, () => {
  it('adds a role, grants it offered features and saves every role with its features', async () => {
    const database = buildDatabase();
    const chef = buildRole(database.id, {
      name: 'Cuisinier',
      features_permissions: { documents: true, temperatures: false },
    });
    const waiter = buildRole(database.id, { name: 'Serveur', active: false });
    const { user, api } = renderRoles(database, {
      items: [chef, waiter],
      available_features: ['documents', 'history', 'temperatures'],
      editable: true,
    });

    const editor = await screen.findByTestId('roles-editor', {}, { timeout: 10_000 });
    expect(screen.getAllByTestId('role-row')).toHaveLength(2);
    // The first role is selected: its features are checked as stored, names translated.
    const documents = within(editor).getByTestId('role-feature-documents') as HTMLInputElement;
    expect(documents.checked).toBe(true);
    expect(within(editor).getByLabelText('Documents')).toBe(documents);
    expect(within(editor).getByLabelText('Temperatures')).toBeTruthy();
    // Only the features the database offers.
    expect(within(editor).queryByTestId('role-feature-oils')).toBeNull();

    await user.click(screen.getByTestId('role-add'));
    const rows = screen.getAllByTestId('role-row');
    expect(rows).toHaveLength(3);
    const newName = within(rows[2]!).getByTestId('role-name-input') as HTMLInputElement;
    expect(newName.value).toBe('Nouveau role');
    // The new role is selected: nothing granted yet.
    expect((screen.getByTestId('role-feature-documents') as HTMLInputElement).checked).toBe(false);
    await user.click(screen.getByTestId('role-feature-history'));
    await user.click(screen.getByTestId('role-feature-temperatures'));
    await user.clear(newName);
    await user.type(newName, 'Plongeur');

    await user.click(screen.getByTestId('role-save'));
    await waitFor(() =>
      expect(api.callsTo('PUT', `/api/databases/${database.id}/employeeRoles`)).toHaveLength(1),
    );
    expect(api.callsTo('PUT', `/api/databases/${database.id}/employeeRoles`)[0]?.body).toEqual({
      roles: [
        {
          id: chef.id,
          name: 'Cuisinier',
          active: true,
          features_permissions: { documents: true, history: false, temperatures: false },
        },
        {
          id: waiter.id,
          name: 'Serveur',
          active: false,
          features_permissions: { documents: false, history: false, temperatures: false },
        },
        {
          name: 'Plongeur',
          active: true,
          features_permissions: { documents: false, history: true, temperatures: true },
        },
      ],
    });
    expect(await screen.findByText('Saved successfully.')).toBeTruthy();
  });

  it('refuses a role without a name and sends nothing', async () => {
    const database = buildDatabase();
    const { user, api } = renderRoles(database, {
      items: [buildRole(database.id)],
      available_features: ['documents'],
      editable: true,
    });
    const input = (await screen.findByTestId(
      'role-name-input',
      {},
      { timeout: 10_000 },
    )) as HTMLInputElement;
    await user.clear(input);
    await user.click(screen.getByTestId('role-save'));
    expect(await screen.findByText('Please give the role a name.')).toBeTruthy();
    expect(api.callsTo('PUT', `/api/databases/${database.id}/employeeRoles`)).toHaveLength(0);
  });

  it('is read-only when the roles are not editable: no add, no save, nothing to change', async () => {
    const database = buildDatabase();
    renderRoles(database, {
      items: [buildRole(database.id, { features_permissions: { documents: true } })],
      available_features: ['documents'],
      editable: false,
    });
    await screen.findByTestId('roles-editor', {}, { timeout: 10_000 });
    expect(screen.queryByTestId('role-save')).toBeNull();
    expect(screen.queryByTestId('role-add')).toBeNull();
    expect((screen.getByTestId('role-name-input') as HTMLInputElement).readOnly).toBe(true);
    expect((screen.getByTestId('role-feature-documents') as HTMLInputElement).disabled).toBe(true);
  });
});
