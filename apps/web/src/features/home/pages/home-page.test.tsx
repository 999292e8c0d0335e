import { storeScore } from '@mise/shared/history/rules';
import type { BestStore, StoreHome } from '@mise/shared/history/schemas';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { selectionStorageKey } from '../../../shared/selection/use-selection';
import { buildId, buildUser } from '../../../test/factories';
import { mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';

/** The page is a lazy route: its first render waits for its modules, slow on a busy machine. */
const pageLoad = { timeout: 10_000 };

const storeId = buildId();
const databaseId = buildId();

function selectStore() {
  window.localStorage.setItem(
    selectionStorageKey,
    JSON.stringify({ kind: 'store', id: storeId, name: 'Bistro Opéra' }),
  );
}

function buildTask(overrides: Partial<NonNullable<StoreHome['tasks']>['completed'][number]> = {}) {
  return {
    id: buildId(),
    name: 'Relevé des frigos',
    module: 'temperatures' as const,
    // 08:00 UTC is 09:00 in Paris (the tests' browser is in New York).
    start: '2026-11-22T08:00:00Z',
    duration: 60,
    status: 'done' as const,
    completed_timestamp: '2026-11-22T08:20:00Z',
    employee: { name: 'Léa', surname: 'Petit' },
    ...overrides,
  };
}

const completedTask = buildTask();
const lateTask = buildTask({
  name: 'Nettoyage de la trancheuse',
  module: 'actions',
  start: '2026-11-22T06:30:00Z',
  duration: 30,
  status: 'late',
  completed_timestamp: null,
  employee: null,
});
const pendingTask = buildTask({
  name: 'Changement d’huile',
  module: 'oils',
  start: '2026-11-22T16:00:00Z',
  status: 'on-time',
  completed_timestamp: null,
  employee: null,
});

/** The score window's counts, and the score the shared rule gives them (what the server sends). */
const homeCounts = { onTime: 40, onTimeWithAnomaly: 4, late: 6, lateWithAnomaly: 2, missed: 3 };
const homeScore = storeScore(homeCounts);

function buildHome(overrides: Partial<StoreHome> = {}): StoreHome {
  return {
    store: { id: storeId, name: 'Bistro Opéra', timezone_name: 'Europe/Paris' },
    today: '2026-11-22',
    score: {
      value: homeScore,
      counts: homeCounts,
      window_start: '2026-10-24',
      window_end: '2026-11-22',
    },
    tasks: { completed: [completedTask], late: [lateTask], pending: [pendingTask] },
    equipment: {
      fridges: [
        {
          id: buildId(),
          name: 'Frigo 1',
          state: 'in-range',
          last_temperature: 3.5,
          last_reading_at: '2026-11-22T08:20:00Z',
          probe: null,
          has_anomaly: false,
        },
        {
          id: buildId(),
          name: 'Frigo 2',
          state: 'mixed',
          last_temperature: 6,
          last_reading_at: '2026-11-22T08:20:00Z',
          probe: null,
          has_anomaly: true,
        },
        {
          id: buildId(),
          name: 'Congélateur',
          state: 'out-of-range',
          last_temperature: -10,
          last_reading_at: '2026-11-22T08:20:00Z',
          probe: null,
          has_anomaly: true,
        },
        {
          id: buildId(),
          name: 'Cave à vins',
          state: 'no-data',
          last_temperature: null,
          last_reading_at: null,
          probe: null,
          has_anomaly: false,
        },
      ],
      delivery: [
        {
          id: buildId(),
          name: 'Viandes',
          state: 'in-range',
          last_temperature: 2,
          last_reading_at: '2026-11-22T07:00:00Z',
          probe: null,
          has_anomaly: false,
        },
      ],
      oils: [
        {
          id: buildId(),
          name: 'Friteuse 1',
          temperature: 175,
          polarity: 18.5,
          last_reading_at: '2026-11-22T09:00:00Z',
          last_change_at: '2026-11-20T09:00:00Z',
        },
        {
          id: buildId(),
          name: 'Friteuse 2',
          temperature: null,
          polarity: null,
          last_reading_at: null,
          last_change_at: null,
        },
      ],
    },
    hidden_modules: [],
    ...overrides,
  };
}

function mockHome(role: 'admin' | 'manager' | 'customer', home: StoreHome) {
  return mockApi({
    'GET /api/me': { body: { user: buildUser({ role }) } },
    [`GET /api/stores/${storeId}/home`]: { body: home },
  });
}

describe('home dashboard', { timeout: 20_000 }, () => {
  it('shows the store score and explains it with the shared weights and the counts', async () => {
    selectStore();
    mockHome('customer', buildHome());
    const { user } = renderApp('/home');

    expect((await screen.findByTestId('home-score-value', {}, pageLoad)).textContent).toBe(
      String(homeScore),
    );
    const score = screen.getByTestId('home-score');
    expect(within(score).getByText('/100')).toBeTruthy();
    expect(within(score).getByTestId('home-score-window').textContent).toBe(
      'Last 30 days: 24/10/2026 – 22/11/2026',
    );
    expect(screen.getByTestId('home-see-history').getAttribute('href')).toBe(
      `/history?store=${storeId}`,
    );
    expect(screen.queryByTestId('home-placeholder')).toBeNull();

    await user.click(screen.getByTestId('home-score-learn-more'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('home-score-weight-onTime').textContent).toBe(
      'done on time: 1',
    );
    expect(within(dialog).getByTestId('home-score-weight-late').textContent).toBe('done late: 0.5');
    expect(within(dialog).getByTestId('home-score-weight-missed').textContent).toBe('not done: 0');
    expect(within(dialog).getByTestId('home-score-weight-anomaly').textContent).toContain(
      'multiplied by 0.5',
    );
    expect(within(dialog).getByText(/from 24\/10\/2026 to 22\/11\/2026/)).toBeTruthy();
    const lateWithAnomaly = within(dialog).getByTestId('home-score-count-lateWithAnomaly');
    expect(
      within(lateWithAnomaly)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Done late, with an anomaly', '2', '0.25', '0.5']);
    expect(within(dialog).getByTestId('home-score-due').textContent).toBe('55');
    // 40 + 4 × 0.5 + 6 × 0.5 + 2 × 0.25 + 3 × 0 = 45.5; 100 × 45.5 ÷ 55 = 82.7, rounded to 83 by
    // the shared rule: the dialog's working and its result agree.
    expect(homeScore).toBe(83);
    expect(within(dialog).getByTestId('home-score-result').textContent).toBe(
      `100 × 45.5 ÷ 55 = ${homeScore}/100`,
    );
  });

  it('says when the store has no score yet', async () => {
    selectStore();
    const home = buildHome();
    mockHome('admin', {
      ...home,
      score: {
        ...home.score,
        value: null,
        counts: { onTime: 0, onTimeWithAnomaly: 0, late: 0, lateWithAnomaly: 0, missed: 0 },
      },
    });
    renderApp('/home');

    expect((await screen.findByTestId('home-score-empty', {}, pageLoad)).textContent).toBe(
      'No score yet',
    );
    expect(screen.queryByTestId('home-score-value')).toBeNull();
  });

  it('lists completed tasks with their employee, then late and pending tasks', async () => {
    selectStore();
    mockHome('customer', buildHome());
    const { user, router } = renderApp('/home');

    const panel = await screen.findByTestId('home-tasks', {}, pageLoad);
    const completedRow = within(panel).getByTestId('home-task-row');
    expect(completedRow.getAttribute('data-task-id')).toBe(completedTask.id);
    expect(within(completedRow).getByTestId('home-task-name').textContent).toBe(
      'Relevé des frigos',
    );
    expect(within(completedRow).getByTestId('home-task-name').getAttribute('href')).toBe(
      `/task?id=${completedTask.id}`,
    );
    expect(within(completedRow).getByTestId('home-task-employee').textContent).toBe('Léa Petit');
    // Completed at 08:20 UTC: 09:20 on the store's clock (Europe/Paris).
    expect(within(completedRow).getByTestId('home-task-time').textContent).toBe('09:20');
    expect(within(completedRow).getByTestId('home-task-module').textContent).toBe('Temperatures');

    await user.click(within(panel).getByTestId('home-tasks-tab-late'));
    const lateRow = await within(panel).findByTestId('home-task-row');
    expect(lateRow.getAttribute('data-task-id')).toBe(lateTask.id);
    expect(within(lateRow).getByTestId('home-task-name').textContent).toBe(
      'Nettoyage de la trancheuse',
    );
    expect(within(lateRow).getByTestId('home-task-time').textContent).toBe('07:30–08:00');
    expect(within(lateRow).getByTestId('home-task-module').getAttribute('data-module')).toBe(
      'actions',
    );
    expect(within(lateRow).queryByTestId('home-task-employee')).toBeNull();
    expect(within(panel).queryByText('Employee')).toBeNull();

    await user.click(within(panel).getByTestId('home-tasks-tab-pending'));
    const pendingRow = await within(panel).findByTestId('home-task-row');
    expect(pendingRow.getAttribute('data-task-id')).toBe(pendingTask.id);

    await user.click(within(pendingRow).getByTestId('home-task-time'));
    // A row opens the task.
    await waitFor(() => expect(router.state.location.pathname).toBe('/task'));
    expect(router.state.location.search).toBe(`?id=${pendingTask.id}`);
  });

  it('shows the equipment states, the delivery items and the oils', async () => {
    selectStore();
    mockHome('admin', buildHome());
    const { user } = renderApp('/home');

    const panel = await screen.findByTestId('home-equipment', {}, pageLoad);
    const states = within(panel)
      .getAllByTestId('home-equipment-state')
      .map((badge) => [badge.getAttribute('data-state'), badge.textContent]);
    expect(states).toEqual([
      ['in-range', 'In range'],
      ['mixed', 'Mixed'],
      ['out-of-range', 'Out of range'],
      ['no-data', 'No data'],
    ]);
    expect(within(panel).getByText('3.5 °C at 09:20')).toBeTruthy();

    await user.click(within(panel).getByTestId('home-equipment-tab-delivery'));
    expect(await within(panel).findByText('Viandes')).toBeTruthy();

    await user.click(within(panel).getByTestId('home-equipment-tab-oils'));
    const oilRows = await within(panel).findAllByTestId('home-oil-row');
    expect(within(oilRows[0] as HTMLElement).getByTestId('home-oil-temperature').textContent).toBe(
      '175 °C',
    );
    expect(within(oilRows[0] as HTMLElement).getByTestId('home-oil-polarity').textContent).toBe(
      '18.5 %',
    );
    expect(within(oilRows[0] as HTMLElement).getByTestId('home-oil-last-change').textContent).toBe(
      '20/11/2026',
    );
    expect(within(oilRows[1] as HTMLElement).getByTestId('home-oil-no-data').textContent).toBe(
      'No data',
    );
  });

  it("shows a bound probe's reading and state beside the manual state and counts today's anomalies", async () => {
    selectStore();
    const home = buildHome();
    const equipment = home.equipment!;
    mockHome(
      'admin',
      buildHome({
        equipment: {
          ...equipment,
          fridges: [
            {
              id: buildId(),
              name: 'Chambre froide',
              state: 'in-range',
              last_temperature: 3,
              last_reading_at: '2026-11-22T08:20:00Z',
              probe: {
                probe_uid: 'walk-in-1',
                name: 'Sonde chambre',
                last_temperature: 7.5,
                last_reading_at: '2026-11-22T10:05:00Z',
                state: 'out-of-range',
              },
              has_anomaly: true,
            },
            {
              id: buildId(),
              name: 'Vitrine',
              state: 'no-data',
              last_temperature: null,
              last_reading_at: null,
              probe: {
                probe_uid: 'showcase-1',
                name: 'Sonde vitrine',
                last_temperature: 2,
                last_reading_at: '2026-11-22T06:00:00Z',
                state: 'not-working',
              },
              has_anomaly: true,
            },
            {
              id: buildId(),
              name: 'Frigo 1',
              state: 'in-range',
              last_temperature: 3.5,
              last_reading_at: '2026-11-22T08:20:00Z',
              probe: null,
              has_anomaly: false,
            },
          ],
          delivery: [],
        },
      }),
    );
    renderApp('/home');

    const panel = await screen.findByTestId('home-equipment', {}, pageLoad);
    expect(within(panel).getByTestId('home-equipment-anomalies').textContent).toBe(
      '2 anomalies today',
    );
    const rows = within(panel).getAllByTestId('home-equipment-row') as HTMLElement[];
    expect(within(rows[0]!).getByTestId('home-equipment-state').textContent).toBe('In range');
    expect(within(rows[0]!).getByTestId('home-equipment-probe-state').textContent).toBe(
      'Out of range',
    );
    // 10:05 UTC is 11:05 in the store's zone (Paris).
    expect(within(rows[0]!).getByTestId('home-equipment-probe-reading').textContent).toBe(
      '7.5 °C at 11:05',
    );
    expect(within(rows[0]!).getByText('Sonde chambre')).toBeTruthy();
    expect(within(rows[1]!).getByTestId('home-equipment-probe-state').textContent).toBe(
      'Not working',
    );
    expect(within(rows[2]!).queryByTestId('home-equipment-probe-state')).toBeNull();
  });

  it('hides the oils tab when the oils module is hidden, the panel when temperatures and oils are', async () => {
    selectStore();
    mockHome('admin', buildHome({ hidden_modules: ['oils'] }));
    const first = renderApp('/home');

    const panel = await screen.findByTestId('home-equipment', {}, pageLoad);
    expect(within(panel).getByTestId('home-equipment-tab-fridges')).toBeTruthy();
    expect(within(panel).queryByTestId('home-equipment-tab-oils')).toBeNull();
    first.unmount();

    mockHome('admin', buildHome({ hidden_modules: ['oils', 'temperatures'] }));
    renderApp('/home');
    expect(await screen.findByTestId('home-tasks')).toBeTruthy();
    expect(screen.queryByTestId('home-equipment')).toBeNull();
  });

  it('shows a manager the score only: no tasks or equipment panels', async () => {
    selectStore();
    mockHome('manager', buildHome({ tasks: null, equipment: null }));
    renderApp('/home');

    expect((await screen.findByTestId('home-score-value', {}, pageLoad)).textContent).toBe(
      String(homeScore),
    );
    expect(screen.queryByTestId('home-tasks')).toBeNull();
    expect(screen.queryByTestId('home-equipment')).toBeNull();
  });

  it('lists the best stores in order without a store, for the selected database', async () => {
    const items: BestStore[] = [
      { id: buildId(), name: 'Café du Parc', city: 'Lyon', score: 96 },
      { id: buildId(), name: 'Bistro Opéra', city: 'Paris', score: 88 },
      { id: buildId(), name: 'Boulangerie du Port', city: 'Brest', score: 41 },
    ];
    window.localStorage.setItem(
      selectionStorageKey,
      JSON.stringify({ kind: 'database', id: databaseId, name: 'Base Bistrots' }),
    );
    const api = mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
      'GET /api/home/best-stores': { body: { items } },
    });
    const { user } = renderApp('/home');

    const panel = await screen.findByTestId('home-best-stores', {}, pageLoad);
    await waitFor(() => expect(within(panel).getAllByTestId('home-best-store')).toHaveLength(3));
    expect(
      within(panel)
        .getAllByTestId('home-best-store-name')
        .map((name) => name.textContent),
    ).toEqual(['Café du Parc', 'Bistro Opéra', 'Boulangerie du Port']);
    expect(
      within(panel)
        .getAllByTestId('home-best-store-score')
        .map((score) => score.textContent),
    ).toEqual(['96/100', '88/100', '41/100']);
    expect(api.callsTo('GET', '/api/home/best-stores')[0]?.query.get('databaseId')).toBe(
      databaseId,
    );
    expect(screen.queryByTestId('home-score')).toBeNull();
    expect(screen.queryByTestId('home-placeholder')).toBeNull();

    // Choosing a store of the ranking shows its panels.
    const storeHome = buildHome();
    mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
      [`GET /api/stores/${items[1]?.id}/home`]: {
        body: { ...storeHome, store: { ...storeHome.store, id: items[1]?.id } },
      },
    });
    await user.click(
      within(panel).getByRole('button', { name: 'Show the panels of Bistro Opéra' }),
    );
    expect((await screen.findByTestId('home-score-value')).textContent).toBe(String(homeScore));
    expect(screen.getByTestId('home-selected').textContent).toBe('Store: Bistro Opéra');
  });

  it('asks for every store the user sees without a selection', async () => {
    const api = mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'customer' }) } },
      'GET /api/home/best-stores': { body: { items: [] } },
    });
    renderApp('/home');

    const panel = await screen.findByTestId('home-best-stores', {}, pageLoad);
    expect(await within(panel).findByText('No store has a score yet.')).toBeTruthy();
    expect(api.callsTo('GET', '/api/home/best-stores')[0]?.query.has('databaseId')).toBe(false);
  });

  it('keeps the distributor on a welcome message', async () => {
    mockApi({ 'GET /api/me': { body: { user: buildUser({ role: 'distributor' }) } } });
    renderApp('/home');

    expect((await screen.findByTestId('page-subtitle', {}, pageLoad)).textContent).toBe(
      'Use the navigation panel to manage your databases, stores and accounts.',
    );
    expect(screen.getByRole('heading', { name: 'Welcome, Camille' })).toBeTruthy();
    expect(screen.queryByTestId('home-selection')).toBeNull();
    expect(screen.queryByTestId('home-best-stores')).toBeNull();
  });

  it('reads the home again when a tablet reports a task, and closes the stream on leaving', async () => {
    class FakeEventSource {
      static instances: FakeEventSource[] = [];
      readonly url: string;
      isClosed = false;
      private readonly listeners = new Map<string, Set<(event: MessageEvent) => void>>();
      constructor(url: string) {
        this.url = url;
        FakeEventSource.instances.push(this);
      }
      addEventListener(type: string, listener: (event: MessageEvent) => void) {
        const set = this.listeners.get(type) ?? new Set();
        set.add(listener);
        this.listeners.set(type, set);
      }
      removeEventListener(type: string, listener: (event: MessageEvent) => void) {
        this.listeners.get(type)?.delete(listener);
      }
      close() {
        this.isClosed = true;
      }
      emit(type: string, data: unknown) {
        const event = new MessageEvent(type, { data: JSON.stringify(data) });
        for (const listener of this.listeners.get(type) ?? []) listener(event);
      }
    }
    vi.stubGlobal('EventSource', FakeEventSource);

    selectStore();
    const justDone = buildTask({
      name: 'Contrôle réception',
      completed_timestamp: '2026-11-22T09:45:00Z',
    });
    let reads = 0;
    const api = mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'customer' }) } },
      [`GET /api/stores/${storeId}/home`]: () => {
        reads += 1;
        const home = buildHome();
        return {
          body:
            reads === 1
              ? home
              : {
                  ...home,
                  tasks: {
                    completed: [completedTask, justDone],
                    late: [lateTask],
                    pending: [],
                  },
                },
        };
      },
    });
    const { router } = renderApp('/home');

    const panel = await screen.findByTestId('home-tasks', {}, pageLoad);
    expect(within(panel).getAllByTestId('home-task-row')).toHaveLength(1);
    const source = FakeEventSource.instances.at(-1);
    expect(source?.url).toBe(`/api/stores/${storeId}/events`);

    act(() => {
      source?.emit('task', { store_id: storeId, task_id: justDone.id, kind: 'completed' });
    });

    await waitFor(() =>
      expect(
        within(panel)
          .getAllByTestId('home-task-row')
          .map((row) => row.getAttribute('data-task-id')),
      ).toEqual([completedTask.id, justDone.id]),
    );
    expect(api.callsTo('GET', `/api/stores/${storeId}/home`)).toHaveLength(2);
    expect(within(panel).getByText('Contrôle réception')).toBeTruthy();

    await act(() => router.navigate('/stores'));
    await waitFor(() => expect(source?.isClosed).toBe(true));
  });
});
