import type { DeviceCommunication } from '@mise/shared/communications/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { navigate, useScreen } from '../../app/navigation';
import {
  fakeNetwork,
  json,
  listThenOffline,
  setUpLearningTests,
  setVisibility,
} from '../../shared/learning/test-support';
import { networkReturned } from '../../shared/outbox/outbox';
import { outboxRecords } from '../../test/factories';
import { communicationSteps } from './communication-results';
import { CommunicationScreen } from './communication-screen';
import { CommunicationsScreen } from './communications-screen';
import { UnreadCommunicationsBadge } from './use-communications';

const ids = {
  store: '4a1b2c3d-5e6f-4a70-8b81-c2d3e4f5a601',
  hygiene: '4a1b2c3d-5e6f-4a70-8b81-c2d3e4f5a602',
  menu: '4a1b2c3d-5e6f-4a70-8b81-c2d3e4f5a603',
  safety: '4a1b2c3d-5e6f-4a70-8b81-c2d3e4f5a604',
} as const;

/** Two questions: one right answer, then two right answers (both must be ticked). */
const quiz: DeviceCommunication['quiz'] = {
  questions: [
    {
      id: 'q1',
      text: 'At what temperature is the cold room kept?',
      answers: [
        { id: 'q1-a', text: '8 °C', correct: false },
        { id: 'q1-b', text: '3 °C', correct: true },
      ],
    },
    {
      id: 'q2',
      text: 'Which products go on the bottom shelf?',
      answers: [
        { id: 'q2-a', text: 'Raw meat', correct: true },
        { id: 'q2-b', text: 'Desserts', correct: false },
        { id: 'q2-c', text: 'Raw fish', correct: true },
      ],
    },
  ],
};

function buildCommunication(overrides: Partial<DeviceCommunication> = {}): DeviceCommunication {
  return {
    id: ids.hygiene,
    name: 'New cold room rules',
    start: '2026-11-19T23:00:00.000Z',
    end: '2026-12-10T22:59:59.000Z',
    attachment: null,
    quiz,
    unread: true,
    completed_at: null,
    skipped_count: 0,
    ...overrides,
  };
}

const menuChange = buildCommunication({
  id: ids.menu,
  name: 'Winter menu',
  start: '2026-11-09T23:00:00.000Z',
  end: '2026-11-30T22:59:59.000Z',
  quiz: { questions: [] },
  unread: false,
  skipped_count: 2,
});
const safety = buildCommunication({
  id: ids.safety,
  name: 'Fire drill',
  start: '2026-11-14T23:00:00.000Z',
  quiz: { questions: [] },
  unread: false,
  completed_at: '2026-11-20T09:15:00.000Z',
});

/** The list answered by the server; every step offline (kept in the outbox). */
const listOnly = (items: DeviceCommunication[]) => listThenOffline('/device/communications', items);

/** The two screens as the app shows them, following the tablet's navigation. */
function Screens() {
  const current = useScreen();
  return current.name === 'communication' ? (
    <CommunicationScreen communicationId={current.communicationId} />
  ) : (
    <CommunicationsScreen />
  );
}

function renderScreens() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <Screens />
    </QueryClientProvider>,
  );
}

const cardNames = () =>
  within(screen.getByRole('list'))
    .getAllByRole('button')
    .map((card) => card.querySelector('.learning-card__name')?.textContent);

setUpLearningTests({
  storeId: ids.store,
  screen: { name: 'communications' },
  stepsQueued: communicationSteps.stepsQueued,
});

describe('Communications list', () => {
  it("lists the employee's communications, unread ones marked, with the employee's token", async () => {
    const calls = fakeNetwork(listOnly([buildCommunication(), menuChange, safety]));
    renderScreens();

    const first = await screen.findByRole('button', { name: /New cold room rules/ });
    expect(cardNames()).toEqual(['New cold room rules', 'Winter menu', 'Fire drill']);
    expect(within(first).getByText('Unread')).toBeTruthy();
    expect(within(first).getByText('From 20/11/2026 to 10/12/2026')).toBeTruthy();
    const menu = screen.getByRole('button', { name: /Winter menu/ });
    expect(within(menu).queryByText('Unread')).toBeNull();
    expect(within(menu).getByText('Put off 2 times')).toBeTruthy();
    const fire = screen.getByRole('button', { name: /Fire drill/ });
    expect(within(fire).getByText('Completed')).toBeTruthy();
    expect(within(fire).queryByText('Unread')).toBeNull();

    const list = calls.find((call) => call.url === '/api/device/communications');
    expect(list?.headers['x-employee-token']).toBe('employee-token-of-ana');
    expect(list?.headers.authorization).toBe('Bearer device-token');
  });

  it('keeps the server order rule (not completed first, then the newest) and counts the unread', async () => {
    fakeNetwork(
      listOnly([safety, menuChange, buildCommunication(), { ...menuChange, id: ids.store }]),
    );
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={queryClient}>
        <button type="button">
          Communications
          <UnreadCommunicationsBadge />
        </button>
        <CommunicationsScreen />
      </QueryClientProvider>,
    );
    await screen.findByRole('button', { name: /New cold room rules/ });
    expect(cardNames()).toEqual([
      'New cold room rules',
      'Winter menu',
      'Winter menu',
      'Fire drill',
    ]);
    expect(screen.getByRole('button', { name: 'Communications 1 unread' })).toBeTruthy();
  });

  it('says when there is nothing to read', async () => {
    fakeNetwork(listOnly([]));
    renderScreens();
    expect(await screen.findByText('No communication for you at the moment.')).toBeTruthy();
  });
});

describe('Reading a communication', () => {
  it('counts the time only while the page is shown and focused; Later sends it as a skip', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = new Date('2026-11-25T10:00:00Z').getTime();
    vi.setSystemTime(start);
    const hasFocus = vi.spyOn(document, 'hasFocus').mockReturnValue(true);
    fakeNetwork(listOnly([menuChange]));
    const user = userEvent.setup();
    renderScreens();
    await user.click(await screen.findByRole('button', { name: /Winter menu/ }));
    await screen.findByRole('heading', { level: 1, name: 'Winter menu' });

    vi.setSystemTime(start + 30_000); // 30 s read
    setVisibility('hidden');
    vi.setSystemTime(start + 90_000); // 60 s in another app: not counted
    setVisibility('visible');
    vi.setSystemTime(start + 100_000); // 10 s read
    hasFocus.mockReturnValue(false);
    window.dispatchEvent(new Event('blur'));
    vi.setSystemTime(start + 400_000); // 300 s behind another window: not counted
    hasFocus.mockReturnValue(true);
    window.dispatchEvent(new Event('focus'));
    vi.setSystemTime(start + 405_000); // 5 s read

    await user.click(screen.getByRole('button', { name: 'Later' }));

    // Back on the list, the skip shows at once (it waits in the outbox: no network).
    const card = await screen.findByRole('button', { name: /Winter menu/ });
    expect(within(card).getByText('Put off 3 times')).toBeTruthy();
    expect(within(card).getByText('Waiting to send')).toBeTruthy();
    const records = await outboxRecords();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      kind: 'communication-result',
      path: `/device/communications/${ids.menu}/result`,
      state: 'waiting',
      employee_token: 'employee-token-of-ana',
      body: { action: 'skip', time_spent: 45 },
    });
    expect(records[0]?.body.idempotency_key).toBe(records[0]?.idempotency_key);
  });

  it('leaving an unread communication marks it read with the time spent', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = new Date('2026-11-25T10:00:00Z').getTime();
    vi.setSystemTime(start);
    fakeNetwork(listOnly([buildCommunication()]));
    const user = userEvent.setup();
    renderScreens();
    await user.click(await screen.findByRole('button', { name: /New cold room rules/ }));
    await screen.findByRole('button', { name: 'Answer the quiz' });
    vi.setSystemTime(start + 12_000);

    await user.click(screen.getByRole('button', { name: 'Back' }));
    const card = await screen.findByRole('button', { name: /New cold room rules/ });
    await waitFor(async () => expect(await outboxRecords()).toHaveLength(1));
    expect((await outboxRecords())[0]?.body).toMatchObject({ action: 'view', time_spent: 12 });
    expect(within(card).queryByText('Unread')).toBeNull();
  });

  it('shows a wrong quiz answer as wrong, with the right answers, and sends nothing', async () => {
    const calls = fakeNetwork(listOnly([buildCommunication()]));
    const user = userEvent.setup();
    navigate({ name: 'communication', communicationId: ids.hygiene });
    renderScreens();
    await user.click(await screen.findByRole('button', { name: 'Answer the quiz' }));

    const cold = screen.getByRole('group', { name: 'At what temperature is the cold room kept?' });
    const shelf = screen.getByRole('group', { name: 'Which products go on the bottom shelf?' });
    await user.click(within(cold).getByRole('checkbox', { name: '3 °C' }));
    // Only one of the two right answers: wrong.
    await user.click(within(shelf).getByRole('checkbox', { name: 'Raw meat' }));
    await user.click(screen.getByRole('button', { name: 'Check' }));

    expect(within(cold).getByText('✓ Right')).toBeTruthy();
    expect(within(shelf).getByText('✗ Wrong answer')).toBeTruthy();
    const highlighted = within(shelf)
      .getAllByText('Right answer')
      .map((badge) => badge.closest('li')?.textContent);
    expect(highlighted).toEqual(['Raw meatRight answer', 'Raw fishRight answer']);
    expect(screen.getByRole('status').textContent).toBe(
      '1 of 2 questions right: correct the wrong ones and check again.',
    );
    expect(screen.queryByRole('button', { name: 'Finish' })).toBeNull();

    // A change asks for a new check: the verdicts go.
    await user.click(within(shelf).getByRole('checkbox', { name: 'Desserts' }));
    expect(within(shelf).queryByText('✗ Wrong answer')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Check' }));
    expect(within(shelf).getByText('✗ Wrong answer')).toBeTruthy();

    expect(await outboxRecords()).toEqual([]);
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('sends a right quiz once as the completion: kept offline, delivered when the network returns', async () => {
    fakeNetwork(listOnly([buildCommunication(), menuChange]));
    const user = userEvent.setup();
    renderScreens();
    await user.click(await screen.findByRole('button', { name: /New cold room rules/ }));
    await user.click(await screen.findByRole('button', { name: 'Answer the quiz' }));
    const cold = screen.getByRole('group', { name: 'At what temperature is the cold room kept?' });
    const shelf = screen.getByRole('group', { name: 'Which products go on the bottom shelf?' });
    await user.click(within(cold).getByRole('checkbox', { name: '3 °C' }));
    await user.click(within(shelf).getByRole('checkbox', { name: 'Raw fish' }));
    await user.click(within(shelf).getByRole('checkbox', { name: 'Raw meat' }));
    await user.click(screen.getByRole('button', { name: 'Check' }));
    expect(screen.getByRole('status').textContent).toBe('All answers are right.');
    await user.dblClick(screen.getByRole('button', { name: 'Finish' }));

    expect(
      await screen.findByText(
        'Saved on this tablet: it will be sent as soon as the connection returns.',
      ),
    ).toBeTruthy();
    const kept = await outboxRecords();
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({
      kind: 'communication-result',
      state: 'waiting',
      body: { action: 'complete', answers: { q1: ['q1-b'], q2: ['q2-a', 'q2-c'] } },
    });
    const body = kept[0]!.body;

    // The list shows it completed (and moved after the others) before the server knows.
    await user.click(screen.getByRole('button', { name: 'Back to the communications' }));
    await waitFor(() => expect(cardNames()).toEqual(['Winter menu', 'New cold room rules']));
    const card = screen.getByRole('button', { name: /New cold room rules/ });
    expect(within(card).getByText('Completed')).toBeTruthy();
    expect(within(card).getByText('Waiting to send')).toBeTruthy();

    const completed = buildCommunication({
      unread: false,
      completed_at: '2026-11-25T10:02:00.000Z',
    });
    const calls = fakeNetwork((call) => {
      if (call.method === 'POST') return json(200, { communication: completed });
      return json(200, { items: [menuChange, completed] });
    });
    await networkReturned();

    await waitFor(() => expect(within(card).queryByText('Waiting to send')).toBeNull());
    expect(within(card).getByText('Completed')).toBeTruthy();
    expect(await outboxRecords()).toEqual([]);
    const posts = calls.filter((call) => call.method === 'POST');
    expect(posts.map((call) => [call.url, call.body])).toEqual([
      [`/api/device/communications/${ids.hygiene}/result`, body],
    ]);
  });

  it('completes a communication without a quiz with "Mark as read"', async () => {
    fakeNetwork(listOnly([menuChange]));
    const user = userEvent.setup();
    navigate({ name: 'communication', communicationId: ids.menu });
    renderScreens();
    expect(screen.queryByRole('button', { name: 'Answer the quiz' })).toBeNull();
    await user.click(await screen.findByRole('button', { name: 'Mark as read' }));
    expect(await screen.findByRole('heading', { name: 'Done' })).toBeTruthy();
    const records = await outboxRecords();
    expect(records.map((record) => record.body.action)).toEqual(['complete']);
    expect(records[0]?.body).not.toHaveProperty('answers');
  });

  it('shows a picture with the device token and opens it full screen', async () => {
    const picture = {
      name: 'cold-room.jpg',
      type: 'image' as const,
      path: `communications/${ids.hygiene}/cold-room.jpg`,
      url: `/api/files/communications/${ids.hygiene}/cold-room.jpg`,
    };
    const calls = fakeNetwork((call) =>
      call.url === picture.url
        ? new Response(new Blob(['jpeg'], { type: 'image/jpeg' }), { status: 200 })
        : listOnly([buildCommunication({ attachment: picture })])(call),
    );
    const user = userEvent.setup();
    navigate({ name: 'communication', communicationId: ids.hygiene });
    renderScreens();
    const open = await screen.findByRole('button', {
      name: 'View the picture full screen: cold-room.jpg',
    });
    expect(open.querySelector('img')?.getAttribute('src')).toMatch(/^blob:/);
    expect(calls.find((call) => call.url === picture.url)?.headers).toEqual({
      authorization: 'Bearer device-token',
    });
    await user.click(open);
    const viewer = screen.getByRole('dialog', { name: 'cold-room.jpg' });
    expect(within(viewer).getByRole('img', { name: 'cold-room.jpg' })).toBeTruthy();
    await user.click(within(viewer).getByRole('button', { name: /Close/ }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('plays a video, read with the device token, in a player with controls', async () => {
    const video = {
      name: 'training.mp4',
      type: 'video' as const,
      path: `communications/${ids.hygiene}/training.mp4`,
      url: `/api/files/communications/${ids.hygiene}/training.mp4`,
    };
    fakeNetwork((call) =>
      call.url === video.url
        ? new Response(new Blob(['mp4'], { type: 'video/mp4' }), { status: 200 })
        : listOnly([buildCommunication({ attachment: video })])(call),
    );
    const user = userEvent.setup();
    navigate({ name: 'communication', communicationId: ids.hygiene });
    const view = renderScreens();
    await user.click(await screen.findByRole('button', { name: 'Play the video' }));
    await waitFor(() => expect(view.container.querySelector('video')).not.toBeNull());
    const player = view.container.querySelector('video')!;
    expect(player.hasAttribute('controls')).toBe(true);
    expect(player.getAttribute('src')).toMatch(/^blob:/);
  });

  it('streams the video by its address when the service worker controls the page (it adds the token)', async () => {
    const video = {
      name: 'training.mp4',
      type: 'video' as const,
      path: `communications/${ids.hygiene}/training.mp4`,
      url: `/api/files/communications/${ids.hygiene}/training.mp4`,
    };
    const calls = fakeNetwork(listOnly([buildCommunication({ attachment: video })]));
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { controller: {}, addEventListener: vi.fn(), removeEventListener: vi.fn() },
    });
    try {
      const user = userEvent.setup();
      navigate({ name: 'communication', communicationId: ids.hygiene });
      const view = renderScreens();
      await user.click(await screen.findByRole('button', { name: 'Play the video' }));
      const player = view.container.querySelector('video')!;
      expect(player.getAttribute('src')).toBe(video.url);
      expect(player.getAttribute('preload')).toBe('metadata');
      expect(player.hasAttribute('controls')).toBe(true);
      expect(calls.some((call) => call.url === video.url)).toBe(false);
    } finally {
      Reflect.deleteProperty(navigator, 'serviceWorker');
    }
  });
});
