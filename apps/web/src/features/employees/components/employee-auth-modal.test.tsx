import type { Employee } from '@mise/shared/people/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildId, buildStore, buildUser } from '../../../test/factories';
import { apiError, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';

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
    has_secret: true,
    version: 4,
    completed_communications: [],
    ...overrides,
  };
}

function renderAuth(employee: Employee, secret?: MockHandler) {
  const store = buildStore({ database: buildId(), database_name: 'Bistro Group' });
  const secretPath = `/api/stores/${store.id}/employees/${employee.id}/secret`;
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
    [`GET /api/stores/${store.id}`]: { body: { store } },
    [`GET /api/stores/${store.id}/devices`]: { body: { items: [] } },
    'GET /api/koovea/session': { body: { isDistributor: false, loggedIn: false, stickers: [] } },
    [`GET /api/stores/${store.id}/employees`]: {
      body: { items: [employee], roles: [], editable: true },
    },
    [`PUT ${secretPath}`]:
      secret ??
      (({ body }) => ({
        body: {
          employee: {
            ...employee,
            has_secret: true,
            using_password: 'pin' in (body as object),
            version: employee.version + 1,
          },
        },
      })),
  });
  const secretCalls = () => api.callsTo('PUT', secretPath);
  return { ...renderApp(`/storeDatabase?id=${store.id}&tab=3`), api, secretCalls };
}

async function openModal(user: ReturnType<typeof renderAuth>['user']) {
  await user.click(await screen.findByTestId('employee-auth', {}, { timeout: 10_000 }));
  return screen.findByRole('dialog');
}

const pinInputs = () =>
  [0, 1, 2, 3].map((index) => screen.getByTestId(`auth-pin-${index}`) as HTMLInputElement);

describe('employee authentication modal', { timeout: 20_000 }, () => {
  it('needs exactly 4 digits, ignores letters, never shows the current PIN, and sends {pin}', async () => {
    const employee = buildEmployee();
    const { user, secretCalls } = renderAuth(employee);
    const dialog = await openModal(user);
    expect(screen.getByTestId('auth-modal').contains(dialog)).toBe(true);
    expect(within(dialog).getByTestId('auth-status').textContent).toBe('PIN set');
    expect(pinInputs().map((input) => input.value)).toEqual(['', '', '', '']);

    await user.click(pinInputs()[0]!);
    await user.keyboard('1a2');
    expect(pinInputs().map((input) => input.value)).toEqual(['1', '2', '', '']);
    await user.click(screen.getByTestId('auth-submit'));
    expect((await screen.findByTestId('auth-error')).textContent).toBe(
      'Invalid password. Please enter a 4-digit PIN.',
    );
    expect(secretCalls()).toHaveLength(0);

    // Typing goes on from the next empty input (auto-advance).
    await user.click(pinInputs()[2]!);
    await user.keyboard('34');
    await user.click(screen.getByTestId('auth-submit'));
    await waitFor(() => expect(secretCalls()).toHaveLength(1));
    expect(secretCalls()[0]?.body).toEqual({ pin: '1234' });
    expect(await screen.findByText('Authentication saved.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('builds a pattern by tapping points, truncates at a tapped selected point, needs 3 points', async () => {
    const employee = buildEmployee({ has_secret: false });
    const { user, secretCalls } = renderAuth(employee);
    const dialog = await openModal(user);
    expect(within(dialog).getByTestId('auth-status').textContent).toBe('Not set');
    await user.click(screen.getByTestId('auth-tab-pattern'));

    const point = (index: number) => screen.getByTestId(`pattern-point-${index}`);
    await user.click(point(0));
    await user.click(point(4));
    await user.click(screen.getByTestId('auth-submit'));
    expect((await screen.findByTestId('auth-error')).textContent).toBe(
      'Pattern too short. Please select at least 3 points.',
    );
    expect(secretCalls()).toHaveLength(0);

    await user.click(point(8));
    await user.click(point(5));
    expect(point(0).textContent).toBe('1');
    expect(point(5).textContent).toBe('4');
    // Tapping the second point truncates the pattern there: it stays, the points after it go.
    await user.click(point(4));
    for (const index of [0, 4]) expect(point(index).getAttribute('aria-pressed')).toBe('true');
    for (const index of [8, 5]) expect(point(index).getAttribute('aria-pressed')).toBe('false');

    await user.click(point(2));
    await user.click(point(6));
    expect(point(6).textContent).toBe('4');
    await user.click(screen.getByTestId('auth-submit'));
    await waitFor(() => expect(secretCalls()).toHaveLength(1));
    expect(secretCalls()[0]?.body).toEqual({ pattern: [0, 4, 2, 6] });
  });

  it('shows the server refusal in the modal', async () => {
    const employee = buildEmployee();
    const { user } = renderAuth(
      employee,
      apiError(400, 'employee/invalid-pin', 'Invalid password. Please enter a 4-digit PIN.'),
    );
    await openModal(user);
    await user.click(pinInputs()[0]!);
    await user.keyboard('9876');
    await user.click(screen.getByTestId('auth-submit'));
    expect((await screen.findByTestId('auth-error')).textContent).toBe(
      'Invalid password. Please enter a 4-digit PIN.',
    );
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});
