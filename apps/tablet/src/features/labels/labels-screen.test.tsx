import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeviceElement, ElementLabel } from '../../shared/api/types';
import { openSession } from '../../shared/session/employee-session';
import { buildElement } from '../../test/factories';
import { LabelsScreen } from './labels-screen';

function label(
  values: Partial<ElementLabel> & Pick<ElementLabel, 'id' | 'name' | 'type'>,
): ElementLabel {
  return {
    index: 0,
    expiration_duration: 0,
    defrosting_duration: 0,
    expiration_text: null,
    cumulate_expiration_duration: false,
    show_expiration_hour: false,
    show_expiration_weekday: false,
    ...values,
  };
}

/** An element with the labels module on. */
function element(
  values: Partial<DeviceElement> & Pick<DeviceElement, 'id' | 'name'>,
): DeviceElement {
  const built = buildElement(values);
  return { ...built, modules: { ...built.modules, labels: true, ...values.modules } };
}

const items = [
  element({
    id: '00000000-0000-4000-8000-000000000001',
    name: 'Crème anglaise',
    type_name: 'Desserts',
    allergens: ['milkOrLactose', 'egg'],
    labels: [
      label({
        id: '00000000-0000-4000-8000-0000000000a1',
        name: 'Opened',
        type: 'expiration',
        index: 0,
        expiration_duration: 48,
        show_expiration_hour: true,
      }),
      label({
        id: '00000000-0000-4000-8000-0000000000a2',
        name: 'Chef’s choice',
        type: 'expiration_editable',
        index: 1,
        expiration_duration: 24,
        show_expiration_hour: true,
        show_expiration_weekday: true,
      }),
    ],
  }),
  element({ id: '00000000-0000-4000-8000-000000000002', name: 'Chicken breast' }),
  element({
    id: '00000000-0000-4000-8000-000000000003',
    name: 'Fryer',
    modules: { ...element({ id: 'x', name: 'x' }).modules, labels: false },
  }),
];

function renderScreen() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(['elements'], { items });
  return render(
    <QueryClientProvider client={queryClient}>
      <LabelsScreen />
    </QueryClientProvider>,
  );
}

beforeEach(async () => {
  // 09:40 on Tuesday 24 November in New York (the test browser's zone).
  vi.setSystemTime(new Date('2026-11-24T14:40:00Z'));
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
  );
  await openSession({
    employee: {
      id: '00000000-0000-4000-8000-0000000000e1',
      name: 'Lucas',
      surname: 'Martin',
      role_id: null,
      illustration_url: null,
      using_password: true,
      has_secret: true,
    },
    token: 'employee-token',
    expires_at: new Date(Date.now() + 3_600_000).toISOString(),
  });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('LabelsScreen', () => {
  it('lists the elements with labels and finds them ignoring accents', async () => {
    const user = userEvent.setup();
    renderScreen();
    expect(screen.getByRole('button', { name: /Chicken breast/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Fryer/ })).toBeNull();
    await user.type(screen.getByRole('searchbox', { name: 'Search a product' }), 'creme');
    expect(screen.getByRole('button', { name: /Crème anglaise/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Chicken breast/ })).toBeNull();
  });

  it('computes the dates of an expiration label with its hour, and prints it', async () => {
    const print = vi.fn();
    vi.stubGlobal('print', print);
    const user = userEvent.setup();
    renderScreen();
    await user.click(screen.getByRole('button', { name: /Crème anglaise/ }));
    await user.click(screen.getByRole('button', { name: /Opened/ }));
    const preview = screen.getByRole('figure', { name: 'Label preview' });
    // 48 hours after 09:40 on the 24th, hour shown, no weekday.
    expect(within(preview).getByTestId('label-expires').textContent).toBe(
      'Use by: 26/11/2026 09:40',
    );
    expect(within(preview).getByTestId('label-allergens').textContent).toBe('Allergens: C G');
    expect(within(preview).getByText('Crème anglaise')).toBeTruthy();
    expect(within(preview).getByText(/^By Lucas Martin, 24\/11\/2026 09:40$/)).toBeTruthy();
    // The printed copy beside the app carries the same dates.
    const sheet = document.body.querySelector('.label-sheet');
    expect(sheet?.textContent).toContain('Use by: 26/11/2026 09:40');

    await user.click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledTimes(1);
  });

  it('lets the employee adjust the duration of an editable label before printing', async () => {
    const user = userEvent.setup();
    renderScreen();
    await user.click(screen.getByRole('button', { name: /Crème anglaise/ }));
    await user.click(screen.getByRole('button', { name: /Chef’s choice/ }));
    const preview = screen.getByRole('figure', { name: 'Label preview' });
    expect(within(preview).getByTestId('label-expires').textContent).toBe(
      'Use by: Wednesday 25/11/2026 09:40',
    );
    await user.click(screen.getByRole('button', { name: '+1 day' }));
    await user.click(screen.getByRole('button', { name: '+1 h' }));
    expect(screen.getByText('2 d 1 h')).toBeTruthy();
    expect(within(preview).getByTestId('label-expires').textContent).toBe(
      'Use by: Thursday 26/11/2026 10:40',
    );
  });
});
