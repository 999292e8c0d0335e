import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import {
  buildInspection,
  buildInspectionTask,
  buildInspectionTaskDetail,
} from '../test/build-inspection';

const token = 'Qk3m2Yx0_a-token-of-forty-three-characters00';
const firstRender = { timeout: 10_000 };

function renderInspection(options: { isInvalid?: boolean } = {}) {
  const fridge = {
    id: '11111111-1111-4111-8111-111111111111',
    name: 'Chambre froide',
    minimum_temperature: 0,
    maximum_temperature: 4,
    maximum_polarity: null,
    reheating_temperature: null,
    cooling_temperature: null,
  };
  const task = buildInspectionTask({
    name: 'Relevé du matin',
    status: 'done',
    is_anomaly: true,
    anomalies: ['temperature-out-of-range'],
    elements: [fridge],
    result: { entries: [{ element: fridge.id, temperature: 7.5, comment: 'Porte ouverte' }] },
  });
  const api = mockApi({
    'GET /api/me': apiError(401, 'auth/unauthenticated'),
    'GET /api/inspect': options.isInvalid
      ? apiError(401, 'inspector/link-invalid')
      : { body: { inspection: buildInspection() } },
    'GET /api/inspect/history': (call) => ({
      body: {
        day: call.query.get('day'),
        module: call.query.get('module'),
        items:
          call.query.get('day') === '2026-11-16' && call.query.get('module') === 'temperatures'
            ? [task]
            : [],
        next_cursor: null,
      },
    }),
    [`GET /api/inspect/tasks/${task.id}`]: {
      body: { task: buildInspectionTaskDetail({ ...task }) },
    },
    'GET /api/inspect/pack': { body: { pack: null } },
  });
  return { ...renderApp(`/inspect#${token}`), api, task };
}

describe('inspect page', { timeout: 30_000 }, () => {
  it("shows the link's store and period and a day's tasks, sending the token in a header only", async () => {
    const { api } = renderInspection();
    expect((await screen.findByTestId('inspection-store', {}, firstRender)).textContent).toBe(
      'Bistro Lyon Bellecour',
    );
    expect(screen.getByTestId('inspection-period').textContent).toBe(
      'Period: 16/11/2026 – 22/11/2026',
    );
    const row = await screen.findByTestId('inspection-row');
    expect(within(row).getByTestId('inspection-row-name').textContent).toBe('Relevé du matin');
    expect(within(row).getByTestId('inspection-row-anomaly').textContent).toBe(
      'Anomaly: Temperature out of range',
    );
    // No account, no navigation.
    expect(screen.queryByTestId('navigation-burger')).toBeNull();
    expect(screen.queryByTestId('header-name')).toBeNull();
    const inspectorCalls = api.calls.filter((call) => call.path.startsWith('/api/inspect'));
    expect(inspectorCalls.length).toBeGreaterThanOrEqual(3);
    for (const call of inspectorCalls) {
      expect(call.headers.get('authorization')).toBe(`Inspector ${token}`);
      expect(`${call.path}?${call.query}`).not.toContain(token);
    }
  });

  it("opens a task's detail with its result table, and moves to the next day", async () => {
    const { user, api } = renderInspection();
    const row = await screen.findByTestId('inspection-row', {}, firstRender);
    await user.click(within(row).getByTestId('inspection-row-open'));
    const detail = await screen.findByTestId('inspection-task');
    const line = within(detail).getByTestId('inspection-result-line');
    expect(line.getAttribute('data-anomaly')).toBe('true');
    const temperature = line.querySelector('[data-column="temperature"]')!;
    expect(temperature.textContent).toBe('7.5 °C');
    expect(line.textContent).toContain('Chambre froide');
    expect(line.textContent).toContain('Porte ouverte');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('inspection-task')).toBeNull());

    await user.click(screen.getByTestId('inspection-next-day'));
    expect(await screen.findByTestId('inspection-empty')).toBeTruthy();
    expect(
      api.callsTo('GET', '/api/inspect/history').map((call) => call.query.get('day')),
    ).toContain('2026-11-17');
    expect(screen.getByTestId('inspection-previous-day').hasAttribute('disabled')).toBe(false);
  });

  it('offers to prepare the inspector pack of the period', async () => {
    renderInspection();
    expect((await screen.findByTestId('inspection-pack-build', {}, firstRender)).textContent).toBe(
      'Prepare the pack',
    );
  });

  it('says the link is no longer valid once it expired or was revoked', async () => {
    renderInspection({ isInvalid: true });
    const invalid = await screen.findByTestId('inspection-invalid', {}, firstRender);
    expect(invalid.textContent).toContain('This link is no longer valid');
    expect(invalid.textContent).toContain('It expired or was revoked.');
    expect(screen.queryByTestId('inspection-row')).toBeNull();
  });

  it('asks nothing when the address holds no token', async () => {
    const api = mockApi({ 'GET /api/me': apiError(401, 'auth/unauthenticated') });
    renderApp('/inspect');
    const invalid = await screen.findByTestId('inspection-invalid', {}, firstRender);
    expect(invalid.textContent).toContain('This address holds no inspector link.');
    expect(api.calls.filter((call) => call.path.startsWith('/api/inspect'))).toEqual([]);
  });
});
