import type { BulkTaskConfigurationRow } from '@mise/shared/catalogue/bulk';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { setClockTime } from '../../test/clock-time';
import { buildId, buildStore, buildUser } from '../../test/factories';
import { type MockHandler, mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render-app';
import { expectNoAxeViolations } from '../alerts/test/expect-no-axe-violations';
import { buildBulkTask } from './test/build-bulk';

const databaseId = buildId();
const savePath = `/api/databases/${databaseId}/taskConfigurations/bulk`;

function renderDatabaseTasks(
  rows: BulkTaskConfigurationRow[],
  extra: Record<string, MockHandler> = {},
) {
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: 'distributor' }) } },
    [`GET /api/databases/${databaseId}`]: {
      body: { database: { id: databaseId, name: 'Bistro Group' } },
    },
    [`GET /api/databases/${databaseId}/taskConfigurations/bulk`]: {
      body: { rows, hidden_modules: [], editable: true },
    },
    [`GET /api/databases/${databaseId}/taskTypes`]: {
      body: {
        items: [
          {
            id: 'type-1',
            name: 'Hygiène',
            color: '#e03131',
            store_side: false,
            database_id: databaseId,
            store_id: null,
          },
        ],
      },
    },
    ...extra,
  });
  return { ...renderApp(`/bulkDatabaseTask?database=${databaseId}`), api };
}

/** The save answers each written row as saved (version + 1). */
function echoSave(rows: BulkTaskConfigurationRow[]): MockHandler {
  return (call) => ({
    body: {
      rows: (call.body as { rows: { key: string }[] }).rows.map((write) => {
        const row = rows.find((candidate) => candidate.key === write.key);
        return row ? { ...row, version: row.version + 1 } : buildBulkTask({ key: write.key });
      }),
    },
  });
}

// The screens' chunk (the route's lazy import) is loaded once before the tests: on a loaded
// machine its first, cold import could take most of a test's wait for the grid.
beforeAll(async () => {
  await import('./pages/bulk-task-pages');
}, 60_000);

describe('bulk database tasks', { timeout: 30_000 }, () => {
  it('the types dialog edits a task type’s name and colour, refuses a blank name, and creates a type', async () => {
    const typePath = '/api/taskTypes/type-1';
    const createPath = `/api/databases/${databaseId}/taskTypes`;
    const saved = (call: { body: unknown }) => ({
      body: { type: { id: 'type-x', store_side: false, ...(call.body as object) } },
    });
    const { user, api } = renderDatabaseTasks([buildBulkTask({ name: 'Relevé' })], {
      [`PATCH ${typePath}`]: saved,
      [`POST ${createPath}`]: saved,
    });
    await user.click(await screen.findByTestId('bulk-types'));
    const dialog = await screen.findByTestId('bulk-type-dialog');

    // An existing type: its name and colour fill the fields; a blank name is refused.
    await user.click(within(dialog).getByTestId('bulk-type-choice'));
    await user.click(await screen.findByRole('option', { name: 'Hygiène' }));
    const name = within(dialog).getByTestId('bulk-type-name') as HTMLInputElement;
    const color = within(dialog).getByTestId('bulk-type-color') as HTMLInputElement;
    expect(name.value).toBe('Hygiène');
    expect(color.value).toBe('#e03131');
    await user.clear(name);
    await user.click(screen.getByTestId('bulk-type-submit'));
    expect(await within(dialog).findByText('Please enter a name for the task type.')).toBeTruthy();
    expect(api.callsTo('PATCH', typePath)).toHaveLength(0);
    await user.type(name, 'Hygiène des mains');
    fireEvent.change(color, { target: { value: '#2f9e44' } });
    await user.click(screen.getByTestId('bulk-type-submit'));
    await waitFor(() => expect(api.callsTo('PATCH', typePath)).toHaveLength(1));
    expect(api.callsTo('PATCH', typePath)[0]?.body).toEqual({
      name: 'Hygiène des mains',
      color: '#2f9e44',
    });

    // Opened again: a new type with the default colour.
    await user.click(screen.getByTestId('bulk-types'));
    const again = await screen.findByTestId('bulk-type-dialog');
    await waitFor(() =>
      expect((within(again).getByTestId('bulk-type-name') as HTMLInputElement).value).toBe(''),
    );
    expect((within(again).getByTestId('bulk-type-color') as HTMLInputElement).value).toBe(
      '#454eff',
    );
    await user.type(within(again).getByTestId('bulk-type-name'), 'Sécurité');
    await user.click(screen.getByTestId('bulk-type-submit'));
    await waitFor(() => expect(api.callsTo('POST', createPath)).toHaveLength(1));
    expect(api.callsTo('POST', createPath)[0]?.body).toEqual({
      name: 'Sécurité',
      color: '#454eff',
    });
  });

  it('shows the General columns; the other filters show a module’s tasks with their count, and clear the selection', async () => {
    const rows = [
      buildBulkTask({
        name: 'Relevé du matin',
        module: 'temperatures',
        requires_manager: true,
        type_id: 'type-1',
        type_name: 'Hygiène',
        starts: [480, 840],
        durations: [60, 90],
        recurrence: 'FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,TH',
        configuration: {
          temperature_elements: [buildId(), buildId()],
          is_delivery: false,
          automatic: false,
        },
      }),
      buildBulkTask({
        name: 'Nettoyage',
        module: 'actions',
        configuration: {
          actions: [
            { name: 'Sol', requires_picture: false, attachments: [] },
            { name: 'Hotte', requires_picture: true, attachments: [] },
            { name: 'Plans', requires_picture: false, attachments: [] },
          ],
        },
      }),
      buildBulkTask({
        name: 'Friteuse',
        module: 'oils',
        configuration: { oil_elements: [buildId()] },
      }),
    ];
    const [temperatures, actions, oils] = rows.map((row) => row.key) as [string, string, string];
    const { user, container } = renderDatabaseTasks(rows);

    expect(await screen.findByTestId('bulk-grid')).toBeTruthy();
    for (const field of ['name', 'active', 'requires_manager', 'recurrence', 'type_id', 'schedule'])
      expect(screen.getByTestId(`bulk-head-${field}`)).toBeTruthy();
    expect(screen.getByTestId(`bulk-cell-${temperatures}-schedule`).textContent).toContain(
      '08:00–09:00, 14:00–15:30',
    );
    expect(screen.getByTestId(`bulk-cell-${temperatures}-recurrence`).textContent).toContain(
      'Every week on Monday and Thursday',
    );
    expect(screen.getByTestId(`bulk-cell-${temperatures}-type_id`).textContent).toContain(
      'Hygiène',
    );
    expect(screen.getByTestId(`bulk-row-${oils}`)).toBeTruthy();
    await expectNoAxeViolations(container);

    await user.click(screen.getByTestId(`bulk-check-${temperatures}`));
    await user.click(screen.getByTestId(`bulk-check-${actions}`));
    expect(screen.getByTestId('bulk-counts').textContent).toBe('3 shown, 2 checked');

    await user.click(screen.getByTestId('bulk-chip-actions'));
    await waitFor(() => expect(screen.queryByTestId(`bulk-row-${temperatures}`)).toBeNull());
    expect(screen.getByTestId(`bulk-cell-${actions}-item_count`).textContent).toContain(
      '3 actions',
    );
    expect(screen.queryByTestId(`bulk-head-recurrence`)).toBeNull();
    // Changing the filter cleared the selection.
    expect(screen.getByTestId('bulk-counts').textContent).toBe('1 shown, 0 checked');
    expect((screen.getByTestId(`bulk-check-${actions}`) as HTMLInputElement).checked).toBe(false);

    await user.click(screen.getByTestId('bulk-chip-temperatures'));
    await waitFor(() =>
      expect(screen.getByTestId(`bulk-cell-${temperatures}-item_count`).textContent).toContain(
        '2 elements',
      ),
    );
    expect(screen.queryByTestId(`bulk-row-${oils}`)).toBeNull();
    await user.click(screen.getByTestId('bulk-chip-oils'));
    await waitFor(() => expect(screen.getByTestId(`bulk-row-${oils}`)).toBeTruthy());
  });

  it('edits a row’s schedules in the schedule modal (an incoherent window is refused) and saves them', async () => {
    const rows = [buildBulkTask({ name: 'Relevé', starts: [480], durations: [60], version: 4 })];
    const key = rows[0]!.key;
    const { user, api } = renderDatabaseTasks(rows, { [`POST ${savePath}`]: echoSave(rows) });

    await user.click(await screen.findByTestId(`bulk-value-${key}-schedule`));
    const dialog = await screen.findByTestId('bulk-schedule-dialog');
    setClockTime('schedule-start', '15:00');
    setClockTime('schedule-end', '14:00');
    await user.click(within(dialog).getByTestId('schedule-add'));
    expect((await screen.findByTestId('schedule-incoherent')).textContent).toBe(
      'The start of a schedule must not be after its end.',
    );
    await user.click(screen.getByTestId('schedule-incoherent-ok'));
    setClockTime('schedule-start', '14:00');
    setClockTime('schedule-end', '15:30');
    await user.click(within(dialog).getByTestId('schedule-add'));
    await user.click(screen.getByTestId('bulk-schedule-submit'));

    await waitFor(() =>
      expect(screen.getByTestId(`bulk-cell-${key}-schedule`).textContent).toContain(
        '08:00–09:00, 14:00–15:30',
      ),
    );
    await user.click(screen.getByTestId('bulk-save'));
    await waitFor(() => expect(api.callsTo('POST', savePath)).toHaveLength(1));
    expect(api.callsTo('POST', savePath)[0]?.body).toEqual({
      rows: [
        {
          key,
          id: key,
          version: 4,
          values: {
            schedules: [
              { start: 480, end: 540 },
              { start: 840, end: 930 },
            ],
          },
        },
      ],
    });
  });

  it('applies a recurrence to the checked tasks from the column header', async () => {
    const rows = [
      buildBulkTask({ name: 'A' }),
      buildBulkTask({ name: 'B' }),
      buildBulkTask({ name: 'C' }),
    ];
    const [a, b, c] = rows.map((row) => row.key) as [string, string, string];
    const { user, api } = renderDatabaseTasks(rows, { [`POST ${savePath}`]: echoSave(rows) });

    await user.click(await screen.findByTestId(`bulk-check-${a}`));
    await user.click(screen.getByTestId(`bulk-check-${c}`));
    await user.click(screen.getByTestId('bulk-apply-recurrence'));
    await screen.findByTestId('bulk-recurrence-dialog');
    await user.click(screen.getByRole('radio', { name: 'Weekly' }));
    await user.click(screen.getByTestId('recurrence-weekday-4'));
    await user.click(screen.getByTestId('bulk-recurrence-submit'));

    await waitFor(() =>
      expect(screen.getByTestId(`bulk-cell-${a}-recurrence`).textContent).toContain(
        'Every week on Monday and Friday',
      ),
    );
    expect(screen.getByTestId(`bulk-cell-${b}-recurrence`).textContent).toContain('Every day');
    await user.click(screen.getByTestId('bulk-save'));
    await waitFor(() => expect(api.callsTo('POST', savePath)).toHaveLength(1));
    const body = api.callsTo('POST', savePath)[0]?.body as {
      rows: { key: string; values: object }[];
    };
    expect(body.rows.map((row) => row.key)).toEqual([a, c]);
    expect(body.rows[0]?.values).toEqual({ recurrence: 'FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,FR' });
  });

  it('adds a new Action task (its first action required) and saves it with its module', async () => {
    const { user, api } = renderDatabaseTasks([buildBulkTask({ name: 'A' })], {
      [`POST ${savePath}`]: echoSave([]),
    });

    await user.click(await screen.findByTestId('bulk-new'));
    await user.type(await screen.findByTestId('bulk-new-name'), 'Fermeture');
    await user.click(screen.getByTestId('bulk-new-module'));
    await user.click(await screen.findByRole('option', { name: 'Action' }));
    await user.click(screen.getByTestId('bulk-new-submit'));
    expect(await screen.findByText('An Action task needs at least one action.')).toBeTruthy();
    await user.type(screen.getByTestId('bulk-new-action'), 'Éteindre la hotte');
    await user.click(screen.getByTestId('bulk-new-submit'));

    await waitFor(() => expect(screen.getByTestId('bulk-dirty-count').textContent).toBe('1'));
    await user.click(screen.getByTestId('bulk-save'));
    await waitFor(() => expect(api.callsTo('POST', savePath)).toHaveLength(1));
    const body = api.callsTo('POST', savePath)[0]?.body as {
      rows: { id: null; values: Record<string, unknown>; locks: object }[];
    };
    expect(body.rows).toHaveLength(1);
    expect(body.rows[0]?.id).toBeNull();
    expect(body.rows[0]?.values).toMatchObject({
      name: 'Fermeture',
      module: 'actions',
      active: true,
      recurrence: 'FREQ=DAILY;INTERVAL=1',
      schedules: [],
      configuration: {
        actions: [{ name: 'Éteindre la hotte', requires_picture: false, attachments: [] }],
      },
    });
    expect(body.rows[0]?.locks).toMatchObject({ name: true, schedule: true });
  });
});

describe('bulk store tasks', { timeout: 30_000 }, () => {
  it('shows the values the database locks read only', async () => {
    const store = buildStore({ name: 'Bistro Opéra' });
    const originId = buildId();
    const rows = [
      buildBulkTask({
        id: null,
        origin_id: originId,
        level: 'store',
        name: 'Relevé du matin',
        states: { recurrence: 'locked', schedule: 'locked', name: 'locked', active: 'inherited' },
      }),
    ];
    const key = `origin:${originId}`;
    mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
      [`GET /api/stores/${store.id}`]: { body: { store } },
      [`GET /api/stores/${store.id}/taskConfigurations/bulk`]: {
        body: { rows, hidden_modules: [], editable: true },
      },
      [`GET /api/stores/${store.id}/taskTypes`]: { body: { items: [] } },
    });
    const { user, router } = renderApp(`/bulkStoreTask?store=${store.id}`);

    const recurrence = await screen.findByTestId(`bulk-cell-${key}-recurrence`);
    expect(within(recurrence).getByTestId(`bulk-locked-${key}-recurrence`)).toBeTruthy();
    expect(within(recurrence).queryByRole('button')).toBeNull();
    expect(
      within(screen.getByTestId(`bulk-cell-${key}-schedule`)).queryByRole('button'),
    ).toBeNull();
    expect(screen.queryByTestId(`bulk-lock-${key}-active`)).toBeNull();
    // An inherited (not locked) field stays editable.
    expect(
      within(screen.getByTestId(`bulk-cell-${key}-active`)).getByRole('checkbox'),
    ).toBeTruthy();
    // The row opens the store's screen of the database task it follows.
    await user.click(screen.getByTestId(`bulk-open-${key}`));
    await waitFor(() => expect(router.state.location.pathname).toBe('/storeTaskConf'));
    expect(new URLSearchParams(router.state.location.search).get('origin')).toBe(originId);
  });
});
