import type { AlertEpisode } from '@mise/shared/probes/alerts';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { selectionStorageKey } from '../../../shared/selection/use-selection';
import { buildId, buildUser } from '../../../test/factories';
import { type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import { buildAlert } from '../test/build-alert';
import { expectNoAxeViolations } from '../test/expect-no-axe-violations';

/** The home page is a lazy route: its first render waits for its modules. */
const pageLoad = { timeout: 10_000 };
const storeId = buildId();

const homeOfStore = {
  store: { id: storeId, name: 'Bistro Opéra', timezone_name: 'Europe/Paris' },
  today: '2026-11-22',
  score: {
    value: null,
    counts: { onTime: 0, onTimeWithAnomaly: 0, late: 0, lateWithAnomaly: 0, missed: 0 },
    window_start: '2026-10-24',
    window_end: '2026-11-22',
  },
  tasks: null,
  equipment: null,
  hidden_modules: [],
};

const ongoing = buildAlert({ storeId });
const resolvedOffline = buildAlert({
  storeId,
  kind: 'offline',
  elementName: null,
  probeName: 'Sonde cave',
  startedAt: '2026-11-22T06:00:00.000Z',
  resolvedAt: '2026-11-22T09:30:00.000Z',
  worstValue: null,
  lastValue: 12,
  escalationLevel: 2,
});
const acknowledgedBattery = buildAlert({
  storeId,
  kind: 'low_battery',
  elementName: 'Congélateur',
  worstValue: null,
  lastValue: 14,
  escalationLevel: 0,
  acknowledgedAt: '2026-11-22T08:10:00.000Z',
  acknowledgedByName: 'Léa Petit',
  correctiveAction: 'Pile commandée',
});

function selectStore() {
  window.localStorage.setItem(
    selectionStorageKey,
    JSON.stringify({ kind: 'store', id: storeId, name: 'Bistro Opéra' }),
  );
}

function renderHome(alerts: AlertEpisode[] | MockHandler, extra: Record<string, MockHandler> = {}) {
  selectStore();
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: 'customer' }) } },
    [`GET /api/stores/${storeId}/home`]: { body: homeOfStore },
    'GET /api/alerts': Array.isArray(alerts) ? { body: { items: alerts } } : alerts,
    ...extra,
  });
  return { ...renderApp('/home'), api };
}

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
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)?.add(listener);
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

describe('home alerts panel', { timeout: 20_000 }, () => {
  it("lists the store's open episodes with their figures, escalation and state", async () => {
    const { api } = renderHome([ongoing, resolvedOffline, acknowledgedBattery]);
    const panel = await screen.findByTestId('home-alerts', {}, pageLoad);
    const rows = await within(panel).findAllByTestId('home-alert');
    expect(rows).toHaveLength(3);
    const query = api.callsTo('GET', '/api/alerts')[0]?.query;
    expect(query?.get('storeId')).toBe(storeId);
    expect(query?.get('state')).toBe('open');
    expect(within(panel).getByTestId('home-alerts-count').textContent).toBe('3');

    const [first, second, third] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(first).getByTestId('alert-kind').textContent).toBe('Out of range');
    expect(within(first).getByTestId('home-alert-name').textContent).toBe('Chambre froide');
    expect(first.textContent).toContain('Sonde chambre froide');
    // 07:45 UTC on the store's clock (Paris), not the browser's (New York).
    expect(within(first).getByTestId('home-alert-since').textContent).toBe(
      'Since 22/11/2026 08:45',
    );
    expect(within(first).getByTestId('home-alert-figures').textContent).toBe(
      'Worst 9.4 °C · Last 7.1 °C · allowed 0 to 4 °C',
    );
    expect(within(first).getByTestId('home-alert-ongoing').textContent).toBe('Ongoing');
    expect(within(first).getByTestId('home-alert-escalation').textContent?.trim()).toBe(
      'Level 1: database managers notified',
    );
    expect(within(first).getByTestId('home-alert-acknowledge')).toBeTruthy();

    expect(within(second).getByTestId('alert-kind').textContent).toBe('Offline');
    expect(within(second).getByTestId('home-alert-name').textContent).toBe('Sonde cave');
    expect(within(second).getByTestId('home-alert-resolved').textContent).toBe(
      'Resolved on 22/11/2026 10:30',
    );
    expect(second.textContent).toContain('Back to normal: still to be acknowledged.');
    expect(within(second).getByTestId('home-alert-escalation').textContent?.trim()).toBe(
      'Level 2: distributor notified',
    );
    expect(within(second).getByTestId('home-alert-acknowledge')).toBeTruthy();

    expect(within(third).getByTestId('home-alert-figures').textContent).toBe('Battery 14 %');
    expect(within(third).getByTestId('home-alert-acknowledged').textContent).toBe(
      'Acknowledged by Léa Petit on 22/11/2026 09:10',
    );
    expect(within(third).queryByTestId('home-alert-acknowledge')).toBeNull();

    await expectNoAxeViolations(panel);
  });

  it('says when nothing is open', async () => {
    renderHome([]);
    const panel = await screen.findByTestId('home-alerts', {}, pageLoad);
    expect((await within(panel).findByTestId('home-alerts-empty')).textContent).toContain(
      'No open alert.',
    );
  });

  it('acknowledges an episode from the panel and reads the list again', async () => {
    let answered: AlertEpisode[] = [ongoing];
    const { user, api } = renderHome(() => ({ body: { items: answered } }), {
      [`POST /api/alerts/${ongoing.id}/acknowledge`]: ({ body }) => {
        answered = [];
        return {
          body: {
            alert: {
              ...ongoing,
              acknowledgedAt: '2026-11-22T09:00:00.000Z',
              acknowledgedByName: 'Camille Martin',
              correctiveAction: (body as { correctiveAction: string }).correctiveAction,
            },
          },
        };
      },
    });
    await user.click(await screen.findByTestId('home-alert-acknowledge', {}, pageLoad));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Chambre froide');
    await user.click(within(dialog).getByText('Product discarded'));
    await user.click(within(dialog).getByTestId('alert-acknowledge-submit'));

    await waitFor(() =>
      expect(api.callsTo('POST', `/api/alerts/${ongoing.id}/acknowledge`)[0]?.body).toEqual({
        correctiveAction: 'Product discarded',
      }),
    );
    expect(await screen.findByTestId('home-alerts-empty')).toBeTruthy();
    expect(api.callsTo('GET', '/api/alerts')).toHaveLength(2);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("reads the alerts and the store's home again on the store's alert event", async () => {
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
    let answered: AlertEpisode[] = [];
    const { api } = renderHome(() => ({ body: { items: answered } }));
    expect(await screen.findByTestId('home-alerts-empty', {}, pageLoad)).toBeTruthy();
    const source = FakeEventSource.instances.at(-1);
    expect(source?.url).toBe(`/api/stores/${storeId}/events`);

    answered = [ongoing];
    act(() => {
      source?.emit('alert', { store_id: storeId, alert_id: ongoing.id, kind: 'opened' });
    });
    expect(await screen.findByTestId('home-alert')).toBeTruthy();
    expect(api.callsTo('GET', '/api/alerts')).toHaveLength(2);
    await waitFor(() => expect(api.callsTo('GET', `/api/stores/${storeId}/home`)).toHaveLength(2));
  });

  it('opens the store of a notification link and makes it the selection', async () => {
    const api = mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'customer' }) } },
      [`GET /api/stores/${storeId}/home`]: { body: homeOfStore },
      'GET /api/alerts': { body: { items: [ongoing] } },
    });
    const { router } = renderApp(`/home?storeId=${storeId}`);
    expect(await screen.findByTestId('home-alert', {}, pageLoad)).toBeTruthy();
    expect(api.callsTo('GET', '/api/alerts')[0]?.query.get('storeId')).toBe(storeId);
    await waitFor(() =>
      expect(JSON.parse(window.localStorage.getItem(selectionStorageKey) ?? 'null')).toEqual({
        kind: 'store',
        id: storeId,
        name: 'Bistro Opéra',
      }),
    );
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it("shows a distributor the open alerts of their stores, with each store's name", async () => {
    const api = mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'distributor' }) } },
      'GET /api/alerts': { body: { items: [ongoing] } },
    });
    renderApp('/home');
    const row = await screen.findByTestId('home-alert', {}, pageLoad);
    expect(within(row).getByTestId('home-alert-store').textContent).toBe('Bistro Opéra');
    expect(api.callsTo('GET', '/api/alerts')[0]?.query.has('storeId')).toBe(false);
  });
});
