import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readPicture } from '../../shared/outbox/outbox';
import { openSession } from '../../shared/session/employee-session';
import { localDb } from '../../shared/storage/local-db';
import { ClockScreen } from './clock-screen';
import { nextIsIn, openShiftHours } from './last-punch';

const hour = 3_600_000;
const employee = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Lucas',
  surname: 'Martin',
  role_id: null,
  illustration_url: null,
  using_password: true,
  has_secret: true,
};

type Answer = (url: string, init?: RequestInit) => Response | undefined;

/** Every request fails as without network, except those `answer` answers. */
function stubNetwork(answer: Answer = () => undefined) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = answer(String(input), init);
    if (!response) throw new TypeError('Failed to fetch');
    return response;
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderScreen() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <ClockScreen />
    </QueryClientProvider>,
  );
}

/** Takes the selfie through the camera's file fallback (no camera in the test browser). */
async function takeSelfie(user: ReturnType<typeof userEvent.setup>) {
  const picker = await screen.findByLabelText('Choose a picture');
  await user.upload(picker, new File(['selfie'], 'selfie.jpg', { type: 'image/jpeg' }));
  await user.click(await screen.findByRole('button', { name: 'Use this picture' }));
}

beforeEach(async () => {
  Object.defineProperty(navigator, 'mediaDevices', { value: undefined, configurable: true });
  vi.stubGlobal('createImageBitmap', async () => ({
    width: 640,
    height: 480,
    close: () => undefined,
  }));
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({
    drawImage: () => undefined,
  } as unknown as CanvasRenderingContext2D);
  vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation((callback) =>
    callback(new Blob(['jpeg'], { type: 'image/jpeg' })),
  );
  await openSession({
    employee,
    token: 'employee-token',
    expires_at: new Date(Date.now() + hour).toISOString(),
  });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the next entry alternates', () => {
  it('is an entrance after an exit, nothing, or an entrance left open too long', () => {
    const now = Date.parse('2026-11-24T06:00:00Z');
    expect(nextIsIn(null, now)).toBe(true);
    expect(nextIsIn({ is_in: false, at: now - hour }, now)).toBe(true);
    // A night shift: in at 22:00, out proposed at 06:00.
    expect(nextIsIn({ is_in: true, at: now - 8 * hour }, now)).toBe(false);
    expect(nextIsIn({ is_in: true, at: now - openShiftHours * hour }, now)).toBe(true);
  });
});

describe('ClockScreen', () => {
  it('after a previous entrance, clocks out with a selfie through the outbox', async () => {
    // 09:40 in New York (the test browser's zone, no store context loaded).
    vi.setSystemTime(new Date('2026-11-24T14:40:00Z'));
    const clockedInAt = new Date(Date.now() - 4 * hour).toISOString();
    const fetchMock = stubNetwork((url, init) =>
      url === '/api/device/punches/last' && (init?.method ?? 'GET') === 'GET'
        ? Response.json({
            entry: {
              id: '00000000-0000-4000-8000-0000000000aa',
              employee_id: employee.id,
              is_in: true,
              timestamp: clockedInAt,
              timestamp_modified: null,
              day: clockedInAt.slice(0, 10),
              source: 'device',
              selfie_url: null,
              version: 0,
            },
          })
        : undefined,
    );
    const user = userEvent.setup();
    renderScreen();
    const button = await screen.findByRole('button', { name: 'Clock out' });
    expect(screen.queryByRole('button', { name: 'Clock in' })).toBeNull();
    const lastCall = fetchMock.mock.calls.find(
      ([url]) => String(url) === '/api/device/punches/last',
    );
    expect(new Headers(lastCall?.[1]?.headers).get('x-employee-token')).toBe('employee-token');

    await user.click(button);
    await takeSelfie(user);
    expect((await screen.findByTestId('clock-confirmation')).textContent).toBe(
      'Lucas Martin clocked out at 09:40.',
    );

    const records = await (await localDb()).getAll('outbox');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      kind: 'punch',
      path: '/device/punches',
      employee_token: 'employee-token',
      employee_name: 'Lucas Martin',
      task_id: null,
      state: 'waiting',
    });
    expect(records[0]?.body.is_in).toBe(false);
    // The time it was made, on the tablet's clock: the server keeps it when the punch arrives late.
    expect(Date.now() - Date.parse(String(records[0]?.body.clocked_timestamp))).toBeLessThan(
      60_000,
    );
    const selfie = String(records[0]?.body.selfie_path);
    expect(selfie).toMatch(/^local:[0-9a-f-]{36}$/);
    const picture = await readPicture(selfie);
    expect(picture?.type).toBe('image/jpeg');
    expect(picture?.data.byteLength).toBeGreaterThan(0);
    // Never sent: the selfie upload failed for want of network, the punch waits.
    expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/device/punches')).toBe(false);
  });

  it('offline, alternates from the entries made on this tablet', async () => {
    stubNetwork();
    const user = userEvent.setup();
    renderScreen();
    await user.click(await screen.findByRole('button', { name: 'Clock in' }));
    await takeSelfie(user);
    await screen.findByText(/Lucas Martin clocked in at/);
    cleanup();

    renderScreen();
    expect(await screen.findByRole('button', { name: 'Clock out' })).toBeTruthy();
    expect(screen.getByTestId('clock-last').textContent).toMatch(/^Last entry: clocked in/);
    const records = await (await localDb()).getAll('outbox');
    expect(records.map((record) => record.body.is_in)).toEqual([true]);
  });
});
