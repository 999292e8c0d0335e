import type { Element } from '@mise/shared/catalogue/schemas';
import type { Probe } from '@mise/shared/probes/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import fr from '../../../locales/fr.json';
import { buildId, buildUser } from '../../../test/factories';
import { apiError, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import { buildElement, fieldStates } from '../test/build-element';

/**
 * The store element's probe (spec 001 probe_id, issue 15): a select of the store's probes
 * with their last temperature, "no probe" to unbind, and the spec's warning when the saved
 * probe is no longer one of the store's.
 */

const admin = { body: { user: buildUser({ role: 'admin' }) } };
const storeId = buildId();

/** The fields the select reads; the rest of the API's probe does not matter here. */
function probe(overrides: Partial<Probe>): Probe {
  const probeUID = overrides.probeUID ?? `KV-${buildId().slice(-6)}`;
  return {
    id: buildId(),
    probeUID,
    active: true,
    name: 'Sonde',
    batteryLevel: 90,
    maximumTemperature: null,
    minimumTemperature: null,
    criticalThreshold: null,
    notifyTemperature: null,
    postUrl: `https://mise.example/api/probes/readings/${probeUID}`,
    postingInterval: 300,
    pushNotification: false,
    alertDelayMinutes: 15,
    element: null,
    lastTemperature: null,
    lastTemperatureTimestamp: null,
    storeId,
    working: false,
    ...overrides,
  } as Probe;
}

const walkIn = probe({
  probeUID: 'walk-in-1',
  name: 'Sonde chambre',
  lastTemperature: 3.46,
  lastTemperatureTimestamp: '2026-11-24T11:00:00.000Z',
});
const showcase = probe({ probeUID: 'showcase-1', name: 'Sonde vitrine' });

function storeElement(overrides: Partial<Element> = {}): Element {
  return buildElement({
    level: 'store',
    database_id: buildId(),
    store_id: storeId,
    origin_id: null,
    is_remote: true,
    type_id: buildId(),
    type_name: 'Froid',
    field_states: fieldStates('own'),
    ...overrides,
  });
}

function serve(element: Element, probes: Probe[] | 'error' = [walkIn, showcase]) {
  const server = { element };
  const path = `/api/storeElements/${element.id}`;
  const api = mockApi({
    'GET /api/me': admin,
    [`GET ${path}`]: () => ({ body: { element: server.element } }),
    [`GET /api/stores/${storeId}/elementTypes`]: { body: { items: [] } },
    [`GET /api/probes/store/${storeId}`]:
      probes === 'error' ? apiError(500, 'internal') : { body: { items: probes } },
    [`PATCH ${path}`]: ({ body }) => {
      const { version, ...fields } = body as { version: number };
      server.element = { ...server.element, ...fields, version: version + 1 };
      return { body: { element: server.element } };
    },
  });
  return { api, path, ...renderApp(`/storeElement?id=${element.id}`) };
}

const select = () => screen.findByLabelText('Bound probe') as Promise<HTMLSelectElement>;
const patchBodies = (api: ReturnType<typeof mockApi>, path: string) =>
  api.callsTo('PATCH', path).map((call) => call.body as Record<string, unknown>);

describe('store element probe', { timeout: 30_000 }, () => {
  it('lists the store probes with their last temperature and shows the bound one', async () => {
    serve(storeElement({ probe_id: 'walk-in-1' }));
    const field = await select();
    await waitFor(() => expect(field.value).toBe('walk-in-1'));
    expect([...field.options].map((option) => [option.value, option.textContent])).toEqual([
      ['', 'No probe'],
      ['walk-in-1', 'Sonde chambre · 3.5 °C'],
      ['showcase-1', 'Sonde vitrine · no reading'],
    ]);
    expect(screen.getByTestId('element-probe-reading').textContent).toContain(
      'Last reading: 3.5 °C on ',
    );
    expect(screen.queryByTestId('element-probe-missing')).toBeNull();
  });

  it('warns when the previously selected probe is no longer the store’s, until it is changed', async () => {
    const { api, path, user } = serve(storeElement({ probe_id: 'gone-7', probe_missing: true }));
    const warning = await screen.findByTestId('element-probe-missing');
    expect(warning.textContent).toBe('The previously selected probe cannot be found. Change it.');
    expect(warning.getAttribute('role')).toBe('alert');
    const field = await select();
    // The missing binding stays visible as what is selected, marked invalid until changed.
    expect(field.value).toBe('gone-7');
    expect(within(field).getByText('gone-7 (not found)')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');

    await user.selectOptions(field, 'showcase-1');
    await user.click(screen.getByTestId('element-save'));
    await waitFor(() => expect(patchBodies(api, path)).toHaveLength(1));
    expect(patchBodies(api, path)[0]).toMatchObject({ probe_id: 'showcase-1' });
    await waitFor(() => expect(screen.queryByTestId('element-probe-missing')).toBeNull());
  });

  it('the French warning is the spec’s text', () => {
    expect(fr.element.probe.missing).toBe(
      'La sonde précédemment selectionnée est introuvable. Modifiez la.',
    );
  });

  it('binds, unbinds with "No probe", and never resends an unchanged binding', async () => {
    const { api, path, user } = serve(storeElement({ probe_id: 'walk-in-1' }));
    const field = await select();
    await waitFor(() => expect(field.value).toBe('walk-in-1'));

    const name = screen.getByTestId('field-name');
    await user.type(name, ' 2');
    await user.click(screen.getByTestId('element-save'));
    await waitFor(() => expect(patchBodies(api, path)).toHaveLength(1));
    expect(patchBodies(api, path)[0]).not.toHaveProperty('probe_id');

    await user.selectOptions(await select(), '');
    await user.click(screen.getByTestId('element-save'));
    await waitFor(() => expect(patchBodies(api, path)).toHaveLength(2));
    expect(patchBodies(api, path)[1]).toMatchObject({ probe_id: null });
  });

  it('has no probe section on a database element', async () => {
    const element = buildElement();
    mockApi({
      'GET /api/me': admin,
      [`GET /api/databaseElements/${element.id}`]: { body: { element } },
      [`GET /api/databases/${element.database_id}/elementTypes`]: { body: { items: [] } },
    });
    renderApp(`/databaseElement?id=${element.id}`);
    await screen.findByTestId('field-minimum_temperature');
    expect(screen.queryByTestId('element-probe')).toBeNull();
  });
});
