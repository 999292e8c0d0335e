import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildId, buildUser } from '../../../test/factories';
import { type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import { buildStats } from '../test/build-communication';
import { expectNoAxeViolations } from '../test/expect-no-axe-violations';

/** uPlot draws on a canvas the test DOM lacks: a stand-in records what it was given. */
const charts = vi.hoisted(() => [] as { options: Record<string, unknown>; data: unknown[][] }[]);
vi.mock('uplot', () => {
  class FakeUPlot {
    static paths = { bars: () => () => null };
    width: number;
    constructor(options: Record<string, unknown> & { width: number }, data: unknown[][]) {
      this.width = options.width;
      charts.push({ options, data });
    }
    setSize() {}
    setData() {}
    destroy() {}
  }
  return { default: FakeUPlot };
});

const pageLoad = { timeout: 10_000 };

const stats = buildStats();
const communicationId = stats.communication.id;
const opera = {
  store_id: buildId(),
  name: 'Bistro Opéra',
  address: '5 place de l’Opéra, Paris',
  views: 3,
  target_employees: 4,
};
const vieuxPort = {
  store_id: buildId(),
  name: 'Le Vieux Port',
  address: null,
  views: 0,
  target_employees: 2,
};
const terrasse = { ...vieuxPort, store_id: buildId(), name: 'La Terrasse' };

function renderStats(role: 'admin' | 'customer', extra: Record<string, MockHandler> = {}) {
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role }) } },
    [`GET /api/communications/${communicationId}/stats`]: { body: stats },
    [`GET /api/communications/${communicationId}/stats/stores`]: (call) =>
      call.query.get('cursor') === 'page-2'
        ? { body: { items: [terrasse], next_cursor: null } }
        : call.query.get('search')
          ? { body: { items: [vieuxPort], next_cursor: null } }
          : { body: { items: [opera, vieuxPort], next_cursor: 'page-2' } },
    [`GET /api/communications/${communicationId}/stats/stores/${opera.store_id}`]: {
      body: {
        items: [
          {
            employee_id: buildId(),
            employee_name: 'Léa Petit',
            store_name: 'Bistro Opéra',
            // 09:05 in Paris.
            completed_at: '2026-12-02T08:05:00Z',
            time_spent: 3725,
            skipped_count: 0,
          },
          {
            employee_id: buildId(),
            employee_name: 'Hugo Bernard',
            store_name: 'Bistro Opéra',
            completed_at: null,
            time_spent: null,
            skipped_count: 2,
          },
        ],
      },
    },
    ...extra,
  });
  return { ...renderApp(`/communicationStats?id=${communicationId}`), api };
}

describe('communication statistics', { timeout: 30_000 }, () => {
  it('shows the figures and the views per day, for a customer too', async () => {
    const { container } = renderStats('customer');
    expect((await screen.findByTestId('page-title', {}, pageLoad)).textContent).toBe(
      'Nouvelle carte d’hiver',
    );
    expect(screen.getByTestId('stats-total-views-value').textContent).toBe('42');
    expect(screen.getByTestId('stats-views-today-value').textContent).toBe('5');
    expect(screen.getByTestId('stats-median-time-value').textContent).toBe('1:35');
    expect(screen.getByTestId('stats-percentage-value').textContent).toBe('70 %');
    expect(screen.getByTestId('stats-percentage-hint').textContent).toBe(
      'of 60 employees aimed at',
    );

    const chart = screen.getByTestId('communication-views-chart');
    expect(chart.getAttribute('role')).toBe('img');
    expect(chart.getAttribute('aria-label')).toBe(
      'Views per day from 01/12/2026 to 03/12/2026: 42 in all, most on 01/12/2026 (20).',
    );
    await waitFor(() => expect(charts.length).toBeGreaterThan(0));
    const drawn = charts.at(-1)!;
    expect(drawn.options.height).toBe(400);
    expect(drawn.data).toEqual([
      [0, 1, 2],
      [20, 17, 5],
    ]);
    // The same figures as a table for screen readers.
    const rows = within(screen.getByTestId('communication-views-table')).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'DayViews',
      '01/12/202620',
      '02/12/202617',
      '03/12/20265',
    ]);
    await expectNoAxeViolations(container);
  });

  it('shows — for the median time without any view, and no chart without a day', async () => {
    renderStats('admin', {
      [`GET /api/communications/${communicationId}/stats`]: {
        body: buildStats({
          communication: stats.communication,
          total_views: 0,
          views_today: 0,
          median_time_spent: null,
          percentage: 0,
          per_day: [],
        }),
      },
    });
    expect((await screen.findByTestId('stats-median-time-value', {}, pageLoad)).textContent).toBe(
      '—',
    );
    expect(screen.getByTestId('communication-views-chart-empty')).toBeTruthy();
  });

  it('lists the stores, pages and searches them, and opens a store’s details with ?', async () => {
    const { user, api, container } = renderStats('admin');
    await user.click(await screen.findByTestId('stats-tab-table', {}, pageLoad));
    const rows = await screen.findAllByTestId('stats-store-row');
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['Bistro Opéra', '5 place de l’Opéra, Paris', '3 / 4'],
      ['Le Vieux Port', '—', '0 / 2'],
    ]);
    await expectNoAxeViolations(container);

    await user.click(screen.getByTestId('stats-stores-more'));
    await waitFor(() => expect(screen.getAllByTestId('stats-store-row')).toHaveLength(3));
    expect(screen.queryByTestId('stats-stores-more')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Details of Bistro Opéra' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Details — Bistro Opéra')).toBeTruthy();
    const results = await within(dialog).findAllByTestId('store-result');
    const lines = results.map((result) => [
      within(result).getByTestId('store-result-employee').textContent,
      within(result).getByTestId('store-result-store').textContent,
      within(result).getByTestId('store-result-completed').textContent,
      within(result).getByTestId('store-result-time').textContent,
    ]);
    expect(lines).toEqual([
      ['Léa Petit', 'Bistro Opéra', '02/12/2026 09:05', '1:02:05'],
      ['Hugo Bernard', 'Bistro Opéra', '?', '?'],
    ]);
    await expectNoAxeViolations(dialog);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.type(screen.getByTestId('stats-stores-search'), 'port');
    await waitFor(() => expect(screen.getAllByTestId('stats-store-row')).toHaveLength(1));
    expect(
      api
        .callsTo('GET', `/api/communications/${communicationId}/stats/stores`)
        .some((call) => call.query.get('search') === 'port'),
    ).toBe(true);
  });
});
