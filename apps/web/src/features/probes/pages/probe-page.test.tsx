import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { buildStore, buildUser } from '../../../test/factories';
import { apiError, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import { buildAlert } from '../../alerts/test/build-alert';
import { buildProbe } from '../test/build-probe';

// uPlot draws on a canvas the test DOM does not have: the charts show what they were given.
vi.mock('../components/probe-charts', () => ({
  ProbeCharts: ({
    data,
    shades,
  }: {
    data: { times: number[]; band: unknown };
    shades: { start: number; end: number; kind: string }[];
  }) => (
    <div
      data-testid="probe-charts"
      data-points={data.times.length}
      data-band={data.band !== null}
      data-shades={JSON.stringify(shades)}
    />
  ),
}));

const pageLoad = { timeout: 10_000 };
const store = buildStore({ name: 'Bistro Opéra' });
const probe = buildProbe({
  probeUID: 'KV-1001',
  name: 'Chambre froide',
  storeId: store.id,
  postingInterval: 600,
  minimumTemperature: 0,
  maximumTemperature: 4,
});

function renderProbe(
  overrides: Partial<typeof probe> = {},
  extra: Record<string, MockHandler> = {},
) {
  const shown = { ...probe, ...overrides };
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
    'GET /api/probes': { body: { items: [shown] } },
    'GET /api/stores': { body: { items: [store], total: 1 } },
    'POST /api/probes/temperatures/KV-1001': ({ body }) => ({
      body: {
        probeUID: 'KV-1001',
        ...(body as { start: string; end: string }),
        bucketSeconds: null,
        readings: [
          {
            timestamp: '2026-11-24T10:00:00.000Z',
            temperature: 2.5,
            minTemperature: 2.5,
            maxTemperature: 2.5,
            batteryLevel: 87,
            count: 1,
          },
        ],
      },
    }),
    'GET /api/alerts': { body: { items: [] } },
    ...extra,
  });
  return { ...renderApp(`/probe?id=${shown.id}`), api };
}

async function replaceNumber(
  user: ReturnType<typeof renderApp>['user'],
  testId: string,
  text: string,
) {
  const input = screen.getByTestId(testId);
  await user.clear(input);
  await user.type(input, text);
}

describe('probe detail', { timeout: 20_000 }, () => {
  it('shows the upload frequency in minutes and sends minutes back with the other fields', async () => {
    const saved = { ...probe, postingInterval: 900, name: 'Chambre froide 1' };
    const { user, api } = renderProbe(
      {},
      {
        'POST /api/probes/edit/KV-1001': { body: { probe: saved } },
      },
    );
    const interval = await screen.findByTestId('probe-interval', {}, pageLoad);
    // Stored 600 seconds: entered and shown as 10 minutes (spec 000 §9).
    expect(interval).toHaveProperty('value', '10 min');
    expect(screen.getByTestId('probe-owner-store').textContent).toBe('Bistro Opéra');

    await replaceNumber(user, 'probe-interval', '15');
    await user.type(screen.getByTestId('probe-name'), ' 1');
    await user.click(screen.getByTestId('probe-push'));
    await user.click(screen.getByTestId('save'));

    await waitFor(() => expect(api.callsTo('POST', '/api/probes/edit/KV-1001')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/probes/edit/KV-1001')[0]?.body).toEqual({
      name: 'Chambre froide 1',
      active: true,
      postingInterval: 15,
      pushNotification: true,
      minimumTemperature: 0,
      maximumTemperature: 4,
      alertDelayMinutes: 15,
    });
    expect((await screen.findByTestId('notice-success')).textContent).toContain(
      'Saved successfully.',
    );
  });

  it('refuses a minimum above the maximum and an empty upload frequency', async () => {
    const { user, api } = renderProbe();
    await screen.findByTestId('probe-interval', {}, pageLoad);

    await replaceNumber(user, 'probe-minimum', '8');
    await user.click(screen.getByTestId('save'));
    expect((await screen.findByTestId('notice-error')).textContent).toContain(
      'The minimum temperature must not exceed the maximum.',
    );

    await replaceNumber(user, 'probe-minimum', '1');
    await user.clear(screen.getByTestId('probe-interval'));
    await user.click(screen.getByTestId('save'));
    await waitFor(() =>
      expect(
        screen.getAllByText('Enter an upload frequency of 1 to 1440 whole minutes.').length,
      ).toBeGreaterThan(0),
    );
    expect(api.callsTo('POST', '/api/probes/edit/KV-1001')).toHaveLength(0);
  });

  it("shows the server's refusal in words", async () => {
    const { user } = renderProbe(
      {},
      {
        'POST /api/probes/edit/KV-1001': apiError(400, 'probe/invalid-range'),
      },
    );
    await screen.findByTestId('probe-interval', {}, pageLoad);
    await user.click(screen.getByTestId('save'));
    expect((await screen.findByTestId('notice-error')).textContent).toContain(
      'The minimum temperature must not exceed the maximum.',
    );
  });

  it('shows no data without a reading, and asks the last 24 hours for the chart', async () => {
    const { api } = renderProbe({ lastTemperature: null, lastTemperatureTimestamp: null });
    expect((await screen.findByTestId('probe-last-temperature', {}, pageLoad)).textContent).toBe(
      'No data',
    );
    expect(screen.getByTestId('probe-working').textContent).toBe('Not working');
    const charts = await screen.findByTestId('probe-charts');
    expect(charts.dataset.points).toBe('1');
    const requests = api.callsTo('POST', '/api/probes/temperatures/KV-1001');
    expect(requests).toHaveLength(1);
    const { start, end } = requests[0]!.body as { start: string; end: string };
    expect(Date.parse(end) - Date.parse(start)).toBe(24 * 3_600_000);
  });

  it('removes the probe from its store after confirmation', async () => {
    const { user, api } = renderProbe(
      {},
      {
        'POST /api/probes/removeOwnership/KV-1001': {
          body: { probe: { ...probe, storeId: null } },
        },
      },
    );
    await user.click(await screen.findByTestId('probe-remove-ownership', {}, pageLoad));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/will no longer belong to Bistro Opéra/)).toBeTruthy();
    await user.click(within(dialog).getByTestId('confirm-dialog-confirm'));
    await waitFor(() =>
      expect(api.callsTo('POST', '/api/probes/removeOwnership/KV-1001')).toHaveLength(1),
    );
  });

  it("lists the period's alert episodes with their acknowledgement, shaded on the chart", async () => {
    // The chart shows the last 24 hours: the episodes below are inside them at this time.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-24T18:00:00.000Z'));
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const outOfRange = buildAlert({
      probeUID: 'KV-1001',
      startedAt: '2026-11-24T08:00:00.000Z',
      resolvedAt: '2026-11-24T09:30:00.000Z',
      acknowledgedAt: '2026-11-24T09:40:00.000Z',
      acknowledgedByName: 'Camille Martin',
      correctiveAction: 'Product moved. Seal to replace',
    });
    const offline = buildAlert({
      probeUID: 'KV-1001',
      kind: 'offline',
      startedAt: '2026-11-24T10:30:00.000Z',
      resolvedAt: '2026-11-24T11:00:00.000Z',
      worstValue: null,
      lastValue: null,
      escalationLevel: 0,
    });
    const lowBattery = buildAlert({
      probeUID: 'KV-1001',
      kind: 'low_battery',
      startedAt: '2026-11-24T10:00:00.000Z',
      worstValue: null,
      lastValue: 15,
      escalationLevel: 0,
    });
    const { api } = renderProbe(
      {},
      { 'GET /api/alerts': { body: { items: [offline, lowBattery, outOfRange] } } },
    );
    const episodes = await screen.findAllByTestId('probe-alert', {}, pageLoad);
    expect(episodes).toHaveLength(3);
    const query = api.callsTo('GET', '/api/alerts')[0]?.query;
    const range = api.callsTo('POST', '/api/probes/temperatures/KV-1001')[0]?.body as {
      start: string;
      end: string;
    };
    expect(query?.get('probeUID')).toBe('KV-1001');
    expect(query?.get('from')).toBe(range.start);
    expect(query?.get('to')).toBe(range.end);
    expect(query?.get('state')).toBe('all');

    // Times on the browser's clock, like the chart (New York here).
    const acknowledged = episodes[2] as HTMLElement;
    expect(within(acknowledged).getByTestId('probe-alert-span').textContent).toBe(
      'From 24/11/2026 03:00 to 24/11/2026 04:30',
    );
    expect(within(acknowledged).getByTestId('probe-alert-trail').textContent).toBe(
      'Acknowledged by Camille Martin on 24/11/2026 04:40Corrective action: Product moved. Seal to replace',
    );
    expect(within(episodes[0] as HTMLElement).getByTestId('probe-alert-acknowledge')).toBeTruthy();
    expect((episodes[1] as HTMLElement).textContent).toContain('Ongoing');

    // Out of range and offline spans are shaded (in seconds); a low battery is not.
    const charts = await screen.findByTestId('probe-charts');
    expect(JSON.parse(charts.dataset.shades ?? '[]')).toEqual([
      {
        kind: 'offline',
        start: Date.parse(offline.startedAt) / 1000,
        end: Date.parse('2026-11-24T11:00:00.000Z') / 1000,
      },
      {
        kind: 'out_of_range',
        start: Date.parse(outOfRange.startedAt) / 1000,
        end: Date.parse('2026-11-24T09:30:00.000Z') / 1000,
      },
    ]);
  });

  it('says when the period had no alert episode', async () => {
    renderProbe();
    expect((await screen.findByTestId('probe-alerts-empty', {}, pageLoad)).textContent).toContain(
      'No alert episode in this period.',
    );
  });
});
