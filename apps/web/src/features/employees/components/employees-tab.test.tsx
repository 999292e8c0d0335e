import type { StoreDetail } from '@mise/shared/organisation/schemas';
import type { Employee, EmployeeRole } from '@mise/shared/people/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildId, buildStore, buildUser } from '../../../test/factories';
import { apiError, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import type { Employees } from '../api/get-employees';

const databaseId = buildId();

function buildRole(overrides: Partial<EmployeeRole> = {}): EmployeeRole {
  return {
    id: buildId(),
    database_id: databaseId,
    name: 'Cuisinier',
    active: true,
    features_permissions: {},
    ...overrides,
  };
}

function buildEmployee(overrides: Partial<Employee> = {}): Employee {
  return {
    id: buildId(),
    name: 'Lucie',
    surname: 'Bernard',
    role_id: null,
    role_name: null,
    active: true,
    illustration_url: null,
    using_password: true,
    has_secret: false,
    version: 2,
    completed_communications: [],
    ...overrides,
  };
}

function renderEmployees(
  employees: Employees,
  options: { store?: StoreDetail; get?: MockHandler; put?: MockHandler } = {},
) {
  const store =
    options.store ?? buildStore({ database: databaseId, database_name: 'Bistro Group' });
  const path = `/api/stores/${store.id}/employees`;
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
    [`GET /api/stores/${store.id}`]: { body: { store } },
    [`GET /api/stores/${store.id}/devices`]: { body: { items: [] } },
    'GET /api/koovea/session': { body: { isDistributor: false, loggedIn: false, stickers: [] } },
    [`GET ${path}`]: options.get ?? { body: employees },
    [`PUT ${path}`]: options.put ?? { body: employees },
  });
  const puts = () => api.callsTo('PUT', path);
  return { ...renderApp(`/storeDatabase?id=${store.id}&tab=3`), api, puts, store };
}

const cards = () => screen.getAllByTestId('employee-card');

describe('employees tab', { timeout: 20_000 }, () => {
  it('reads every employee, and shows the inactive ones only with the toggle', async () => {
    const active = buildEmployee({ name: 'Lucie' });
    const inactive = buildEmployee({ name: 'Marc', active: false });
    const { user, api } = renderEmployees({ items: [active, inactive], roles: [], editable: true });
    await screen.findByTestId('employees-tab', {}, { timeout: 10_000 });
    expect(
      api.calls.find((call) => call.path.endsWith('/employees'))?.query.get('includeInactive'),
    ).toBe('true');
    expect(cards().map((card) => card.dataset.employeeId)).toEqual([active.id]);
    await user.click(screen.getByTestId('employees-show-inactive'));
    expect(cards().map((card) => card.dataset.employeeId)).toEqual([active.id, inactive.id]);
  });

  it('refuses to save while an active employee has no role, and sends nothing', async () => {
    const cook = buildRole();
    const withRole = buildEmployee({ role_id: cook.id, role_name: cook.name });
    const withoutRole = buildEmployee({ name: 'Paul' });
    // An inactive employee without a role does not block the save.
    const inactive = buildEmployee({ name: 'Marc', active: false });
    const { user, puts } = renderEmployees({
      items: [withRole, withoutRole, inactive],
      roles: [cook],
      editable: true,
    });
    await screen.findByTestId('employees-tab', {}, { timeout: 10_000 });

    await user.click(screen.getByTestId('employees-save'));
    expect(
      await screen.findByText('Please select an employee role for each employee.'),
    ).toBeTruthy();
    expect(puts()).toHaveLength(0);

    // Deactivating the employee without a role lets the save through.
    await user.click(within(cards()[1]!).getByTestId('employee-active'));
    await user.click(screen.getByTestId('employees-save'));
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(puts()[0]?.body).toEqual({
      employees: [
        {
          id: withRole.id,
          version: 2,
          name: 'Lucie',
          surname: 'Bernard',
          role_id: cook.id,
          active: true,
        },
        {
          id: withoutRole.id,
          version: 2,
          name: 'Paul',
          surname: 'Bernard',
          role_id: null,
          active: false,
        },
        {
          id: inactive.id,
          version: 2,
          name: 'Marc',
          surname: 'Bernard',
          role_id: null,
          active: false,
        },
      ],
    });
  });

  it('adds an active employee named Nouvel employé and saves it without id, with its role', async () => {
    const cook = buildRole();
    const { user, puts } = renderEmployees({ items: [], roles: [cook], editable: true });
    await screen.findByTestId('employees-tab', {}, { timeout: 10_000 });

    await user.click(screen.getByTestId('employee-add'));
    const card = cards()[0]!;
    expect((within(card).getByTestId('employee-name') as HTMLInputElement).value).toBe('Nouvel ');
    expect((within(card).getByTestId('employee-surname') as HTMLInputElement).value).toBe(
      'employé',
    );
    expect((within(card).getByTestId('employee-active') as HTMLInputElement).checked).toBe(true);
    expect((within(card).getByTestId('employee-role') as HTMLInputElement).value).toBe('');
    // Authentication and photo need a saved employee.
    expect((within(card).getByTestId('employee-auth') as HTMLButtonElement).disabled).toBe(true);

    await user.click(screen.getByTestId('employees-save'));
    expect(
      await screen.findByText('Please select an employee role for each employee.'),
    ).toBeTruthy();
    expect(puts()).toHaveLength(0);

    await user.click(within(card).getByTestId('employee-role'));
    await user.click(await screen.findByRole('option', { name: 'Cuisinier' }));
    await user.clear(within(card).getByTestId('employee-name'));
    await user.type(within(card).getByTestId('employee-name'), 'Inès');
    await user.click(screen.getByTestId('employees-save'));
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(puts()[0]?.body).toEqual({
      employees: [{ name: 'Inès', surname: 'employé', role_id: cook.id, active: true }],
    });
    expect(await screen.findByText('Saved successfully.')).toBeTruthy();
  });

  it('shows the conflict message when an employee changed meanwhile', async () => {
    const { user, puts } = renderEmployees(
      { items: [buildEmployee()], roles: [], editable: true },
      { put: apiError(409, 'conflict/stale-version') },
    );
    await screen.findByTestId('employees-tab', {}, { timeout: 10_000 });
    await user.type(within(cards()[0]!).getByTestId('employee-surname'), '-Martin');
    await user.click(screen.getByTestId('employees-save'));
    expect(
      await screen.findByText(
        'This record was changed by someone else. Reload it before saving again.',
      ),
    ).toBeTruthy();
    expect(puts()).toHaveLength(1);
    // The edit is kept.
    expect((within(cards()[0]!).getByTestId('employee-surname') as HTMLInputElement).value).toBe(
      'Bernard-Martin',
    );
  });

  it('asks before leaving the tab with unsaved changes, and takes the saved employees after a save', async () => {
    const employee = buildEmployee();
    const saved = { ...employee, surname: 'Martin', version: 3 };
    let isSaved = false;
    const { user, puts } = renderEmployees(
      { items: [employee], roles: [], editable: true },
      {
        get: () => ({ body: { items: [isSaved ? saved : employee], roles: [], editable: true } }),
        put: () => {
          isSaved = true;
          return { body: {} };
        },
      },
    );
    await screen.findByTestId('employees-tab', {}, { timeout: 10_000 });
    await user.clear(within(cards()[0]!).getByTestId('employee-surname'));
    await user.type(within(cards()[0]!).getByTestId('employee-surname'), 'Martin');

    await user.click(screen.getByTestId('store-tab-general'));
    expect(
      await screen.findByText('You have unsaved changes. Leave this page anyway?'),
    ).toBeTruthy();
    await user.click(screen.getByTestId('confirm-dialog-cancel'));
    await waitFor(() =>
      expect(screen.queryByText('You have unsaved changes. Leave this page anyway?')).toBeNull(),
    );
    expect(screen.getByTestId('employees-tab')).toBeTruthy();

    // The save re-reads the list: the draft takes the new version.
    await user.click(screen.getByTestId('employees-save'));
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(await screen.findByText('Saved successfully.')).toBeTruthy();
    await user.click(screen.getByTestId('employees-save'));
    await waitFor(() => expect(puts()).toHaveLength(2));
    expect(puts()[1]?.body).toEqual({
      employees: [
        {
          id: employee.id,
          version: 3,
          name: 'Lucie',
          surname: 'Martin',
          role_id: null,
          active: true,
        },
      ],
    });
    // Nothing left unsaved: leaving asks nothing.
    await user.click(screen.getByTestId('store-tab-general'));
    expect(await screen.findByTestId('store-tab-general')).toBeTruthy();
    expect(screen.queryByText('You have unsaved changes. Leave this page anyway?')).toBeNull();
  });

  it('is read-only when the employees are not editable: no save, no add card', async () => {
    renderEmployees({ items: [buildEmployee()], roles: [], editable: false });
    await screen.findByTestId('employees-tab', {}, { timeout: 10_000 });
    expect(screen.queryByTestId('employees-save')).toBeNull();
    expect(screen.queryByTestId('employee-add')).toBeNull();
    expect((screen.getByTestId('employee-name') as HTMLInputElement).readOnly).toBe(true);
    expect((screen.getByTestId('employee-auth') as HTMLButtonElement).disabled).toBe(true);
  });
});
