import { correctiveActionMaxLength as contractMaxLength } from '@mise/shared/probes/alerts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastHost } from '../../shared/ui/toast';
import { openTestSession, outboxRecords } from '../../test/factories';
import { correctiveActionMaxLength } from './acknowledge-dialog';
import { AlertCenter } from './alert-center';
import type { AlertEpisode } from './device-alerts';

/*
 * The alarm on the tablet: the banner from GET /api/device/alerts, the sound (Web Audio, counted
 * through a stand-in AudioContext), and the acknowledgement through the outbox. The API is
 * answered by a fetch stub as in the other tablet tests; the rest (outbox, IndexedDB, session)
 * is the app's own code.
 */

const alertId = '3c9e1f4a-2b7d-4e1a-9c3b-5d6e7f8a9b01';

function buildEpisode(overrides: Partial<AlertEpisode> = {}): AlertEpisode {
  return {
    id: alertId,
    kind: 'out_of_range',
    probeId: '3c9e1f4a-2b7d-4e1a-9c3b-5d6e7f8a9b02',
    probeUID: 'SP-0042',
    probeName: 'Probe 42',
    storeId: '3c9e1f4a-2b7d-4e1a-9c3b-5d6e7f8a9b03',
    storeName: 'Lyon Part-Dieu',
    elementName: 'Walk-in fridge',
    // 09:40 in New York, the test browser's zone (no store context loaded).
    startedAt: '2026-11-24T14:40:00Z',
    openedAt: '2026-11-24T14:55:00Z',
    resolvedAt: null,
    minimumTemperature: 0,
    maximumTemperature: 4,
    delayMinutes: 15,
    worstValue: 9.5,
    lastValue: 8.2,
    escalationLevel: 0,
    acknowledgedAt: null,
    acknowledgedByName: null,
    correctiveAction: null,
    ...overrides,
  };
}

type Call = { url: string; method: string; body: unknown; headers: Headers };
type Answer = (call: Call) => Response | 'offline' | undefined;

/** The API as a fetch stub: `answer` decides; anything else is a 404 of ours. */
function stubApi(answer: Answer) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const call: Call = {
      url: String(input),
      method: init?.method ?? 'GET',
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : null,
      headers: new Headers(init?.headers),
    };
    calls.push(call);
    const response = answer(call);
    if (response === 'offline') throw new TypeError('Failed to fetch');
    return (
      response ??
      Response.json({ error: { code: 'not-found', message: 'Not found' } }, { status: 404 })
    );
  });
  return calls;
}

function listAnswer(items: () => AlertEpisode[]): Answer {
  return (call) =>
    call.url === '/api/device/alerts' && call.method === 'GET'
      ? Response.json({ items: items() })
      : undefined;
}

/** Web Audio stand-in: every tone started is counted (the alarm is four tones). */
const tonesStarted: number[] = [];
class FakeAudioContext {
  state = 'running';
  currentTime = 0;
  destination = {};
  createOscillator() {
    return {
      frequency: { value: 0 },
      connect: (node: unknown) => node,
      start: (at: number) => tonesStarted.push(at),
      stop: () => undefined,
    };
  }
  createGain() {
    return {
      gain: { setValueAtTime: () => undefined, exponentialRampToValueAtTime: () => undefined },
      connect: (node: unknown) => node,
    };
  }
  resume() {
    return Promise.resolve();
  }
}
const alarmsPlayed = () => tonesStarted.length / 4;

function renderCenter(props: { isAudioOn?: boolean; onWake?: () => void } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <AlertCenter
        isAudioOn={props.isAudioOn ?? true}
        isIdle={false}
        onWake={props.onWake ?? (() => undefined)}
      />
      <ToastHost />
    </QueryClientProvider>,
  );
  return queryClient;
}

beforeEach(() => {
  tonesStarted.length = 0;
  vi.stubGlobal('AudioContext', FakeAudioContext);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the alarm banner', () => {
  it('shows the element, kind, start and temperature, and rings until silenced for 10 minutes', async () => {
    vi.useFakeTimers({
      now: new Date('2026-11-24T15:00:00Z'),
      shouldAdvanceTime: true,
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    });
    stubApi(listAnswer(() => [buildEpisode()]));
    renderCenter();

    const banner = await screen.findByTestId('alert-banner');
    expect(within(banner).getByRole('heading').textContent).toBe('Probe alarm');
    const text = banner.textContent ?? '';
    for (const part of [
      'Walk-in fridge',
      'Out of range',
      'Probe Probe 42',
      'Since 09:40',
      'Now 8.2 °C',
      'Worst 9.5 °C',
      'Range 0 °C to 4 °C',
    ])
      expect(text).toContain(part);
    const acknowledge = within(banner).getByRole('button', { name: 'Identify to acknowledge' });
    expect(acknowledge.className).toContain('alert-item__action');

    // Rings at once, then every 4 s.
    expect(alarmsPlayed()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(4000));
    expect(alarmsPlayed()).toBe(2);

    fireEvent.click(within(banner).getByRole('button', { name: 'Silence 10 min' }));
    expect(within(banner).getByText('Sound off until 10:10')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(9 * 60_000));
    expect(alarmsPlayed()).toBe(2);
    // The banner stays while silenced; the sound comes back after the 10 minutes.
    expect(screen.getByTestId('alert-banner')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(61_000));
    expect(alarmsPlayed()).toBeGreaterThanOrEqual(3);
  });

  it('announces an episode once (role="alert"), not again when a poll brings new figures', async () => {
    let lastValue = 8.2;
    stubApi(listAnswer(() => [buildEpisode({ lastValue })]));
    const queryClient = renderCenter({ isAudioOn: false });
    const banner = await screen.findByTestId('alert-banner');
    const region = screen.getByRole('alert');
    expect(region.textContent).toBe('Alarm. Walk-in fridge: Out of range');
    expect(region.contains(banner)).toBe(false);

    const changes: MutationRecord[] = [];
    const observer = new MutationObserver((records) => changes.push(...records));
    observer.observe(region, { childList: true, subtree: true, characterData: true });
    lastValue = 9.1;
    await act(() => queryClient.refetchQueries({ queryKey: ['alerts'] }));
    await waitFor(() => expect(banner.textContent).toContain('Now 9.1 °C'));
    observer.disconnect();
    expect(changes).toHaveLength(0);
    // The device's audio setting is off: no sound and nothing to silence.
    expect(alarmsPlayed()).toBe(0);
    expect(within(banner).queryByRole('button', { name: 'Silence 10 min' })).toBeNull();
  });

  it('a resolved episode still to acknowledge neither rings nor shows the red banner', async () => {
    stubApi(
      listAnswer(() => [
        buildEpisode({ resolvedAt: '2026-11-24T15:20:00Z', lastValue: 3.1, worstValue: 9.5 }),
      ]),
    );
    renderCenter();
    expect(await screen.findByText('Back to normal at 10:20: still to acknowledge')).toBeTruthy();
    expect(screen.queryByTestId('alert-banner')).toBeNull();
    expect(alarmsPlayed()).toBe(0);
  });
});

describe('acknowledging', () => {
  it('without an employee, says to identify first, wakes the screen, then opens the form once identified', async () => {
    stubApi(listAnswer(() => [buildEpisode()]));
    const onWake = vi.fn();
    renderCenter({ onWake });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Identify to acknowledge' }));
    expect(onWake).toHaveBeenCalled();
    expect(
      screen.getByText('Identify yourself first (Who is working?), then acknowledge the alarm.'),
    ).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();

    await act(() => openTestSession());
    const dialog = await screen.findByRole('dialog', { name: 'Acknowledge: Walk-in fridge' });
    expect(within(dialog).getByText('Acknowledged by Ana Lopes')).toBeTruthy();
  });

  it('requires a corrective action, prefilled by a preset, and sends it with the employee token', async () => {
    await openTestSession();
    let episode = buildEpisode();
    const calls = stubApi((call) => {
      if (call.url === `/api/device/alerts/${alertId}/acknowledge` && call.method === 'POST') {
        episode = buildEpisode({
          acknowledgedAt: '2026-11-24T15:01:00Z',
          acknowledgedByName: 'Ana Lopes',
          correctiveAction: (call.body as { correctiveAction: string }).correctiveAction,
        });
        return Response.json({ alert: episode });
      }
      return listAnswer(() => [episode])(call);
    });
    const user = userEvent.setup();
    renderCenter({ isAudioOn: false });
    const banner = await screen.findByTestId('alert-banner');
    await user.click(within(banner).getByRole('button', { name: 'Acknowledge' }));
    const dialog = await screen.findByRole('dialog', { name: 'Acknowledge: Walk-in fridge' });

    // Nothing written without a corrective action.
    await user.click(within(dialog).getByRole('button', { name: 'Acknowledge' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Describe the corrective action.');
    expect(await outboxRecords()).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Product discarded' }));
    const field = within(dialog).getByLabelText('Corrective action (required)');
    // The field keeps to the contract's limit.
    expect(correctiveActionMaxLength).toBe(contractMaxLength);
    expect((field as HTMLTextAreaElement).maxLength).toBe(contractMaxLength);
    expect((field as HTMLTextAreaElement).value).toBe('Product discarded');
    await user.type(field, ', 3 kg of chicken');
    await user.click(within(dialog).getByRole('button', { name: 'Acknowledge' }));

    await waitFor(() => expect(screen.queryByTestId('alert-banner')).toBeNull());
    const sent = calls.filter((call) => call.method === 'POST');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe(`/api/device/alerts/${alertId}/acknowledge`);
    // Exactly the contract's strict body: no idempotency key in it.
    expect(sent[0]?.body).toEqual({ correctiveAction: 'Product discarded, 3 kg of chicken' });
    expect(sent[0]?.headers.get('x-employee-token')).toBe('employee-token-of-ana');
    expect(await screen.findByText('Acknowledged by Ana Lopes at 10:01')).toBeTruthy();
    expect(await outboxRecords()).toHaveLength(0);
  });

  it('offline, keeps the acknowledgement in the outbox and stops the alarm', async () => {
    vi.useFakeTimers({
      shouldAdvanceTime: true,
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
    });
    await openTestSession();
    stubApi((call) =>
      call.method === 'POST' ? 'offline' : listAnswer(() => [buildEpisode()])(call),
    );
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderCenter();
    const banner = await screen.findByTestId('alert-banner');
    expect(alarmsPlayed()).toBe(1);
    await user.click(within(banner).getByRole('button', { name: 'Acknowledge' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Repair called' }));
    await user.click(within(dialog).getByRole('button', { name: 'Acknowledge' }));

    expect(await screen.findByText('Acknowledged: waiting to send')).toBeTruthy();
    expect(screen.queryByTestId('alert-banner')).toBeNull();
    const records = await outboxRecords();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      kind: 'alert-acknowledge',
      path: `/device/alerts/${alertId}/acknowledge`,
      body: { correctiveAction: 'Repair called' },
      employee_token: 'employee-token-of-ana',
      state: 'waiting',
    });
    const played = alarmsPlayed();
    await act(() => vi.advanceTimersByTimeAsync(12_000));
    expect(alarmsPlayed()).toBe(played);
  });

  it('a 409 already-acknowledged counts as done: nothing refused, and it says someone else did it', async () => {
    await openTestSession();
    let episode = buildEpisode();
    stubApi((call) => {
      if (call.method === 'POST') {
        // Marc acknowledged it on the back-office a moment before.
        episode = buildEpisode({
          acknowledgedAt: '2026-11-24T15:02:00Z',
          acknowledgedByName: 'Marc Petit',
          correctiveAction: 'Door closed',
        });
        return Response.json(
          { error: { code: 'alert/already-acknowledged', message: 'Already acknowledged.' } },
          { status: 409 },
        );
      }
      return listAnswer(() => [episode])(call);
    });
    const user = userEvent.setup();
    renderCenter({ isAudioOn: false });
    await user.click(await screen.findByRole('button', { name: 'Acknowledge' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Corrective action (required)'), 'Door shut');
    await user.click(within(dialog).getByRole('button', { name: 'Acknowledge' }));

    expect(
      await screen.findByText('Someone else had already acknowledged this alarm.'),
    ).toBeTruthy();
    expect(
      await screen.findByText('Already acknowledged by someone else: Marc Petit at 10:02'),
    ).toBeTruthy();
    expect(screen.queryByTestId('alert-banner')).toBeNull();
    expect(await outboxRecords()).toHaveLength(0);
  });
});
