import type { StoreHome } from '@mise/shared/history/schemas';
import type { Schedule } from '@mise/shared/people/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { selectionStorageKey } from '../../../shared/selection/use-selection';
import { buildId, buildUser } from '../../../test/factories';
import { mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';

/** The home page is a lazy route: its first render waits for its modules. */
const pageLoad = { timeout: 10_000 };

const storeId = buildId();
const selfieUrl = `/api/files/stores/${storeId}/selfies/lea-1.jpg`;

function buildHome(): StoreHome {
  return {
    store: { id: storeId, name: 'Bistro Opéra', timezone_name: 'Europe/Paris' },
    today: '2026-11-22',
    score: {
      value: 82,
      counts: { onTime: 40, onTimeWithAnomaly: 4, late: 6, lateWithAnomaly: 2, missed: 3 },
      window_start: '2026-10-24',
      window_end: '2026-11-22',
    },
    tasks: null,
    equipment: null,
    hidden_modules: [],
  };
}

const schedule: Schedule = {
  day: '2026-11-22',
  items: [
    {
      id: buildId(),
      name: 'Léa',
      surname: 'Petit',
      role_name: 'Cuisinière',
      entries: [
        // Paris is UTC+1 in November; the tests' browser is in New York.
        { id: buildId(), is_in: true, time: '2026-11-22T07:02:00Z', selfie_url: selfieUrl },
        { id: buildId(), is_in: false, time: '2026-11-22T11:30:00Z', selfie_url: null },
      ],
    },
    { id: buildId(), name: 'Hugo', surname: 'Bernard', role_name: null, entries: [] },
  ],
};

function renderHome(role: 'admin' | 'manager' | 'customer') {
  window.localStorage.setItem(
    selectionStorageKey,
    JSON.stringify({ kind: 'store', id: storeId, name: 'Bistro Opéra' }),
  );
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role }) } },
    [`GET /api/stores/${storeId}/home`]: { body: buildHome() },
    [`GET /api/stores/${storeId}/schedule`]: { body: schedule },
  });
  return { ...renderApp('/home'), api };
}

describe('home employee schedule panel', { timeout: 20_000 }, () => {
  it('lists the active employees with their role and clock badges on the store’s clock', async () => {
    const { api } = renderHome('manager');

    const rows = await screen.findAllByTestId('home-schedule-row', {}, pageLoad);
    expect(api.callsTo('GET', `/api/stores/${storeId}/schedule`)).toHaveLength(1);
    expect(rows).toHaveLength(2);
    const [lea, hugo] = rows;
    if (!lea || !hugo) throw new Error('two rows expected');
    expect(lea.textContent).toContain('Léa Petit');
    expect(within(lea).getByTestId('home-schedule-role').textContent).toBe('Cuisinière');
    expect(
      within(lea)
        .getAllByTestId('home-schedule-badge')
        .map((badge) => [badge.textContent, badge.getAttribute('data-entry-in')]),
    ).toEqual([
      ['08:02', 'true'],
      ['12:30', 'false'],
    ]);
    expect(hugo.textContent).toContain('Hugo Bernard');
    expect(within(hugo).queryByTestId('home-schedule-role')).toBeNull();
    expect(within(hugo).queryAllByTestId('home-schedule-badge')).toHaveLength(0);
    expect(screen.getByTestId('home-schedule-see-all').getAttribute('href')).toBe(
      `/punchCards?store=${storeId}`,
    );
  });

  it('opens the selfie of a badge in a modal and leads to the punch cards', async () => {
    const { user, router } = renderHome('customer');
    await screen.findAllByTestId('home-schedule-row', {}, pageLoad);
    expect(screen.queryByTestId('home-schedule-selfie')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Open the selfie 08:02' }));
    const image = await screen.findByTestId('home-schedule-selfie');
    expect(image.getAttribute('src')).toBe(selfieUrl);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('home-schedule-selfie')).toBeNull());

    // The exit has no selfie: it is not a button.
    expect(screen.queryByRole('button', { name: /12:30/ })).toBeNull();

    await user.click(screen.getByTestId('home-schedule-see-all'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/punchCards'));
    expect(router.state.location.search).toBe(`?store=${storeId}`);
  });
});
