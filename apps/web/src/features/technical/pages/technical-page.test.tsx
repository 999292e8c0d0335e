import type {
  OutputLine,
  ProfilingSnapshot,
  ServerInstance,
} from '@mise/shared/operations/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import dayjs from 'dayjs';
import { describe, expect, it, vi } from 'vitest';
import { buildId, buildStore, buildUser } from '../../../test/factories';
import { type ApiCall, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';

/** uPlot draws on a canvas the test DOM lacks: a stand-in records what it was given. */
type FakeChart = {
  options: { scales: { y: { range: (chart: unknown, min: number, max: number) => number[] } } };
  data: unknown[][];
};
const charts = vi.hoisted(() => [] as FakeChart[]);
vi.mock('uplot', () => {
  class FakeUPlot {
    width: number;
    record: FakeChart;
    constructor(options: FakeChart['options'] & { width: number }, data: unknown[][]) {
      this.width = options.width;
      this.record = { options, data };
      charts.push(this.record);
    }
    setSize() {}
    setData(data: unknown[][]) {
      this.record.data = data;
    }
    destroy() {}
  }
  return { default: FakeUPlot };
});

const pageLoad = { timeout: 10_000 };

function buildInstance(overrides: Partial<ServerInstance> = {}): ServerInstance {
  return {
    id: buildId(),
    host: 'mise-web-1',
    version: '1.4.0',
    pid: 4242,
    started_at: '2026-11-24T07:00:00.000Z',
    last_seen_at: '2026-11-24T11:59:55.000Z',
    is_live: true,
    is_current: false,
    ...overrides,
  };
}

const other = buildInstance({ host: 'mise-web-2', pid: 5151 });
const current = buildInstance({ host: 'mise-web-1', is_current: true });
// Live ones first, as the server lists them; the answering one is not first on purpose.
const instances = [other, current];

function snapshot(second: number, cpu: number, memory: number): ProfilingSnapshot {
  return {
    cpuUsagePercent: cpu,
    memoryUsagePercent: memory,
    timestamp: new Date(Date.UTC(2026, 10, 24, 11, 0, second)).toISOString(),
  };
}

function outputLine(seq: number, msg: string, level: OutputLine['level'] = 'info'): OutputLine {
  return {
    seq,
    time: new Date(Date.UTC(2026, 10, 24, 11, 0, 0, seq)).toISOString(),
    level,
    msg,
    line: JSON.stringify({ level, msg }),
  };
}

function renderTechnical(path: string, extra: Record<string, MockHandler> = {}) {
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
    'GET /api/profiling/instances': { body: { items: instances } },
    'GET /api/profiling/live': (call) => ({
      body: { instance_id: call.query.get('instanceId'), items: [] },
    }),
    ...extra,
  });
  return { ...renderApp(path), api };
}

/** WCAG 2.1 A/AA; contrast needs a layout engine (the Playwright pass checks it). */
async function expectNoAxeViolations() {
  const results = await axe.run(document.body, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    rules: { 'color-contrast': { enabled: false } },
  });
  expect(results.violations.map((violation) => violation.id)).toEqual([]);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('admin technical screen (spec 002 §2)', { timeout: 30_000 }, () => {
  it('lists the instances, picks the answering one, and charts its snapshots averaged by 5', async () => {
    // 12 snapshots: two groups of 5, the last 2 dropped; the second group floored at 0.
    const snapshots = [
      snapshot(0, 10, 40),
      snapshot(6, 20, 40),
      snapshot(12, 30, 41),
      snapshot(18, 40, 41),
      snapshot(24, 50, 42.5),
      snapshot(30, -2, 50),
      snapshot(36, -2, 50),
      snapshot(42, -2, 50),
      snapshot(48, -2, 50),
      snapshot(54, -2, 50),
      snapshot(60, 99, 99),
      snapshot(66, 99, 99),
    ];
    const { api, user } = renderTechnical('/technical', {
      'GET /api/profiling/live': (call) => ({
        body: {
          instance_id: call.query.get('instanceId'),
          items: call.query.get('instanceId') === current.id ? snapshots : [],
        },
      }),
    });

    expect((await screen.findByTestId('page-title', {}, pageLoad)).textContent).toBe('Technical');
    const cards = await screen.findAllByTestId('technical-instance');
    expect(cards.map((card) => card.getAttribute('data-instance-id'))).toEqual([
      other.id,
      current.id,
    ]);
    expect(cards[1]!.getAttribute('aria-checked')).toBe('true');
    expect(cards[1]!.textContent).toContain('mise-web-1');
    expect(cards[1]!.textContent).toContain('Answering');
    expect(cards[1]!.textContent).toContain('Version 1.4.0');
    expect(cards[1]!.textContent).toContain('Process 4242');
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Profiling',
      'Task generation',
      'Output',
    ]);

    const table = await screen.findByTestId('technical-profiling-table');
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .slice(1)
          .map((cell) => cell.textContent),
      );
    expect(rows).toEqual([
      ['30', '40.90'],
      ['0', '50'],
    ]);
    expect(screen.getByTestId('technical-profiling-latest').textContent).toBe(
      'Latest: CPU 0 %, memory 50 %',
    );
    expect(api.callsTo('GET', '/api/profiling/live')[0]?.query.get('instanceId')).toBe(current.id);
    // The chart draws the same points (seconds on x), its y-axis 0 to 100 unless a value is above.
    const chart = charts.at(-1)!;
    expect(chart.data).toEqual([
      [Date.UTC(2026, 10, 24, 11, 0, 24) / 1000, Date.UTC(2026, 10, 24, 11, 0, 54) / 1000],
      [30, 0],
      [40.9, 50],
    ]);
    expect(chart.options.scales.y.range(null, 0, 50)).toEqual([0, 100]);
    expect(chart.options.scales.y.range(null, 0, 120)).toEqual([0, 120]);

    await user.click(cards[0]!);
    expect(await screen.findByTestId('technical-profiling-empty')).toBeTruthy();
    expect(api.callsTo('GET', '/api/profiling/live').at(-1)?.query.get('instanceId')).toBe(
      other.id,
    );

    await expectNoAxeViolations();
  });

  it('says it cannot connect when the API is out of reach', async () => {
    renderTechnical('/technical', {
      'GET /api/profiling/instances': () => {
        throw new TypeError('Failed to fetch');
      },
    });

    const message = await screen.findByTestId('technical-unable-to-connect', {}, pageLoad);
    expect(message.textContent).toContain('Unable to connect to the server.');
    expect(screen.queryByRole('tab')).toBeNull();
  });

  it('asks for a store before searching, then lists the events with their types and runs generation', async () => {
    const store = buildStore({ name: 'Bistro Lyon' });
    const events = [
      {
        id: buildId(),
        type: 4,
        store_id: store.id,
        message: 'Task "Fridge" generated',
        details: null,
        timestamp: '2026-11-24T05:00:02.000Z',
      },
      {
        id: buildId(),
        type: 3,
        store_id: store.id,
        message: 'Generation of Bistro Lyon started',
        details: null,
        timestamp: '2026-11-24T05:00:01.000Z',
      },
      {
        id: buildId(),
        type: 0,
        store_id: null,
        message: 'Program starting',
        details: null,
        timestamp: '2026-11-24T05:00:00.000Z',
      },
    ];
    const { api, user } = renderTechnical('/technical?tab=taskGeneration', {
      'GET /api/stores': { body: { items: [store], total: 1 } },
      'POST /api/task_generation/search': { body: { items: events, truncated: false } },
      'POST /api/task_generation/run': { body: { day: '2026-11-24', created: 3 } },
    });

    await user.click(await screen.findByTestId('technical-generation-search', {}, pageLoad));
    expect((await screen.findByTestId('technical-select-store')).textContent).toContain(
      'Please select a store.',
    );
    expect(api.callsTo('POST', '/api/task_generation/search')).toEqual([]);

    await user.click(screen.getByTestId('technical-generation-store'));
    await user.click(await screen.findByRole('option', { name: 'Bistro Lyon' }));
    expect(screen.queryByTestId('technical-select-store')).toBeNull();
    await user.click(screen.getByTestId('technical-generation-search'));

    const rows = await screen.findAllByTestId('technical-generation-event');
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .slice(1)
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['Bistro Lyon', 'Task generated', 'Task "Fridge" generated'],
      ['Bistro Lyon', 'Store generation started', 'Generation of Bistro Lyon started'],
      ['All stores', 'Program starting', 'Program starting'],
    ]);
    const search = api.callsTo('POST', '/api/task_generation/search')[0]!;
    const body = search.body as { storeId: string; start: string; end: string };
    expect(body.storeId).toBe(store.id);
    // Today, from its first to its last millisecond (the browser's day).
    const today = dayjs().format('YYYY-MM-DD');
    expect(dayjs(body.start).format('YYYY-MM-DD HH:mm:ss.SSS')).toBe(`${today} 00:00:00.000`);
    expect(dayjs(body.end).format('YYYY-MM-DD HH:mm:ss.SSS')).toBe(`${today} 23:59:59.999`);

    await user.click(screen.getByTestId('technical-generation-run'));
    expect((await screen.findByTestId('notice-success')).textContent).toContain(
      'Generation done for 24/11/2026: 3 tasks created.',
    );
    expect(api.callsTo('POST', '/api/task_generation/run')[0]?.body).toEqual({
      storeId: store.id,
    });
    // The run wrote events: the list is read again.
    await waitFor(() => expect(api.callsTo('POST', '/api/task_generation/search')).toHaveLength(2));
    await expectNoAxeViolations();
  });

  it('follows the output after last_seq, keeps the lines, and stops polling when paused', async () => {
    const answers: ((call: ApiCall) => { items: OutputLine[]; last_seq: number })[] = [
      () => ({
        items: [outputLine(1, 'Server listening'), outputLine(2, 'GET /api/me')],
        last_seq: 2,
      }),
      () => ({ items: [outputLine(3, 'Task generation run')], last_seq: 3 }),
    ];
    const { api, user } = renderTechnical('/technical?tab=output', {
      'GET /api/profiling/output': (call) => {
        const answer = answers.shift() ?? (() => ({ items: [], last_seq: 3 }));
        return { body: { instance_id: current.id, ...answer(call) } };
      },
    });

    await waitFor(
      () =>
        expect(
          screen.getAllByTestId('technical-output-line').map((line) => line.textContent),
        ).toEqual([
          expect.stringContaining('Server listening'),
          expect.stringContaining('GET /api/me'),
          expect.stringContaining('Task generation run'),
        ]),
      pageLoad,
    );
    const calls = api.callsTo('GET', '/api/profiling/output');
    expect(calls[0]!.query.get('instanceId')).toBe(current.id);
    expect(calls[0]!.query.has('after')).toBe(false);
    expect(calls[1]!.query.get('after')).toBe('2');
    await waitFor(() =>
      expect(api.callsTo('GET', '/api/profiling/output').length).toBeGreaterThan(2),
    );
    expect(api.callsTo('GET', '/api/profiling/output')[2]!.query.get('after')).toBe('3');

    await user.click(screen.getByTestId('technical-output-toggle'));
    expect(screen.getByTestId('technical-output-toggle').textContent).toBe('Resume');
    const countWhenPaused = api.callsTo('GET', '/api/profiling/output').length;
    await sleep(2_500);
    expect(api.callsTo('GET', '/api/profiling/output')).toHaveLength(countWhenPaused);
    expect(screen.getAllByTestId('technical-output-line')).toHaveLength(3);

    await user.click(screen.getByTestId('technical-output-toggle'));
    await waitFor(() =>
      expect(api.callsTo('GET', '/api/profiling/output').length).toBeGreaterThan(countWhenPaused),
    );
    expect(api.callsTo('GET', '/api/profiling/output').at(-1)!.query.get('after')).toBe('3');
    await expectNoAxeViolations();
  });

  it('asks the server for a minimum level and shows only its lines', async () => {
    const { api, user } = renderTechnical('/technical?tab=output', {
      'GET /api/profiling/output': (call) => {
        const level = call.query.get('level');
        const items =
          level === 'warn'
            ? [outputLine(7, 'Slow query', 'warn'), outputLine(9, 'Mail failed', 'error')]
            : [
                outputLine(6, 'Request done'),
                outputLine(7, 'Slow query', 'warn'),
                outputLine(8, 'Request done'),
                outputLine(9, 'Mail failed', 'error'),
              ];
        return {
          body: {
            instance_id: current.id,
            items: call.query.has('after') ? [] : items,
            last_seq: 9,
          },
        };
      },
    });

    await waitFor(
      () => expect(screen.getAllByTestId('technical-output-line')).toHaveLength(4),
      pageLoad,
    );
    await user.click(screen.getByTestId('technical-output-level'));
    await user.click(await screen.findByRole('option', { name: 'Warning' }));

    await waitFor(() =>
      expect(
        screen
          .getAllByTestId('technical-output-line')
          .map((line) => line.getAttribute('data-level')),
      ).toEqual(['warn', 'error']),
    );
    const levelCall = api
      .callsTo('GET', '/api/profiling/output')
      .find((call) => call.query.get('level') === 'warn');
    expect(levelCall?.query.has('after')).toBe(false);
  });

  it('stops reading the output silently after a failure', async () => {
    const { api } = renderTechnical('/technical?tab=output', {
      'GET /api/profiling/output': {
        status: 500,
        body: { error: { code: 'internal', message: 'x' } },
      },
    });

    await waitFor(
      () =>
        expect(screen.getByTestId('technical-output-state').textContent).toBe('Updates stopped.'),
      pageLoad,
    );
    const count = api.callsTo('GET', '/api/profiling/output').length;
    await sleep(1_500);
    expect(api.callsTo('GET', '/api/profiling/output')).toHaveLength(count);
    expect(screen.queryByTestId('notice-error')).toBeNull();
    expect(screen.getByTestId('technical-output-toggle').textContent).toBe('Resume');
  });

  it('is refused to a manager, without asking the API', async () => {
    const api = mockApi({ 'GET /api/me': { body: { user: buildUser({ role: 'manager' }) } } });
    renderApp('/technical');
    expect((await screen.findByTestId('no-permission', {}, pageLoad)).textContent).toContain(
      'Your account cannot open this page.',
    );
    expect(api.calls.filter((call) => call.path.startsWith('/api/profiling'))).toEqual([]);
  });
});
