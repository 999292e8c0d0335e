import type { DatabaseDetail, StoreDetail } from '@mise/shared/organisation/schemas';
import type { Task, TaskConfigurationListItem } from '@mise/shared/tasks/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildDatabaseDetail, buildId, buildStore, buildUser } from '../../../test/factories';
import { type ApiCall, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import { buildTask, buildTaskConfigurationItem } from '../test/build-task-configuration';
import { todayInZone } from './store-day-tasks';

/** The first render loads the page's chunk. */
const firstRender = { timeout: 10_000 };

function buildDatabase(overrides: Partial<DatabaseDetail> = {}): DatabaseDetail {
  return buildDatabaseDetail({ distributor_name: 'Mise Distribution France', ...overrides });
}

function renderDatabaseTasks(
  database: DatabaseDetail,
  list: (call: ApiCall) => TaskConfigurationListItem[],
) {
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
    [`GET /api/databases/${database.id}`]: { body: { database } },
    [`GET /api/databases/${database.id}/taskConfigurations`]: (call) => ({
      body: { items: list(call) },
    }),
  });
  return { ...renderApp(`/database?id=${database.id}&tab=2`), api };
}

function renderStoreTasks(
  store: StoreDetail,
  options: {
    items?: TaskConfigurationListItem[];
    tasks?: Task[];
    role?: 'admin' | 'manager';
    taskTab?: 'configurations' | 'day';
  } = {},
) {
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: options.role ?? 'admin' }) } },
    [`GET /api/stores/${store.id}`]: { body: { store } },
    [`GET /api/stores/${store.id}/devices`]: { body: { items: [] } },
    'GET /api/koovea/session': { body: { isDistributor: false, loggedIn: false, stickers: [] } },
    [`GET /api/stores/${store.id}/taskConfigurations`]: { body: { items: options.items ?? [] } },
    [`GET /api/stores/${store.id}/tasks`]: (call) => ({
      body: { day: call.query.get('day'), items: options.tasks ?? [] },
    }),
  });
  const taskTab = options.taskTab ? `&taskTab=${options.taskTab}` : '';
  return { ...renderApp(`/storeDatabase?id=${store.id}&tab=2${taskTab}`), api };
}

const rowNames = () =>
  screen.getAllByTestId('task-configuration-row-name').map((element) => element.textContent);

describe('task configuration list', { timeout: 20_000 }, () => {
  it('lists the database configurations with type, module, recurrence, schedules and count', async () => {
    const database = buildDatabase();
    renderDatabaseTasks(database, () => [
      buildTaskConfigurationItem({
        name: 'Relevé des frigos',
        type_name: 'HACCP',
        type_color: '#ff0000',
        recurrence: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH',
        starts: [840, 480],
        durations: [30, 90],
        item_count: 3,
      }),
      buildTaskConfigurationItem({
        name: 'Nettoyage',
        module: 'actions',
        active: false,
        recurrence: 'FREQ=MONTHLY;INTERVAL=1;BYDAY=-1FR',
        starts: [],
        durations: [],
        item_count: 1,
      }),
    ]);

    await waitFor(
      () => expect(rowNames()).toEqual(['Relevé des frigos', 'Nettoyage']),
      firstRender,
    );
    const [fridges, cleaning] = screen.getAllByTestId('task-configuration-row');
    if (!fridges || !cleaning) throw new Error('two rows expected');
    expect(within(fridges).getByTestId('task-configuration-row-type').textContent).toBe('HACCP');
    expect(within(fridges).getByTestId('task-configuration-row-module').textContent).toBe(
      'Temperatures',
    );
    expect(within(fridges).getByTestId('task-configuration-row-recurrence').textContent).toBe(
      'Every 2 weeks on Monday and Thursday',
    );
    expect(within(fridges).getByTestId('task-configuration-row-schedules').textContent).toBe(
      '08:00–09:30, 14:00–14:30',
    );
    expect(within(fridges).getByTestId('task-configuration-row-count').textContent).toBe(
      '3 elements',
    );
    expect(within(fridges).queryByTestId('task-configuration-row-inactive')).toBeNull();
    expect(within(fridges).queryByTestId('task-configuration-row-origin')).toBeNull();
    expect(within(cleaning).getByTestId('task-configuration-row-module').textContent).toBe(
      'Action',
    );
    expect(within(cleaning).getByTestId('task-configuration-row-recurrence').textContent).toBe(
      'Every month on the last Friday',
    );
    expect(within(cleaning).getByTestId('task-configuration-row-count').textContent).toBe(
      '1 action',
    );
    expect(within(cleaning).getByTestId('task-configuration-row-inactive').textContent).toBe(
      'Inactive',
    );
  });

  it('sends the search and the inactive toggle, and opens a row', async () => {
    const database = buildDatabase();
    const item = buildTaskConfigurationItem({ name: 'Huiles' });
    const { user, api, router } = renderDatabaseTasks(database, (call) =>
      call.query.get('search') === 'hui' ? [item] : [buildTaskConfigurationItem()],
    );
    const path = `/api/databases/${database.id}/taskConfigurations`;

    await waitFor(() => expect(rowNames()).toEqual(['Relevé des frigos']), firstRender);
    expect(api.callsTo('GET', path)[0]?.query.get('includeInactive')).toBe('false');
    await user.type(screen.getByTestId('task-configurations-search'), 'hui');
    await waitFor(() => expect(rowNames()).toEqual(['Huiles']));
    await user.click(screen.getByTestId('task-configurations-inactive'));
    await waitFor(() =>
      expect(api.callsTo('GET', path).at(-1)?.query.get('includeInactive')).toBe('true'),
    );

    await user.click(screen.getByRole('link', { name: 'Huiles' }));
    // The editor's chunk may load slowly when the whole suite runs.
    await waitFor(() => expect(router.state.location.pathname).toBe('/taskConf'), firstRender);
    expect(router.state.location.search).toBe(`?id=${item.id}`);
  });

  it('opens the creation screen for the database from New', async () => {
    const database = buildDatabase();
    const { user, router } = renderDatabaseTasks(database, () => [buildTaskConfigurationItem()]);

    await waitFor(() => expect(rowNames()).toEqual(['Relevé des frigos']), firstRender);
    await user.click(screen.getByTestId('task-configurations-new'));
    // The editor's chunk may load slowly when the whole suite runs.
    await waitFor(() => expect(router.state.location.pathname).toBe('/taskConf'), firstRender);
    expect(router.state.location.search).toBe(`?database=${database.id}`);
  });

  it('marks store rows by origin and opens a database configuration on its origin', async () => {
    const store = buildStore({ database: buildId(), database_name: 'Bistro Group' });
    const inherited = buildTaskConfigurationItem({
      id: null,
      origin_id: buildId(),
      name: 'Frigos',
    });
    const overridden = buildTaskConfigurationItem({
      origin_id: buildId(),
      is_remote: true,
      name: 'Huiles',
      module: 'oils',
    });
    const own = buildTaskConfigurationItem({ is_remote: true, name: 'Ouverture' });
    const { user, router } = renderStoreTasks(store, { items: [inherited, overridden, own] });

    await waitFor(() => expect(rowNames()).toEqual(['Frigos', 'Huiles', 'Ouverture']), firstRender);
    const origins = screen
      .getAllByTestId('task-configuration-row-origin')
      .map((badge) => badge.getAttribute('data-origin'));
    expect(origins).toEqual(['inherited', 'overridden', 'own']);
    expect(screen.getAllByTestId('task-configuration-row-origin')[0]?.textContent).toBe(
      'From the database',
    );

    await user.click(screen.getByRole('link', { name: 'Frigos' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/storeTaskConf'));
    expect(router.state.location.search).toBe(`?store=${store.id}&origin=${inherited.origin_id}`);
  });

  it('opens the store creation screen', async () => {
    const store = buildStore({ database: buildId(), database_name: 'Bistro Group' });
    const { user, router } = renderStoreTasks(store);
    await user.click(await screen.findByTestId('task-configurations-new', {}, firstRender));
    await waitFor(() => expect(router.state.location.pathname).toBe('/storeTaskConf'));
    expect(router.state.location.search).toBe(`?store=${store.id}`);
  });

  it('refuses New with the no-permission message on a read-only store', async () => {
    const store = buildStore({
      database: buildId(),
      database_name: 'Bistro Group',
      is_read_only: true,
    });
    const { user, router } = renderStoreTasks(store, { role: 'manager' });
    await user.click(await screen.findByTestId('task-configurations-new', {}, firstRender));
    expect(
      await screen.findByText('You do not have permission to execute this action.'),
    ).toBeTruthy();
    expect(router.state.location.pathname).toBe('/storeDatabase');
  });
});

describe('store day view', { timeout: 20_000 }, () => {
  it("shows today's tasks with their window on the store's clock, module, status and employee", async () => {
    const store = buildStore({
      database: buildId(),
      database_name: 'Bistro Group',
      timezone_name: 'Europe/Paris',
    });
    const { api } = renderStoreTasks(store, {
      taskTab: 'day',
      tasks: [
        buildTask({ name: 'Relevé des frigos', start: '2026-11-22T07:00:00Z', duration: 60 }),
        buildTask({
          name: 'Nettoyage',
          module: 'actions',
          start: '2026-11-22T09:30:00Z',
          duration: 30,
          status: 'done-late',
          completed_timestamp: '2026-11-22T10:10:00Z',
          employee: { name: 'Léa', surname: 'Martin' },
        }),
        buildTask({ name: 'Huiles', module: 'oils', status: 'late' }),
        buildTask({ name: 'Livraison', status: 'postponed' }),
      ],
    });

    const rows = await screen.findAllByTestId('store-task-row', {}, firstRender);
    expect(rows.map((row) => within(row).getByTestId('store-task-name').textContent)).toEqual([
      'Relevé des frigos',
      'Nettoyage',
      'Huiles',
      'Livraison',
    ]);
    expect(screen.getAllByTestId('store-task-status').map((badge) => badge.textContent)).toEqual([
      'On time',
      'Done late',
      'Late',
      'Postponed',
    ]);
    const [fridges, cleaning] = rows;
    if (!fridges || !cleaning) throw new Error('rows expected');
    expect(within(fridges).getByTestId('store-task-time').textContent).toBe('08:00–09:00');
    expect(within(cleaning).getByTestId('store-task-time').textContent).toBe('10:30–11:00');
    expect(within(cleaning).getByTestId('store-task-module').textContent).toBe('Action');
    expect(within(cleaning).getByTestId('store-task-employee').textContent).toBe('Léa Martin');
    expect(within(fridges).getByTestId('store-task-employee').textContent).toBe('');
    // The store's today in its zone (Europe/Paris), not the browser's (the tests run in New York).
    expect(api.callsTo('GET', `/api/stores/${store.id}/tasks`)[0]?.query.get('day')).toBe(
      todayInZone(store.timezone_name),
    );
  });

  it('says when the day has no task', async () => {
    const store = buildStore({ database: buildId(), database_name: 'Bistro Group' });
    const { user } = renderStoreTasks(store);
    await user.click(await screen.findByTestId('store-tasks-tab-day', {}, firstRender));
    expect(await screen.findByText('No task on this day.')).toBeTruthy();
  });
});
