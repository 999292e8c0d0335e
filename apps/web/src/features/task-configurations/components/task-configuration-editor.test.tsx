import type { ElementListItem } from '@mise/shared/catalogue/schemas';
import type { TaskConfiguration } from '@mise/shared/tasks/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setClockTime } from '../../../test/clock-time';
import { buildId, buildUser } from '../../../test/factories';
import { apiError, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import { buildTaskConfiguration, taskFieldStates } from '../test/build-task-configuration';

const me = { body: { user: buildUser({ role: 'admin' }) } };
/** The first render loads the page's chunk. */
const firstRender = { timeout: 10_000 };

function elementItem(name: string, overrides: Partial<ElementListItem> = {}): ElementListItem {
  const id = buildId();
  return {
    key: id,
    id,
    origin_id: null,
    is_remote: false,
    name,
    type_id: null,
    type_name: null,
    active: true,
    illustration_url: null,
    allergens: [],
    minimum_temperature: 0,
    maximum_temperature: 4,
    temperature_delivery_item: false,
    probe_id: null,
    probe_missing: false,
    ...overrides,
  };
}

const choiceOf = (item: ElementListItem) => ({
  id: item.id!,
  name: item.name,
  is_delivery_item: item.temperature_delivery_item,
});

function renderCreation(extra: (databaseId: string) => Record<string, MockHandler> = () => ({})) {
  const databaseId = buildId();
  const fridge = elementItem('Chambre froide');
  const fryer = elementItem('Friteuse');
  const created = buildTaskConfiguration({ database_id: databaseId, version: 0 });
  const api = mockApi({
    'GET /api/me': me,
    [`GET /api/databases/${databaseId}/taskTypes`]: { body: { items: [] } },
    // The server offers per module the elements with that module active.
    [`GET /api/databases/${databaseId}/taskConfigurations/elements`]: (call) => ({
      body: {
        items: (call.query.get('module') === 'oils' ? [fryer] : [fridge, fryer]).map(choiceOf),
      },
    }),
    [`POST /api/databases/${databaseId}/taskConfigurations`]: ({ body }) => ({
      body: {
        configuration: {
          ...created,
          ...(body as object),
          module: (body as { module: TaskConfiguration['module'] }).module,
        },
      },
    }),
    ...extra(databaseId),
  });
  const view = renderApp(`/taskConf?database=${databaseId}`);
  return { ...view, api, databaseId, created, fridge, fryer };
}

type User = ReturnType<typeof renderApp>['user'];

async function chooseOption(user: User, testId: string, name: string) {
  await user.click(screen.getByTestId(testId));
  await user.click(await screen.findByRole('option', { name }));
}

describe('task configuration editor', { timeout: 60_000 }, () => {
  it('creates a weekly Temperatures configuration at database level, then keeps the module read-only', async () => {
    const { user, api, router, databaseId, created, fridge } = renderCreation();

    await user.type(
      await screen.findByTestId('field-name', {}, firstRender),
      ' Relevé des frigos ',
    );
    await chooseOption(user, 'field-module', 'Temperatures');
    await chooseOption(user, 'field-elements', 'Chambre froide');
    await user.click(screen.getByTestId('field-is_delivery'));

    setClockTime('schedule-start', '08:00');
    setClockTime('schedule-end', '09:30');
    await user.click(screen.getByTestId('schedule-add'));
    expect(screen.getByTestId('schedule-window').textContent).toBe('08:00–09:30');

    await user.click(screen.getByRole('radio', { name: 'Weekly' }));
    const interval = screen.getByTestId('recurrence-interval');
    await user.tripleClick(interval);
    await user.keyboard('2');
    // Monday is chosen by default; Thursday is added.
    expect((screen.getByTestId('recurrence-weekday-0') as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByTestId('recurrence-weekday-3'));
    expect(screen.getByTestId('recurrence-description').textContent).toBe(
      'Every 2 weeks on Monday and Thursday',
    );

    await user.click(screen.getByTestId('task-configuration-save'));
    await waitFor(
      () => expect(router.state.location.search).toBe(`?id=${created.id}`),
      firstRender,
    );
    const body = api.callsTo('POST', `/api/databases/${databaseId}/taskConfigurations`)[0]?.body;
    expect(body).toMatchObject({
      name: 'Relevé des frigos',
      module: 'temperatures',
      recurrence: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH',
      schedules: [{ start: 480, end: 570 }],
      configuration: { temperature_elements: [fridge.id], is_delivery: true, automatic: false },
      active: true,
      locks: { name: true, schedule: true, recurrence: true, configuration: true },
    });
    expect(await screen.findByText('Saved successfully.')).toBeTruthy();
    expect(await screen.findByTestId('task-configuration-duplicate', {}, firstRender)).toBeTruthy();
    expect((screen.getByTestId('field-module') as HTMLInputElement).readOnly).toBe(true);
  });

  it('offers no module the database hides for a new task (issue 13)', async () => {
    const { user } = renderCreation((databaseId) => ({
      [`GET /api/databases/${databaseId}/elements/context`]: {
        body: { hidden_modules: ['oils', 'labels'], editable: true },
      },
    }));
    await screen.findByTestId('field-name', {}, firstRender);
    await waitFor(async () => {
      await user.click(screen.getByTestId('field-module'));
      expect(await screen.findByRole('option', { name: 'Temperatures' })).toBeTruthy();
      expect(screen.queryByRole('option', { name: 'Oils' })).toBeNull();
    });
    expect(screen.getByRole('option', { name: 'Action' })).toBeTruthy();
  });

  it('offers no module the store or its database hides for a new store task (issue 13)', async () => {
    const storeId = buildId();
    mockApi({
      'GET /api/me': me,
      [`GET /api/stores/${storeId}`]: {
        body: { store: { id: storeId, name: 'Bistro Opéra', is_read_only: false } },
      },
      [`GET /api/stores/${storeId}/taskTypes`]: { body: { items: [] } },
      [`GET /api/stores/${storeId}/elements/context`]: {
        body: { hidden_modules: ['oils'], editable: true },
      },
    });
    const { user } = renderApp(`/storeTaskConf?store=${storeId}`);
    await screen.findByTestId('field-name', {}, firstRender);
    await waitFor(async () => {
      await user.click(screen.getByTestId('field-module'));
      expect(await screen.findByRole('option', { name: 'Temperatures' })).toBeTruthy();
      expect(screen.queryByRole('option', { name: 'Oils' })).toBeNull();
    });
  });

  it("offers in the element picker only the elements of the configuration's module", async () => {
    const { user, api, databaseId } = renderCreation();
    await user.type(await screen.findByTestId('field-name', {}, firstRender), 'Huiles');
    await chooseOption(user, 'field-module', 'Oils');
    await user.click(screen.getByTestId('field-elements'));
    expect(await screen.findByRole('option', { name: 'Friteuse' })).toBeTruthy();
    expect(screen.queryByRole('option', { name: 'Chambre froide' })).toBeNull();
    const calls = api.callsTo('GET', `/api/databases/${databaseId}/taskConfigurations/elements`);
    expect(calls.map((call) => call.query.get('module'))).toContain('oils');
  });

  it('clears the chosen elements when the module of a new configuration changes', async () => {
    const { user, api, databaseId } = renderCreation();

    await user.type(await screen.findByTestId('field-name', {}, firstRender), 'Huiles');
    await chooseOption(user, 'field-module', 'Temperatures');
    await chooseOption(user, 'field-elements', 'Friteuse');
    await chooseOption(user, 'field-module', 'Oils');
    await user.click(screen.getByTestId('task-configuration-save'));

    await waitFor(() =>
      expect(api.callsTo('POST', `/api/databases/${databaseId}/taskConfigurations`)).toHaveLength(
        1,
      ),
    );
    const body = api.callsTo('POST', `/api/databases/${databaseId}/taskConfigurations`)[0]?.body;
    expect(body).toMatchObject({ module: 'oils', configuration: { oil_elements: [] } });
  });

  it('refuses a schedule whose start is after its end', async () => {
    const { user } = renderCreation();

    await screen.findByTestId('field-name', {}, firstRender);
    setClockTime('schedule-start', '10:00');
    setClockTime('schedule-end', '09:00');
    await user.click(screen.getByTestId('schedule-add'));

    expect((await screen.findByTestId('schedule-incoherent')).textContent).toBe(
      'The start of a schedule must not be after its end.',
    );
    expect(screen.queryByTestId('schedule-window')).toBeNull();
  });

  it('checks the name, then the module, then the actions of an Action task before saving', async () => {
    const { user, api, databaseId } = renderCreation();
    const validation = async () =>
      (await screen.findByTestId('task-configuration-validation')).textContent;
    const closeValidation = () =>
      user.click(screen.getByTestId('task-configuration-validation-ok'));

    await user.click(await screen.findByTestId('task-configuration-save', {}, firstRender));
    expect(await validation()).toBe('Please enter a name for the task.');
    await closeValidation();

    await user.type(screen.getByTestId('field-name'), 'Nettoyage');
    await user.click(screen.getByTestId('task-configuration-save'));
    expect(await validation()).toBe('Please select a module.');
    await closeValidation();

    await chooseOption(user, 'field-module', 'Action');
    // A blank action does not count.
    await user.click(screen.getByTestId('action-add'));
    await user.click(screen.getByTestId('task-configuration-save'));
    expect(await validation()).toBe('An Action task needs at least one action.');
    await closeValidation();
    expect(api.callsTo('POST', `/api/databases/${databaseId}/taskConfigurations`)).toHaveLength(0);

    await user.type(screen.getByTestId('action-name'), 'Nettoyer le plan de travail');
    await user.click(screen.getByTestId('action-requires-picture'));
    await user.click(screen.getByTestId('action-add'));
    await user.click(screen.getByTestId('task-configuration-save'));
    await waitFor(() =>
      expect(api.callsTo('POST', `/api/databases/${databaseId}/taskConfigurations`)).toHaveLength(
        1,
      ),
    );
    expect(
      api.callsTo('POST', `/api/databases/${databaseId}/taskConfigurations`)[0]?.body,
    ).toMatchObject({
      module: 'actions',
      configuration: {
        actions: [{ name: 'Nettoyer le plan de travail', requires_picture: true, attachments: [] }],
      },
    });
  });

  it('shows database locks as read-only at store level and never sends them', async () => {
    const storeId = buildId();
    const configuration = buildTaskConfiguration({
      level: 'store',
      database_id: null,
      store_id: storeId,
      origin_id: buildId(),
      is_remote: true,
      recurrence: 'FREQ=MONTHLY;INTERVAL=1;BYDAY=-1FR',
      field_states: taskFieldStates('inherited', { name: 'locked', recurrence: 'locked' }),
    });
    const api = mockApi({
      'GET /api/me': me,
      [`GET /api/storeTaskConfigurations/${configuration.id}`]: { body: { configuration } },
      [`GET /api/stores/${storeId}/taskTypes`]: { body: { items: [] } },
      [`GET /api/stores/${storeId}/taskConfigurations/elements`]: { body: { items: [] } },
      [`PATCH /api/storeTaskConfigurations/${configuration.id}`]: {
        body: { configuration: { ...configuration, version: configuration.version + 1 } },
      },
    });
    const { user } = renderApp(`/storeTaskConf?id=${configuration.id}`);

    const name = (await screen.findByTestId('field-name', {}, firstRender)) as HTMLInputElement;
    expect(name.readOnly).toBe(true);
    expect(screen.getByTestId('locked-name')).toBeTruthy();
    expect(screen.getByTestId('locked-recurrence')).toBeTruthy();
    expect(screen.getByTestId('recurrence-summary').textContent).toBe(
      'Every month on the last Friday',
    );
    expect((screen.getByTestId('recurrence-open') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('inherited-description')).toBeTruthy();

    await user.type(screen.getByTestId('field-description'), 'Chaque soir');
    expect(await screen.findByTestId('reset-description')).toBeTruthy();
    await user.click(screen.getByTestId('task-configuration-save'));
    await waitFor(() =>
      expect(api.callsTo('PATCH', `/api/storeTaskConfigurations/${configuration.id}`)).toHaveLength(
        1,
      ),
    );
    const body = api.callsTo('PATCH', `/api/storeTaskConfigurations/${configuration.id}`)[0]?.body;
    expect(body).toEqual({ version: configuration.version, description: 'Chaque soir' });
  });

  it('redirects ?store=&origin= to ?id= when the store already overrides the configuration', async () => {
    const storeId = buildId();
    const originId = buildId();
    const configuration = buildTaskConfiguration({
      level: 'store',
      database_id: null,
      store_id: storeId,
      origin_id: originId,
      field_states: taskFieldStates('inherited'),
    });
    mockApi({
      'GET /api/me': me,
      [`GET /api/stores/${storeId}/taskConfigurations/origin/${originId}`]: {
        body: { configuration },
      },
      [`GET /api/storeTaskConfigurations/${configuration.id}`]: { body: { configuration } },
      [`GET /api/stores/${storeId}/taskTypes`]: { body: { items: [] } },
      [`GET /api/stores/${storeId}/taskConfigurations/elements`]: { body: { items: [] } },
    });
    const { router } = renderApp(`/storeTaskConf?store=${storeId}&origin=${originId}`);
    await waitFor(() => expect(router.state.location.search).toBe(`?id=${configuration.id}`), {
      timeout: 10_000,
    });
    expect(await screen.findByTestId('field-name', {}, firstRender)).toBeTruthy();
  });

  it('edits the recurrence of a store configuration in a modal', async () => {
    const storeId = buildId();
    const configuration = buildTaskConfiguration({
      level: 'store',
      database_id: null,
      store_id: storeId,
      origin_id: buildId(),
      is_remote: true,
      field_states: taskFieldStates('inherited'),
    });
    const api = mockApi({
      'GET /api/me': me,
      [`GET /api/storeTaskConfigurations/${configuration.id}`]: { body: { configuration } },
      [`GET /api/stores/${storeId}/taskTypes`]: { body: { items: [] } },
      [`GET /api/stores/${storeId}/taskConfigurations/elements`]: { body: { items: [] } },
      [`PATCH /api/storeTaskConfigurations/${configuration.id}`]: apiError(
        409,
        'conflict/stale-version',
      ),
    });
    const { user } = renderApp(`/storeTaskConf?id=${configuration.id}`);

    await user.click(await screen.findByTestId('recurrence-open', {}, firstRender));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: 'Weekly' }));
    await user.click(within(dialog).getByTestId('recurrence-weekday-4'));
    await user.click(within(dialog).getByTestId('recurrence-apply'));
    expect(screen.getByTestId('recurrence-summary').textContent).toBe(
      'Every week on Monday and Friday',
    );

    await user.click(screen.getByTestId('task-configuration-save'));
    // A stale version offers to reload; nothing is overwritten.
    expect(await screen.findByTestId('confirm-dialog-confirm')).toBeTruthy();
    expect(
      api.callsTo('PATCH', `/api/storeTaskConfigurations/${configuration.id}`)[0]?.body,
    ).toEqual({ version: configuration.version, recurrence: 'FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,FR' });
  });
  it('adds a task type with the default colour and selects it', async () => {
    const typeId = buildId();
    let types: { id: string; name: string; color: string; store_side: boolean }[] = [];
    const { user, api, databaseId } = renderCreation((id) => ({
      [`GET /api/databases/${id}/taskTypes`]: () => ({ body: { items: types } }),
      [`POST /api/databases/${id}/taskTypes`]: ({ body }) => {
        types = [{ id: typeId, ...(body as { name: string; color: string }), store_side: false }];
        return { body: { type: types[0] } };
      },
    }));
    const typesPath = `/api/databases/${databaseId}/taskTypes`;

    await user.click(await screen.findByTestId('task-type-add', {}, firstRender));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByTestId('task-type-submit'));
    expect(await within(dialog).findByText('Please enter a name for the task type.')).toBeTruthy();
    await user.type(within(dialog).getByTestId('task-type-name'), 'HACCP');
    await user.click(within(dialog).getByTestId('task-type-submit'));

    await waitFor(() =>
      expect((screen.getByTestId('field-type_id') as HTMLInputElement).value).toBe('HACCP'),
    );
    expect(api.callsTo('POST', typesPath)[0]?.body).toEqual({ name: 'HACCP', color: '#454eff' });
  });

  it('asks before leaving with unsaved changes', async () => {
    const { user, router } = renderCreation();

    await user.type(await screen.findByTestId('field-name', {}, firstRender), 'Frigos');
    await user.click(screen.getByTestId('task-configuration-back'));
    expect(
      await screen.findByText('You have unsaved changes. Leave this page anyway?'),
    ).toBeTruthy();
    await user.click(screen.getByTestId('confirm-dialog-cancel'));
    expect(router.state.location.pathname).toBe('/taskConf');
    expect((screen.getByTestId('field-name') as HTMLInputElement).value).toBe('Frigos');
  });
});
