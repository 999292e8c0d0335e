import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildId, buildUser } from '../../../test/factories';
import { type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import { expectNoAxeViolations } from '../../communications/test/expect-no-axe-violations';
import { brasseries, buildTrainingStats, buildTrainingSummary } from '../test/build-training';

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

const stats = buildTrainingStats({
  training: buildTrainingSummary({ name: 'Hygiène des mains', required: true }),
});
const trainingId = stats.training.id;
const opera = {
  store_id: buildId(),
  name: 'Bistro Opéra',
  address: '5 place de l’Opéra, Paris',
  views: 3,
  target_employees: 4,
};

function renderStats(role: 'manager' | 'customer', extra: Record<string, MockHandler> = {}) {
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role }) } },
    [`GET /api/trainings/${trainingId}/stats`]: { body: stats },
    [`GET /api/trainings/${trainingId}/stats/stores`]: (call) => ({
      body: { items: call.query.get('search') === 'zzz' ? [] : [opera], next_cursor: null },
    }),
    [`GET /api/trainings/${trainingId}/stats/stores/${opera.store_id}`]: {
      body: {
        items: [
          {
            employee_id: buildId(),
            employee_name: 'Léa Petit',
            store_name: 'Bistro Opéra',
            // 09:05 in New York, the browser's zone here.
            completed_at: '2026-11-24T14:05:00Z',
            time_spent: 312,
            skipped_count: 0,
          },
          {
            employee_id: buildId(),
            employee_name: 'Hugo Bernard',
            store_name: 'Bistro Opéra',
            completed_at: null,
            time_spent: null,
            skipped_count: 1,
          },
        ],
      },
    },
    ...extra,
  });
  return { ...renderApp(`/trainingStats?id=${trainingId}`), api };
}

describe('training statistics', { timeout: 30_000 }, () => {
  it('shows the figures and the completions of the last 10 days plus today, to a customer too', async () => {
    const { container } = renderStats('customer');
    expect((await screen.findByTestId('page-title', {}, pageLoad)).textContent).toBe(
      'Hygiène des mains',
    );
    expect(screen.getByTestId('training-stats-type').textContent).toBe('Database training');
    expect(screen.getByTestId('stats-trained-value').textContent).toBe('13');
    expect(screen.getByTestId('stats-views-today-value').textContent).toBe('2');
    expect(screen.getByTestId('stats-median-time-value').textContent).toBe('5:12');
    expect(screen.getByTestId('stats-percentage-value').textContent).toBe('33 %');
    expect(screen.getByTestId('stats-percentage-hint').textContent).toBe(
      'of 40 employees aimed at',
    );

    const chart = screen.getByTestId('training-completions-chart');
    expect(chart.getAttribute('aria-label')).toBe(
      'Completions per day from 15/11/2026 to 25/11/2026: 13 in all, most on 19/11/2026 (4).',
    );
    await waitFor(() => expect(charts.length).toBeGreaterThan(0));
    const drawn = charts.at(-1)!;
    expect(drawn.options.height).toBe(400);
    expect(drawn.data[0]).toHaveLength(11);
    expect(drawn.data[1]).toEqual([0, 2, 0, 1, 4, 0, 0, 3, 1, 0, 2]);
    const rows = within(screen.getByTestId('training-completions-table')).getAllByRole('row');
    expect(rows).toHaveLength(12);
    expect(rows[0]?.textContent).toBe('DayCompletions');
    expect(rows.at(-1)?.textContent).toBe('25/11/20262');
    expect(screen.getByTestId('training-stats-back').getAttribute('href')).toBe(
      `/trainings?database=${brasseries.id}`,
    );
    await expectNoAxeViolations(container);
  });

  it('lists the stores and opens a store’s details with ? for what is missing', async () => {
    const { user, api, container } = renderStats('manager');
    await user.click(await screen.findByTestId('stats-tab-table', {}, pageLoad));
    const rows = await screen.findAllByTestId('stats-store-row');
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([['Bistro Opéra', '5 place de l’Opéra, Paris', '3 / 4']]);
    expect(screen.getByRole('columnheader', { name: 'Trained' })).toBeTruthy();
    await expectNoAxeViolations(container);

    await user.click(screen.getByRole('button', { name: 'Details of Bistro Opéra' }));
    const dialog = await screen.findByRole('dialog');
    const results = await within(dialog).findAllByTestId('store-result');
    expect(
      results.map((result) => [
        within(result).getByTestId('store-result-employee').textContent,
        within(result).getByTestId('store-result-store').textContent,
        within(result).getByTestId('store-result-completed').textContent,
        within(result).getByTestId('store-result-time').textContent,
      ]),
    ).toEqual([
      ['Léa Petit', 'Bistro Opéra', '24/11/2026 09:05', '5:12'],
      ['Hugo Bernard', 'Bistro Opéra', '?', '?'],
    ]);
    await expectNoAxeViolations(dialog);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.type(screen.getByTestId('stats-stores-search'), 'zzz');
    expect(await screen.findByText('No store found.')).toBeTruthy();
    expect(
      api
        .callsTo('GET', `/api/trainings/${trainingId}/stats/stores`)
        .some((call) => call.query.get('search') === 'zzz'),
    ).toBe(true);
  });

  it('shows — without a median time and 0 % without a completion', async () => {
    renderStats('manager', {
      [`GET /api/trainings/${trainingId}/stats`]: {
        body: buildTrainingStats({
          training: stats.training,
          trained: 0,
          views_today: 0,
          median_time_spent: null,
          percentage: 0,
        }),
      },
    });
    expect((await screen.findByTestId('stats-median-time-value', {}, pageLoad)).textContent).toBe(
      '—',
    );
    expect(screen.getByTestId('stats-percentage-value').textContent).toBe('0 %');
  });
});
