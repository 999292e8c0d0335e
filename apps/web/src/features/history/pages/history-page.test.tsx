import type { HistoryProbes, HistoryStore, HistoryTask } from '@mise/shared/history/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { describe, expect, it, vi } from 'vitest';
import { addCalendarDays, todayInStoreZone } from '../../../shared/format/store-clock';
import { i18n } from '../../../shared/i18n/i18n';
import { selectionStorageKey } from '../../../shared/selection/use-selection';
import { captureEntryParameters } from '../../../shared/session/app-session';
import { buildUser } from '../../../test/factories';
import { type ApiCall, apiError, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import {
  buildAlertEpisode,
  buildElement,
  buildHistoryProbes,
  buildHistoryResponse,
  buildHistoryStore,
  buildHistoryTask,
  buildProbeElement,
} from '../test/build-history';

/** The first render loads the page's chunk. */
const firstRender = { timeout: 10_000 };

type Setup = {
  stores?: HistoryStore[];
  /** Tasks answered by module. */
  tasks?: (call: ApiCall) => HistoryTask[];
  /** The probe records of the period (none by default). */
  probes?: Partial<Pick<HistoryProbes, 'alerts' | 'elements'>>;
  extra?: Record<string, MockHandler>;
};

function renderHistory(path: string, store: HistoryStore, setup: Setup = {}) {
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
    'GET /api/history/stores': { body: { items: setup.stores ?? [store] } },
    [`GET /api/stores/${store.id}/history`]: (call) => ({
      body: buildHistoryResponse(store, call.query, setup.tasks?.(call) ?? []),
    }),
    [`GET /api/stores/${store.id}/history/probes`]: (call) => ({
      body: buildHistoryProbes(store, call.query, setup.probes),
    }),
    ...setup.extra,
  });
  const historyCalls = () => api.callsTo('GET', `/api/stores/${store.id}/history`);
  return { ...renderApp(path), api, historyCalls };
}

function selectStore(store: HistoryStore) {
  window.localStorage.setItem(
    selectionStorageKey,
    JSON.stringify({ kind: 'store', id: store.id, name: store.name }),
  );
}

const rows = () => screen.queryAllByTestId('history-row');

async function openRow(user: ReturnType<typeof renderApp>['user'], row: HTMLElement) {
  await user.click(within(row).getByTestId('history-row-toggle'));
}

/** Replaces XMLHttpRequest for the exports: each request answers `respond()`. */
function stubDownloads(
  respond: (call: { url: string; body: unknown; headers: Record<string, string> }) => {
    status: number;
    contentType: string;
    body: string;
  },
) {
  const requests: { url: string; body: unknown; headers: Record<string, string> }[] = [];
  class FakeXhr {
    status = 0;
    response: unknown = null;
    responseType = '';
    withCredentials = false;
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    onprogress:
      | ((event: { loaded: number; total: number; lengthComputable: boolean }) => void)
      | null = null;
    private url = '';
    private headers: Record<string, string> = {};
    private contentType = '';
    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name.toLowerCase()] = value;
    }
    getResponseHeader(name: string) {
      return name.toLowerCase() === 'content-type' ? this.contentType : null;
    }
    abort() {
      this.onabort?.();
    }
    send(body: string | null) {
      const call = { url: this.url, body: body ? JSON.parse(body) : null, headers: this.headers };
      requests.push(call);
      const answer = respond(call);
      this.status = answer.status;
      this.contentType = answer.contentType;
      this.response = new Blob([answer.body], { type: answer.contentType });
      setTimeout(() => {
        this.onprogress?.({
          loaded: answer.body.length,
          total: answer.body.length,
          lengthComputable: true,
        });
        this.onload?.();
      }, 0);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return requests;
}

describe('history page', { timeout: 30_000 }, () => {
  it('loads the stores once and one history request for the selected store, tab, range and filter', async () => {
    const store = buildHistoryStore();
    selectStore(store);
    const { api, historyCalls } = renderHistory('/history', store, {
      tasks: () => [
        buildHistoryTask({ name: 'Relevé du matin', start: '2026-11-22T07:30:00Z' }),
        buildHistoryTask({
          name: 'Relevé du soir',
          employee: { name: 'Hugo', surname: 'Bernard' },
        }),
      ],
    });

    await waitFor(() => expect(rows()).toHaveLength(2), firstRender);
    expect(api.callsTo('GET', '/api/history/stores')).toHaveLength(1);
    expect(historyCalls()).toHaveLength(1);
    const today = todayInStoreZone('Europe/Paris');
    const query = historyCalls()[0]?.query;
    expect(query?.get('module')).toBe('temperatures');
    expect(query?.get('filter')).toBe('completed');
    expect(query?.get('end')).toBe(today);
    expect(query?.get('start')).toBe(addCalendarDays(today, -6));

    const [morning, evening] = rows();
    if (!morning || !evening) throw new Error('two rows expected');
    // The store's clock (Paris), not the browser's (New York).
    // The scheduled window, and apart the time the task was actually completed.
    expect(within(morning).getByTestId('history-row-date').textContent).toBe(
      '22/11/2026 08:30 – 09:30',
    );
    expect(within(morning).getByTestId('history-row-completed').textContent).toBe(
      'Completed at 09:20',
    );
    expect(within(morning).getByTestId('history-row-employee').textContent).toBe('Léa Petit');
    expect(within(morning).getByTestId('history-row-status').textContent).toBe('Done');
    expect(within(evening).getByTestId('history-row-employee').textContent).toBe('Hugo Bernard');
    expect(within(morning).getByTestId('history-row-open').getAttribute('href')).toBe(
      `/task?id=${morning.getAttribute('data-task-id')}`,
    );
    expect((screen.getByTestId('history-store-select') as HTMLInputElement).value).toBe(store.name);
    // The tabs in the spec's order, the active one first.
    expect(screen.getAllByRole('tab').map((tab) => tab.getAttribute('data-testid'))).toEqual([
      'history-tab-temperatures',
      'history-tab-traceability',
      'history-tab-oils',
      'history-tab-actions',
      'history-tab-temperature_control',
      'history-tab-probes',
    ]);
  });

  it('says so when no store is in history', async () => {
    const store = buildHistoryStore();
    const { historyCalls } = renderHistory('/history', store, { stores: [] });
    expect((await screen.findByTestId('history-no-stores', {}, firstRender)).textContent).toContain(
      'No store in history.',
    );
    expect(historyCalls()).toHaveLength(0);
  });

  it('hides the tab of a module hidden for the store and keeps the tab in the address', async () => {
    const store = buildHistoryStore({ hidden_modules: ['oils', 'labels'] });
    const { user, router, historyCalls } = renderHistory(`/history?store=${store.id}`, store);

    await screen.findByTestId('history-tab-temperatures', {}, firstRender);
    expect(screen.queryByTestId('history-tab-oils')).toBeNull();
    expect(screen.getByTestId('history-tab-traceability')).toBeTruthy();

    await user.click(screen.getByTestId('history-tab-actions'));
    await waitFor(() => expect(historyCalls()).toHaveLength(2));
    expect(historyCalls()[1]?.query.get('module')).toBe('actions');
    expect(new URLSearchParams(router.state.location.search).get('tab')).toBe('actions');
  });

  it("shows a reading not taken as 'Non prise' and an out-of-range reading in red", async () => {
    await i18n.changeLanguage('fr');
    const store = buildHistoryStore();
    const fridge = buildElement({
      name: 'Frigo 1',
      minimum_temperature: 0,
      maximum_temperature: 4,
    });
    const freezer = buildElement({
      name: 'Congélateur',
      minimum_temperature: -25,
      maximum_temperature: -18,
    });
    const dessert = buildElement({
      name: 'Vitrine desserts',
      minimum_temperature: 0,
      maximum_temperature: 4,
    });
    const { user } = renderHistory(`/history?store=${store.id}`, store, {
      tasks: () => [
        buildHistoryTask({
          elements: [fridge, freezer, dessert],
          is_anomaly: true,
          anomalies: ['temperature-out-of-range', 'temperature-not-taken'],
          result: {
            entries: [
              {
                element: fridge.id,
                temperature: 3.5,
                first_temperature: 3.5,
                control_temperature: null,
                comment: '',
                pictures: [],
                timestamp: 1_795_000_000,
              },
              {
                element: freezer.id,
                temperature: null,
                first_temperature: null,
                control_temperature: null,
                comment: 'Porte bloquée',
                pictures: [],
                timestamp: 1_795_000_000,
              },
              {
                element: dessert.id,
                temperature: 7.2,
                first_temperature: 6,
                control_temperature: null,
                comment: '',
                pictures: [],
                timestamp: 1_795_000_000,
              },
            ],
          },
        }),
      ],
    });

    await waitFor(() => expect(rows()).toHaveLength(1), firstRender);
    const [row] = rows();
    if (!row) throw new Error('row expected');
    expect(within(row).getByTestId('history-row-anomaly')).toBeTruthy();
    await openRow(user, row);

    const table = await within(row).findByTestId('result-temperatures');
    const readings = within(table).getAllByTestId('result-temperature');
    expect(
      within(table)
        .getAllByTestId('result-element')
        .map((cell) => cell.textContent),
    ).toEqual(['Frigo 1', 'Congélateur', 'Vitrine desserts']);
    // Decimal comma in French, like the PDF (the interface language decides).
    expect(readings.map((cell) => cell.textContent)).toEqual(['3,5 °C', 'Non prise', '7,2 °C']);
    // Each reading's own time (1_795_000_000 s is 18/11/2026 12:06 in Paris).
    expect(
      within(table)
        .getAllByTestId('result-reading-time')
        .map((cell) => cell.textContent),
    ).toEqual(['12:06', '12:06', '12:06']);
    expect(readings.map((cell) => cell.getAttribute('data-out-of-range'))).toEqual([
      'false',
      'false',
      'true',
    ]);
    expect(readings[2]?.getAttribute('style') ?? '').toContain('--mantine-color-red');
    expect(readings[0]?.getAttribute('style') ?? '').not.toContain('red');
    expect(within(table).getByText('Porte bloquée')).toBeTruthy();
  });

  it("flags a failed temperature control 'Hors plage' with its target, duration at least 60 s", async () => {
    await i18n.changeLanguage('fr');
    const store = buildHistoryStore();
    const soup = buildElement({ name: 'Soupe' });
    const rice = buildElement({ name: 'Riz' });
    const { user } = renderHistory(`/history?store=${store.id}&tab=temperature_control`, store, {
      tasks: () => [
        buildHistoryTask({
          module: 'temperature_control',
          name: 'Refroidissement',
          elements: [soup, rice],
          is_anomaly: true,
          anomalies: ['temperature-control-failed'],
          result: {
            entries: [
              {
                element: soup.id,
                mode: 'cooling',
                target_temperature: 10,
                start_temperature: 63,
                start_timestamp: 1_795_000_000,
                end_temperature: 12,
                end_timestamp: 1_795_000_030,
                comment: '',
                start_employee: {
                  id: '00000000-0000-4000-8000-0000000000a1',
                  name: 'Léa',
                  surname: 'Petit',
                },
                end_employee: {
                  id: '00000000-0000-4000-8000-0000000000a2',
                  name: 'Hugo',
                  surname: 'Bernard',
                },
              },
              {
                element: rice.id,
                mode: 'reheating',
                target_temperature: 63,
                start_temperature: 3,
                start_timestamp: 1_795_000_000,
                end_temperature: 70,
                end_timestamp: 1_795_003_900,
                comment: 'OK',
              },
            ],
          },
        }),
      ],
    });

    await waitFor(() => expect(rows()).toHaveLength(1), firstRender);
    const [row] = rows();
    if (!row) throw new Error('row expected');
    await openRow(user, row);
    const table = await within(row).findByTestId('result-temperature-control');
    const [soupRow, riceRow] = within(table).getAllByTestId('result-row');
    if (!soupRow || !riceRow) throw new Error('two lines expected');
    expect(soupRow.getAttribute('data-valid')).toBe('false');
    const badge = within(soupRow).getByTestId('result-out-of-range');
    expect(badge.textContent).toBe('Hors plage');
    // The badge keeps every letter ("HORS P…" before): no ellipsis, no fixed width.
    const label = badge.querySelector('.mantine-Badge-label') as HTMLElement;
    expect(label.style.textOverflow).toBe('clip');
    expect(label.style.whiteSpace).toBe('normal');
    expect(label.style.overflow).toBe('visible');
    expect(badge.style.height).toBe('auto');
    expect(badge.style.maxWidth).toBe('none');
    // Who started and ended the control, when the result says.
    expect(
      within(soupRow)
        .getAllByTestId('result-step-employee')
        .map((cell) => cell.textContent),
    ).toEqual(['Léa Petit', 'Hugo Bernard']);
    expect(within(soupRow).getByTestId('result-target').textContent).toBe('10 °C');
    expect(within(soupRow).getByTestId('result-target').getAttribute('style') ?? '').toContain(
      '--mantine-color-red',
    );
    expect(within(soupRow).getByText('Refroidissement')).toBeTruthy();
    // 30 s measured, 60 s displayed (spec 002 §9).
    expect(within(soupRow).getByTestId('result-duration').textContent).toBe('1 min');
    expect(riceRow.getAttribute('data-valid')).toBe('true');
    expect(within(riceRow).queryByTestId('result-out-of-range')).toBeNull();
    expect(within(riceRow).getByTestId('result-duration').textContent).toBe('1 h 05 min');
  });

  it('shows where a postponed task went instead of its result', async () => {
    const store = buildHistoryStore();
    const { user } = renderHistory(`/history?store=${store.id}&filter=all`, store, {
      tasks: () => [
        buildHistoryTask({
          status: 'postponed',
          completed_timestamp: null,
          employee: { name: 'Hugo', surname: 'Bernard' },
          postponed_to: { start: '2026-11-22T13:00:00Z', end: '2026-11-22T14:30:00Z' },
        }),
      ],
    });

    await waitFor(() => expect(rows()).toHaveLength(1), firstRender);
    const [row] = rows();
    if (!row) throw new Error('row expected');
    expect(within(row).getByTestId('history-row-status').textContent).toBe('Postponed');
    await openRow(user, row);
    expect((await within(row).findByTestId('history-postponed-date')).textContent).toBe(
      '22/11/2026',
    );
    expect(within(row).getByTestId('history-postponed-period').textContent).toBe('14:00–15:30');
    expect(within(row).getByTestId('history-postponed-employee').textContent).toBe('Hugo Bernard');
    expect(within(row).queryByTestId('result-temperatures')).toBeNull();
  });

  it('asks again with filter=anomaly when the filter changes', async () => {
    const store = buildHistoryStore();
    const { user, router, historyCalls } = renderHistory(`/history?store=${store.id}`, store, {
      tasks: (call) =>
        call.query.get('filter') === 'anomaly'
          ? [
              buildHistoryTask({
                name: 'En retard',
                status: 'done-late',
                is_anomaly: true,
                anomalies: ['late'],
              }),
            ]
          : [
              buildHistoryTask({ name: 'À l’heure' }),
              buildHistoryTask({ name: 'En retard', status: 'done-late' }),
            ],
    });

    await waitFor(() => expect(rows()).toHaveLength(2), firstRender);
    await user.click(within(screen.getByTestId('history-filter')).getByText('Anomaly'));

    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(historyCalls().map((call) => call.query.get('filter'))).toEqual([
      'completed',
      'anomaly',
    ]);
    expect(new URLSearchParams(router.state.location.search).get('filter')).toBe('anomaly');
    expect(screen.getByTestId('history-row-name').textContent).toBe('En retard');
  });

  it('asks the server to search inside the tab, and expands or collapses every row', async () => {
    const store = buildHistoryStore();
    const morning = buildHistoryTask({ name: 'Relevé du matin', result: { entries: [] } });
    const evening = buildHistoryTask({
      name: 'Relevé du soir',
      employee: { name: 'Hugo', surname: 'Bernard' },
      result: { entries: [] },
    });
    const { user, historyCalls } = renderHistory(`/history?store=${store.id}`, store, {
      // The server's search: here, the employee's first name.
      tasks: (call) => {
        const search = (call.query.get('search') ?? '').toLowerCase();
        return [morning, evening].filter(
          (task) =>
            !search || `${task.name} ${task.employee?.name ?? ''}`.toLowerCase().includes(search),
        );
      },
    });
    await waitFor(() => expect(rows()).toHaveLength(2), firstRender);

    await user.type(screen.getByTestId('history-search'), 'hugo');
    await waitFor(() =>
      expect(screen.getAllByTestId('history-row-name').map((cell) => cell.textContent)).toEqual([
        'Relevé du soir',
      ]),
    );
    expect(historyCalls().at(-1)!.query.get('search')).toBe('hugo');
    await user.clear(screen.getByTestId('history-search'));
    await user.type(screen.getByTestId('history-search'), 'nothing like it');
    await waitFor(() =>
      expect(screen.getByTestId('history-empty').textContent).toContain('No results.'),
    );
    await user.clear(screen.getByTestId('history-search'));
    await waitFor(() => expect(rows()).toHaveLength(2));

    expect(screen.queryAllByTestId('result-temperatures')).toHaveLength(0);
    await user.click(screen.getByTestId('history-expand-all'));
    expect(screen.getAllByTestId('result-temperatures')).toHaveLength(2);
    expect(screen.getByTestId('history-expand-all').textContent).toBe('Collapse all');
    await user.click(screen.getByTestId('history-expand-all'));
    expect(screen.queryAllByTestId('result-temperatures')).toHaveLength(0);
  });

  it('shows the next page with "Show more", asking with the cursor', async () => {
    const store = buildHistoryStore();
    const first = buildHistoryTask({ name: 'Page 1', result: { entries: [] } });
    const second = buildHistoryTask({ name: 'Page 2', result: { entries: [] } });
    const { user, historyCalls } = renderHistory(`/history?store=${store.id}`, store, {
      extra: {
        [`GET /api/stores/${store.id}/history`]: (call) => ({
          body: {
            ...buildHistoryResponse(store, call.query, [
              call.query.get('cursor') === 'cursor-1' ? second : first,
            ]),
            next_cursor: call.query.get('cursor') ? null : 'cursor-1',
          },
        }),
      },
    });
    await waitFor(() => expect(rows()).toHaveLength(1), firstRender);
    await user.click(screen.getByTestId('history-more'));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(screen.getAllByTestId('history-row-name').map((cell) => cell.textContent)).toEqual([
      'Page 1',
      'Page 2',
    ]);
    expect(historyCalls().at(-1)!.query.get('cursor')).toBe('cursor-1');
    expect(screen.queryByTestId('history-more')).toBeNull();
  });

  it('refuses a range over 31 days with the date-range-too-long toast, without asking the API', async () => {
    const store = buildHistoryStore();
    const { historyCalls } = renderHistory(
      `/history?store=${store.id}&start=2026-10-01&end=2026-11-22`,
      store,
    );

    expect(
      (await screen.findByTestId('history-range-error', {}, firstRender)).textContent,
    ).toContain('The date range is too long.');
    expect((await screen.findByTestId('notice-error')).textContent).toContain(
      'The date range is too long.',
    );
    expect(historyCalls()).toHaveLength(0);
  });

  it('keeps a picked range in the address and refuses a picked range over 31 days', async () => {
    const store = buildHistoryStore();
    const { user, router, historyCalls } = renderHistory(
      `/history?store=${store.id}&start=2026-11-16&end=2026-11-22`,
      store,
    );
    await screen.findByTestId('history-empty', {}, firstRender);
    expect(historyCalls()).toHaveLength(1);
    const direction = (name: 'previous' | 'next') => {
      const control = document.querySelector(`[data-direction="${name}"]`);
      if (!control) throw new Error(`no ${name} control`);
      return control;
    };

    await user.click(screen.getByTestId('history-range'));
    await user.click(await screen.findByRole('button', { name: '2 November 2026' }));
    await user.click(screen.getByRole('button', { name: '20 November 2026' }));
    await waitFor(() => expect(historyCalls()).toHaveLength(2));
    expect(historyCalls()[1]?.query.get('start')).toBe('2026-11-02');
    expect(historyCalls()[1]?.query.get('end')).toBe('2026-11-20');
    const search = () => new URLSearchParams(router.state.location.search);
    expect([search().get('start'), search().get('end')]).toEqual(['2026-11-02', '2026-11-20']);

    if (!screen.queryByRole('button', { name: '1 November 2026' })) {
      await user.click(screen.getByTestId('history-range'));
    }
    await user.click(direction('previous'));
    await user.click(await screen.findByRole('button', { name: '1 October 2026' }));
    await user.click(direction('next'));
    await user.click(await screen.findByRole('button', { name: '20 November 2026' }));

    expect((await screen.findByTestId('notice-error')).textContent).toContain(
      'The date range is too long.',
    );
    expect(historyCalls()).toHaveLength(2);
    expect([search().get('start'), search().get('end')]).toEqual(['2026-11-02', '2026-11-20']);
  });

  it('shows the toast when the server refuses the range', async () => {
    const store = buildHistoryStore();
    renderHistory(`/history?store=${store.id}&start=2026-11-01&end=2026-11-22`, store, {
      extra: {
        [`GET /api/stores/${store.id}/history`]: apiError(400, 'date-range-too-long'),
      },
    });
    expect((await screen.findByTestId('notice-error', {}, firstRender)).textContent).toContain(
      'The date range is too long.',
    );
  });

  it('opens a picture in a modal', async () => {
    const store = buildHistoryStore();
    const shelf = buildElement({ name: 'Étiquette saumon' });
    const path = `stores/${store.id}/tasks/label 1.jpg`;
    const { user } = renderHistory(`/history?store=${store.id}&tab=traceability`, store, {
      tasks: () => [
        buildHistoryTask({
          module: 'traceability',
          name: 'Traçabilité',
          elements: [shelf],
          result: {
            entries: [{ element: shelf.id, pictures: [{ path, timestamp: 1_795_000_000 }] }],
          },
        }),
      ],
    });

    await waitFor(() => expect(rows()).toHaveLength(1), firstRender);
    const [row] = rows();
    if (!row) throw new Error('row expected');
    await openRow(user, row);
    expect(screen.queryByTestId('picture-modal-image')).toBeNull();
    await user.click(await within(row).findByTestId('history-picture'));

    const image = await screen.findByTestId('picture-modal-image');
    expect(image.getAttribute('src')).toBe(`/api/files/stores/${store.id}/tasks/label%201.jpg`);
    expect(screen.getByTestId('picture-modal')).toBeTruthy();
  });

  it('downloads the PDF with the range and filter, and says so when the download fails', async () => {
    const store = buildHistoryStore({ name: 'Bistro Opéra' });
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:history');
    vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicks.push(this.download);
    });
    let answer = { status: 200, contentType: 'application/pdf', body: '%PDF-1.7' };
    const requests = stubDownloads(() => answer);
    const { user } = renderHistory(
      `/history?store=${store.id}&start=2026-11-16&end=2026-11-22&filter=anomaly`,
      store,
    );
    await screen.findByTestId('history-empty', {}, firstRender);

    await user.click(screen.getByTestId('history-pdf'));
    await waitFor(() => expect(clicks).toEqual(['history-bistro-opera-2026-11-16-2026-11-22.pdf']));
    expect(requests[0]?.url).toBe('/api/pdf/tasks');
    expect(requests[0]?.body).toEqual({
      storeId: store.id,
      start: '2026-11-16',
      end: '2026-11-22',
      filter: 'anomaly',
      lang: 'en',
    });
    expect(requests[0]?.headers['x-csrf-token']).toBe('csrf-1');

    answer = {
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'internal', message: 'boom' } }),
    };
    await user.click(screen.getByTestId('history-pdf'));
    expect((await screen.findByTestId('notice-error')).textContent).toContain(
      'Failed to download the PDF. Please try again later.',
    );
    expect(clicks).toHaveLength(1);
  });

  it('refuses a file of another type and sends the CSV request', async () => {
    const store = buildHistoryStore();
    const requests = stubDownloads(() => ({
      status: 200,
      contentType: 'text/html',
      body: '<html>',
    }));
    const { user } = renderHistory(
      `/history?store=${store.id}&start=2026-11-16&end=2026-11-22`,
      store,
    );
    await screen.findByTestId('history-empty', {}, firstRender);

    await user.click(screen.getByTestId('history-csv'));
    expect((await screen.findByTestId('notice-error')).textContent).toContain(
      'Unexpected file type received from the server.',
    );
    expect(requests[0]?.url).toBe('/api/csv/tasks');
  });

  it('a tablet link with store_id opens that store and offers no export (entry rule)', async () => {
    const store = buildHistoryStore();
    const other = buildHistoryStore({ name: 'Autre magasin' });
    // Another store is chosen in the selection popup: the link's store wins.
    selectStore(other);
    captureEntryParameters({ pathname: '/', search: `?page=history&store_id=${store.id}` });
    const { historyCalls, router } = renderHistory('/', store, {
      stores: [other, store],
      tasks: () => [buildHistoryTask({ name: 'Relevé du matin' })],
    });
    await waitFor(() => expect(rows()).toHaveLength(1), firstRender);
    expect(router.state.location.pathname).toBe('/history');
    expect(historyCalls()).toHaveLength(1);
    expect((screen.getByTestId('history-store-select') as HTMLInputElement).value).toBe(store.name);
    // Spec 002 §1: with a custom store id the history export is hidden, PDF and CSV alike.
    expect(screen.queryByTestId('history-pdf')).toBeNull();
    expect(screen.queryByTestId('history-csv')).toBeNull();
  });
});

describe('history probe records (issue 15)', { timeout: 30_000 }, () => {
  it('lists the period’s alert episodes, a not-acknowledged one standing out, then the probe days', async () => {
    const store = buildHistoryStore();
    const { user, api } = renderHistory(`/history?store=${store.id}&tab=probes`, store, {
      probes: {
        alerts: [
          buildAlertEpisode({
            kind: 'offline',
            elementName: null,
            probeName: 'Sonde cave',
            startedAt: '2026-11-19T07:00:00Z',
            resolvedAt: null,
            worstValue: null,
            escalationLevel: 2,
          }),
          buildAlertEpisode({
            escalationLevel: 1,
            acknowledgedAt: '2026-11-18T11:40:00Z',
            acknowledgedByName: 'Chloé Durand',
            correctiveAction: 'Produits déplacés dans la chambre froide',
          }),
        ],
        elements: [
          buildProbeElement({
            days: [
              {
                day: '2026-11-18',
                minimum: 1.5,
                maximum: 7.5,
                last_temperature: 3,
                last_reading_at: '2026-11-18T22:50:00Z',
                readings: 288,
              },
              {
                day: '2026-11-19',
                minimum: 2,
                maximum: 3.5,
                last_temperature: 3,
                last_reading_at: '2026-11-19T22:55:00Z',
                readings: 287,
              },
            ],
          }),
        ],
      },
    });

    const records = await screen.findByTestId('history-probe-records', {}, firstRender);
    // The tasks are not asked on this tab; the records are, for the period shown.
    expect(api.callsTo('GET', `/api/stores/${store.id}/history`)).toHaveLength(0);
    const [call] = api.callsTo('GET', `/api/stores/${store.id}/history/probes`);
    expect(call?.query.get('start')).toBeTruthy();
    expect(screen.queryByTestId('history-search')).toBeNull();

    const [offline, outOfRange] = within(records).getAllByTestId('history-alert');
    expect(offline?.getAttribute('data-acknowledged')).toBe('false');
    expect(within(offline!).getByTestId('history-alert-kind').textContent).toBe('Probe offline');
    expect(within(offline!).getByTestId('history-alert-subject').textContent).toBe('Sonde cave');
    expect(within(offline!).getByTestId('history-alert-not-acknowledged').textContent).toBe(
      'Not acknowledged',
    );
    expect(within(offline!).getByTestId('history-alert-period').textContent).toBe(
      'Start → end: 19/11/2026 08:00 → ongoing',
    );
    expect(within(offline!).getByTestId('history-alert-escalation').textContent).toBe(
      'Escalation reached: Distributor',
    );
    expect(within(offline!).queryByTestId('history-alert-worst')).toBeNull();

    expect(within(outOfRange!).queryByTestId('history-alert-not-acknowledged')).toBeNull();
    expect(within(outOfRange!).getByTestId('history-alert-subject').textContent).toBe(
      'Frigo 1 · Sonde frigo',
    );
    expect(within(outOfRange!).getByTestId('history-alert-period').textContent).toBe(
      'Start → end: 18/11/2026 12:00 → 18/11/2026 13:00',
    );
    expect(within(outOfRange!).getByTestId('history-alert-worst').textContent).toBe(
      'Worst value: 7.5 °C (Limits 0 °C / 4 °C)',
    );
    expect(within(outOfRange!).getByTestId('history-alert-acknowledgement').textContent).toBe(
      'Acknowledged by Chloé Durand on 18/11/2026 12:40' +
        'Corrective action: Produits déplacés dans la chambre froide',
    );

    const days = within(records).getAllByTestId('history-probe-day');
    expect(days.map((row) => row.getAttribute('data-out-of-range'))).toEqual(['true', 'false']);
    expect(days[0]?.textContent).toBe('18/11/20261.5 °C7.5 °C3 °C at 23:50288');

    const results = await axe.run(records, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      rules: { 'color-contrast': { enabled: false } },
    });
    expect(results.violations.map((violation) => violation.id)).toEqual([]);

    // Back to a module tab: the tasks are asked.
    await user.click(screen.getByTestId('history-tab-temperatures'));
    await waitFor(() =>
      expect(api.callsTo('GET', `/api/stores/${store.id}/history`)).toHaveLength(1),
    );
  });

  it('says so when the period has no alert and no element is bound to a probe', async () => {
    const store = buildHistoryStore();
    renderHistory(`/history?store=${store.id}&tab=probes`, store);
    expect((await screen.findByTestId('history-no-alert', {}, firstRender)).textContent).toBe(
      'No probe alert in this period.',
    );
    expect(screen.getByTestId('history-no-probe-element').textContent).toBe(
      'No element of this store is bound to a probe.',
    );
  });

  it('shows what the bound probe saw that day under the manual reading, red when beyond the bounds', async () => {
    const store = buildHistoryStore();
    const origin = buildElement({ name: 'Frigo 1' });
    const other = buildElement({ name: 'Vitrine' });
    const entry = (element: string) => ({
      element,
      temperature: 3.5,
      first_temperature: 3.5,
      control_temperature: null,
      comment: '',
      pictures: [],
      // 18/11/2026 12:06 in Paris.
      timestamp: 1_795_000_000,
    });
    const { user } = renderHistory(`/history?store=${store.id}`, store, {
      tasks: () => [
        buildHistoryTask({
          elements: [origin, other],
          result: { entries: [entry(origin.id), entry(other.id)] },
        }),
      ],
      probes: {
        elements: [
          // The task's snapshot names the database element; the store's override is bound.
          buildProbeElement({
            origin_id: origin.id,
            days: [
              {
                day: '2026-11-18',
                minimum: 1.5,
                maximum: 7.5,
                last_temperature: 3,
                last_reading_at: '2026-11-18T22:50:00Z',
                readings: 288,
              },
            ],
          }),
        ],
      },
    });
    await waitFor(() => expect(rows()).toHaveLength(1), firstRender);
    const [row] = rows();
    await openRow(user, row!);
    const table = await within(row!).findByTestId('result-temperatures');
    await waitFor(() => expect(within(table).getAllByTestId('result-probe-line')).toHaveLength(1));
    const line = within(table).getByTestId('result-probe-line');
    expect(line.textContent).toBe(
      'Probe Sonde frigo that day: min 1.5 °C, max 7.5 °C, last 3 °C at 23:50',
    );
    // Right under the bound element's reading, not the other one's.
    const rowsOfTable = within(table).getAllByRole('row');
    const lineIndex = rowsOfTable.indexOf(line);
    expect(within(rowsOfTable[lineIndex - 1]!).getByTestId('result-element').textContent).toBe(
      'Frigo 1',
    );
    const text = line.querySelector('[data-out-of-range]');
    expect(text?.getAttribute('data-out-of-range')).toBe('true');
    expect(text?.getAttribute('style') ?? '').toContain('--mantine-color-red');
  });
});
