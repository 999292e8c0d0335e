import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildStore, buildUser } from '../../../test/factories';
import { apiError, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import { buildProbe } from '../test/build-probe';

const pageLoad = { timeout: 10_000 };
const now = new Date('2026-11-24T12:00:00.000Z');
const hoursBefore = (hours: number, extraMs = 0) =>
  new Date(now.getTime() - hours * 3_600_000 + extraMs).toISOString();

const store = buildStore({ name: 'Bistro Opéra' });
// Under 2 hours by one second: working. Exactly 2 hours: no longer working (spec 000 §4).
const fresh = buildProbe({
  name: 'Chambre froide',
  storeId: store.id,
  lastTemperatureTimestamp: hoursBefore(2, 1000),
});
const stale = buildProbe({
  name: 'Congélateur',
  storeId: store.id,
  lastTemperature: -18,
  lastTemperatureTimestamp: hoursBefore(2),
  working: false,
});
const silent = buildProbe({
  name: 'Vitrine',
  lastTemperature: null,
  lastTemperatureTimestamp: null,
  batteryLevel: null,
  working: false,
});

function renderProbes(extra: Record<string, MockHandler> = {}) {
  // Only the clock is frozen: the rule is judged at `now`, timers run as usual.
  vi.useFakeTimers({ toFake: ['Date'], now });
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
    'GET /api/probes': { body: { items: [fresh, stale, silent] } },
    'GET /api/stores': { body: { items: [store], total: 1 } },
    ...extra,
  });
  return { ...renderApp('/probes'), api };
}

const cardNames = () =>
  screen.getAllByTestId('probe-card-name').map((element) => element.textContent);

describe('probes list', { timeout: 20_000 }, () => {
  it('filters the tabs by the working rule, not working from exactly 2 hours', async () => {
    const { user } = renderProbes();
    await screen.findAllByTestId('probe-card', {}, pageLoad);
    expect(cardNames()).toEqual(['Chambre froide', 'Congélateur', 'Vitrine']);

    await user.click(screen.getByTestId('probes-tab-working'));
    expect(cardNames()).toEqual(['Chambre froide']);

    await user.click(screen.getByTestId('probes-tab-notWorking'));
    expect(cardNames()).toEqual(['Congélateur', 'Vitrine']);

    await user.click(screen.getByTestId('probes-tab-all'));
    expect(cardNames()).toHaveLength(3);
  });

  it('shows the store, the last temperature or no data, and searches by store name', async () => {
    const { user } = renderProbes();
    const cards = await screen.findAllByTestId('probe-card', {}, pageLoad);
    await waitFor(() =>
      expect(within(cards[0]!).getByTestId('probe-card-store').textContent).toBe('Bistro Opéra'),
    );
    expect(within(cards[1]!).getByTestId('probe-last-temperature').textContent).toContain('-18 °C');
    expect(within(cards[1]!).getByTestId('probe-working').textContent).toBe('Not working');
    expect(within(cards[2]!).getByTestId('probe-last-temperature').textContent).toBe('No data');
    expect(within(cards[2]!).getByTestId('probe-card-store').textContent).toBe('No store');

    await user.type(screen.getByTestId('probes-search'), 'bistro opera');
    expect(cardNames()).toEqual(['Chambre froide', 'Congélateur']);
  });
});

describe('new probe dialog', { timeout: 20_000 }, () => {
  it('registers the probe and shows its secret once', async () => {
    const created = buildProbe({ probeUID: 'KV-7781', name: 'Chambre froide 2' });
    const { user, api } = renderProbes({
      'POST /api/probes': { body: { probe: created, secret: 'sk_probe_1234567890' } },
    });
    await user.click(await screen.findByTestId('new-probe', {}, pageLoad));
    let dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByTestId('new-probe-uid'), 'KV-7781');
    await user.type(within(dialog).getByTestId('new-probe-name'), 'Chambre froide 2');
    await user.click(within(dialog).getByTestId('new-probe-submit'));

    await waitFor(() => expect(api.callsTo('POST', '/api/probes')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/probes')[0]?.body).toEqual({
      probeUID: 'KV-7781',
      name: 'Chambre froide 2',
      storeId: null,
    });
    const secret = await screen.findByTestId('probe-secret');
    expect(secret.textContent).toBe('sk_probe_1234567890');
    expect(screen.getByTestId('probe-secret-warning').textContent).toContain(
      'it will not be shown again',
    );
    await user.click(screen.getByTestId('probe-secret-copy'));
    expect(await navigator.clipboard.readText()).toBe('sk_probe_1234567890');

    await user.click(screen.getByTestId('probe-secret-close'));
    await waitFor(() => expect(screen.queryByTestId('probe-secret')).toBeNull());
    // Opened again: an empty form, the secret is gone for good.
    await user.click(screen.getByTestId('new-probe'));
    dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByTestId('probe-secret')).toBeNull();
    expect(within(dialog).getByTestId('new-probe-uid')).toHaveProperty('value', '');
    expect(screen.queryByText('sk_probe_1234567890')).toBeNull();
  });

  it('refuses a UID with other characters and shows a known UID in words', async () => {
    const { user, api } = renderProbes({
      'POST /api/probes': apiError(409, 'probe/already-exists'),
    });
    await user.click(await screen.findByTestId('new-probe', {}, pageLoad));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByTestId('new-probe-uid'), 'KV 77/81');
    await user.type(within(dialog).getByTestId('new-probe-name'), 'Vitrine');
    await user.click(within(dialog).getByTestId('new-probe-submit'));
    expect(within(dialog).getByTestId('new-probe-error').textContent).toBe(
      'The probe UID may hold letters, digits and . _ : - only.',
    );
    expect(api.callsTo('POST', '/api/probes')).toHaveLength(0);

    await user.clear(within(dialog).getByTestId('new-probe-uid'));
    await user.type(within(dialog).getByTestId('new-probe-uid'), 'KV-7781');
    await user.click(within(dialog).getByTestId('new-probe-submit'));
    await waitFor(() =>
      expect(within(dialog).getByTestId('new-probe-error').textContent).toBe(
        'A probe with this UID already exists.',
      ),
    );
    expect(screen.queryByTestId('probe-secret')).toBeNull();
  });
});
