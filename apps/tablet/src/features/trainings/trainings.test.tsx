import type { DeviceTraining } from '@mise/shared/trainings/schemas';
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
import { useEmployeeSession } from '../../shared/session/employee-session';
import { endSession, outboxRecords, testEmployee } from '../../test/factories';
import { WhoScreen } from '../who/who-screen';
import { RequiredTrainingsPrompt } from './required-trainings-prompt';
import { trainingSteps } from './training-results';
import { TrainingScreen } from './training-screen';
import { TrainingsScreen } from './trainings-screen';
import { TrainingsToDoBadge } from './use-trainings';

const ids = {
  store: '6b1b2c3d-5e6f-4a70-8b81-c2d3e4f5a601',
  hygiene: '6b1b2c3d-5e6f-4a70-8b81-c2d3e4f5a602',
  welcome: '6b1b2c3d-5e6f-4a70-8b81-c2d3e4f5a603',
  allergens: '6b1b2c3d-5e6f-4a70-8b81-c2d3e4f5a604',
  fire: '6b1b2c3d-5e6f-4a70-8b81-c2d3e4f5a605',
} as const;

type Section = DeviceTraining['sections'][number];

/** Section 1: one right answer. Section 2: two right answers (both must be ticked). */
const coldRoom: Section = {
  id: 's-cold',
  title: 'The cold room',
  attachment: null,
  quiz: {
    questions: [
      {
        id: 'q1',
        text: 'At what temperature is the cold room kept?',
        answers: [
          { id: 'q1-a', text: '8 °C', correct: false },
          { id: 'q1-b', text: '3 °C', correct: true },
        ],
      },
    ],
  },
};
const shelves: Section = {
  id: 's-shelves',
  title: 'Shelves',
  attachment: null,
  quiz: {
    questions: [
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
  },
};
/** A section to read only: no question. */
const readingOnly: Section = {
  id: 's-read',
  title: 'Who to call',
  attachment: null,
  quiz: { questions: [] },
};

function buildTraining(overrides: Partial<DeviceTraining> = {}): DeviceTraining {
  return {
    id: ids.hygiene,
    name: 'Hygiene basics',
    lang: 'en',
    type: 'database',
    required: true,
    category: 'Food safety',
    sections: [coldRoom, shelves],
    unread: true,
    completed_at: null,
    skipped_count: 0,
    ...overrides,
  };
}

const fire = buildTraining({
  id: ids.fire,
  name: 'Fire safety',
  category: null,
  sections: [readingOnly],
  unread: false,
  skipped_count: 1,
});
const welcome = buildTraining({
  id: ids.welcome,
  name: 'Welcome to the team',
  required: false,
  category: null,
  sections: [readingOnly],
  unread: false,
  skipped_count: 2,
});
const allergens = buildTraining({
  id: ids.allergens,
  name: 'Allergens',
  sections: [readingOnly],
  unread: false,
  completed_at: '2026-11-20T09:15:00.000Z',
});

/** The list answered by the server; every step offline (kept in the outbox). */
const listOnly = (items: DeviceTraining[]) => listThenOffline('/device/trainings', items);

/** The two screens as the app shows them, following the tablet's navigation. */
function Screens() {
  const current = useScreen();
  if (current.name === 'training') return <TrainingScreen trainingId={current.trainingId} />;
  if (current.name === 'trainings') return <TrainingsScreen />;
  return <h1>Today</h1>;
}

/** As the paired shell: "Who is working?" until identified, then the prompt over the screen. */
function Shell() {
  const session = useEmployeeSession();
  if (!session) return <WhoScreen />;
  return (
    <>
      <RequiredTrainingsPrompt />
      <Screens />
    </>
  );
}

function renderWith(ui: React.ReactElement) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(['employees'], {
    items: [{ ...testEmployee, has_secret: true, using_password: true }],
  });
  return render(<QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>);
}

const cardNames = () =>
  within(screen.getByRole('list'))
    .getAllByRole('button')
    .map((card) => card.querySelector('.learning-card__name')?.textContent);

async function identify(user: ReturnType<typeof userEvent.setup>, pin = '1234') {
  await user.click(await screen.findByRole('button', { name: /Ana Lopes/ }));
  for (const digit of pin) await user.click(screen.getByRole('button', { name: `Digit ${digit}` }));
}

setUpLearningTests({
  storeId: ids.store,
  screen: { name: 'trainings' },
  stepsQueued: trainingSteps.stepsQueued,
});

describe('Trainings list', () => {
  it("lists the employee's trainings, required ones not done first, with their markers", async () => {
    // Out of the server's order on purpose: the tablet keeps the rule itself.
    const calls = fakeNetwork(listOnly([allergens, welcome, buildTraining(), fire]));
    renderWith(
      <>
        <button type="button">
          Trainings
          <TrainingsToDoBadge />
        </button>
        <Screens />
      </>,
    );

    const hygiene = await screen.findByRole('button', { name: /Hygiene basics/ });
    expect(cardNames()).toEqual([
      'Hygiene basics',
      'Fire safety',
      'Welcome to the team',
      'Allergens',
    ]);
    expect(within(hygiene).getByText('Required')).toBeTruthy();
    expect(within(hygiene).getByText('Unread')).toBeTruthy();
    expect(within(hygiene).getByText('Food safety')).toBeTruthy();
    expect(within(hygiene).getByText('2 sections')).toBeTruthy();
    const team = screen.getByRole('button', { name: /Welcome to the team/ });
    expect(within(team).queryByText('Required')).toBeNull();
    expect(within(team).queryByText('Unread')).toBeNull();
    expect(within(team).getByText('Put off 2 times')).toBeTruthy();
    const done = screen.getByRole('button', { name: /Allergens/ });
    expect(within(done).getByText('Completed')).toBeTruthy();
    // Required and not done, or unread: hygiene and fire safety.
    expect(screen.getByRole('button', { name: 'Trainings 2 to do' })).toBeTruthy();

    const list = calls.find((call) => call.url === '/api/device/trainings');
    expect(list?.headers['x-employee-token']).toBe('employee-token-of-ana');
    expect(list?.headers.authorization).toBe('Bearer device-token');
  });

  it('says when there is no training', async () => {
    fakeNetwork(listOnly([]));
    renderWith(<Screens />);
    expect(await screen.findByText('No training for you at the moment.')).toBeTruthy();
  });
});

describe('Required trainings at identification', () => {
  const authenticated = (token: string) =>
    json(200, {
      status: 'ok',
      employee: testEmployee,
      employee_token: token,
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    });

  it('lists the required trainings not done after identifying; Start opens the first', async () => {
    await endSession();
    navigate({ name: 'today' });
    const calls = fakeNetwork((call) =>
      call.url.endsWith('/authenticate')
        ? authenticated('token-after-pin')
        : listOnly([buildTraining(), fire, welcome, allergens])(call),
    );
    const user = userEvent.setup();
    renderWith(<Shell />);
    await identify(user);

    const prompt = await screen.findByRole('dialog', { name: '2 required trainings to follow' });
    expect(
      within(prompt)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Hygiene basics', 'Fire safety']);
    expect(
      calls.find((call) => call.url === '/api/device/trainings')?.headers['x-employee-token'],
    ).toBe('token-after-pin');

    await user.click(within(prompt).getByRole('button', { name: 'Start' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Hygiene basics' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('"Later" closes the prompt without recording anything; it comes back at the next identification', async () => {
    await endSession();
    navigate({ name: 'today' });
    let pins = 0;
    fakeNetwork((call) =>
      call.url.endsWith('/authenticate')
        ? authenticated(`token-${++pins}`)
        : listOnly([buildTraining(), welcome])(call),
    );
    const user = userEvent.setup();
    renderWith(<Shell />);
    await identify(user);
    const prompt = await screen.findByRole('dialog', { name: 'A required training to follow' });
    await user.click(within(prompt).getByRole('button', { name: 'Later' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Today' })).toBeTruthy();
    expect(await outboxRecords()).toEqual([]);

    await endSession();
    await identify(user);
    expect(
      await screen.findByRole('dialog', { name: 'A required training to follow' }),
    ).toBeTruthy();
  });

  it('asks nothing when every required training is done', async () => {
    await endSession();
    navigate({ name: 'today' });
    const calls = fakeNetwork((call) =>
      call.url.endsWith('/authenticate')
        ? authenticated('token-after-pin')
        : listOnly([welcome, allergens])(call),
    );
    const user = userEvent.setup();
    renderWith(<Shell />);
    await identify(user);
    await waitFor(() =>
      expect(calls.some((call) => call.url === '/api/device/trainings')).toBe(true),
    );
    await screen.findByRole('heading', { name: 'Today' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('Following a training', () => {
  it('counts the time across the sections only while shown and focused; Later sends it as a skip', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = new Date('2026-11-25T10:00:00Z').getTime();
    vi.setSystemTime(start);
    const hasFocus = vi.spyOn(document, 'hasFocus').mockReturnValue(true);
    fakeNetwork(listOnly([buildTraining({ unread: false, skipped_count: 1 })]));
    const user = userEvent.setup();
    renderWith(<Screens />);
    await user.click(await screen.findByRole('button', { name: /Hygiene basics/ }));
    await screen.findByRole('heading', { level: 2, name: 'The cold room' });

    vi.setSystemTime(start + 30_000); // 30 s read
    setVisibility('hidden');
    vi.setSystemTime(start + 90_000); // 60 s in another app: not counted
    setVisibility('visible');
    vi.setSystemTime(start + 100_000); // 10 s read
    await user.click(screen.getByRole('button', { name: 'Next section' }));
    expect(screen.getByRole('heading', { level: 2, name: 'Shelves' })).toBeTruthy();
    vi.setSystemTime(start + 120_000); // 20 s on the second section
    hasFocus.mockReturnValue(false);
    window.dispatchEvent(new Event('blur'));
    vi.setSystemTime(start + 420_000); // 300 s behind another window: not counted
    hasFocus.mockReturnValue(true);
    window.dispatchEvent(new Event('focus'));
    vi.setSystemTime(start + 425_000); // 5 s read

    await user.click(screen.getByRole('button', { name: 'Later' }));

    const card = await screen.findByRole('button', { name: /Hygiene basics/ });
    expect(within(card).getByText('Put off 2 times')).toBeTruthy();
    expect(within(card).getByText('Waiting to send')).toBeTruthy();
    const records = await outboxRecords();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      kind: 'training-result',
      path: `/device/trainings/${ids.hygiene}/result`,
      state: 'waiting',
      employee_token: 'employee-token-of-ana',
      body: { action: 'skip', time_spent: 65 },
    });
    expect(records[0]?.body.idempotency_key).toBe(records[0]?.idempotency_key);
  });

  it('leaving an unread training marks it read with the time spent', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = new Date('2026-11-25T10:00:00Z').getTime();
    vi.setSystemTime(start);
    fakeNetwork(listOnly([buildTraining()]));
    const user = userEvent.setup();
    renderWith(<Screens />);
    await user.click(await screen.findByRole('button', { name: /Hygiene basics/ }));
    await screen.findByRole('heading', { level: 2, name: 'The cold room' });
    vi.setSystemTime(start + 12_000);

    await user.click(screen.getByRole('button', { name: 'Back' }));
    const card = await screen.findByRole('button', { name: /Hygiene basics/ });
    await waitFor(async () => expect(await outboxRecords()).toHaveLength(1));
    expect((await outboxRecords())[0]?.body).toMatchObject({ action: 'view', time_spent: 12 });
    expect(within(card).queryByText('Unread')).toBeNull();
  });

  it('shows a wrong answer of section 2 as wrong, ticks only the right section, and sends nothing', async () => {
    const calls = fakeNetwork(listOnly([buildTraining()]));
    const user = userEvent.setup();
    navigate({ name: 'training', trainingId: ids.hygiene });
    renderWith(<Screens />);

    const cold = await screen.findByRole('group', {
      name: 'At what temperature is the cold room kept?',
    });
    await user.click(within(cold).getByRole('checkbox', { name: '3 °C' }));
    await user.click(screen.getByRole('button', { name: 'Check' }));
    expect(within(cold).getByText('✓ Right')).toBeTruthy();
    const sections = screen.getByRole('navigation', { name: 'Sections' });
    expect(within(sections).getByRole('button', { name: 'The cold room (done)' })).toBeTruthy();

    await user.click(within(sections).getByRole('button', { name: 'Shelves' }));
    expect(
      within(sections).getByRole('button', { name: 'Shelves' }).getAttribute('aria-current'),
    ).toBe('step');
    const shelf = screen.getByRole('group', { name: 'Which products go on the bottom shelf?' });
    // Only one of the two right answers: wrong.
    await user.click(within(shelf).getByRole('checkbox', { name: 'Raw meat' }));
    await user.click(screen.getByRole('button', { name: 'Check' }));
    expect(within(shelf).getByText('✗ Wrong answer')).toBeTruthy();
    const highlighted = within(shelf)
      .getAllByText('Right answer')
      .map((badge) => badge.closest('li')?.textContent);
    expect(highlighted).toEqual(['Raw meatRight answer', 'Raw fishRight answer']);
    expect(within(sections).getByRole('button', { name: 'Shelves' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Finish' })).toBeNull();
    expect(
      screen.getByText('1 of 2 sections right: answer every quiz right to finish.'),
    ).toBeTruthy();

    // Section 1 keeps its answers when the employee goes back to it.
    await user.click(screen.getByRole('button', { name: 'Previous section' }));
    expect(
      (
        within(
          screen.getByRole('group', { name: 'At what temperature is the cold room kept?' }),
        ).getByRole('checkbox', { name: '3 °C' }) as HTMLInputElement
      ).checked,
    ).toBe(true);

    expect(await outboxRecords()).toEqual([]);
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('sends every section right once as the completion: kept offline, delivered when the network returns', async () => {
    fakeNetwork(listOnly([buildTraining(), welcome]));
    const user = userEvent.setup();
    renderWith(<Screens />);
    await user.click(await screen.findByRole('button', { name: /Hygiene basics/ }));
    const cold = await screen.findByRole('group', {
      name: 'At what temperature is the cold room kept?',
    });
    await user.click(within(cold).getByRole('checkbox', { name: '3 °C' }));
    await user.click(screen.getByRole('button', { name: 'Check' }));
    await user.click(screen.getByRole('button', { name: 'Next section' }));
    const shelf = screen.getByRole('group', { name: 'Which products go on the bottom shelf?' });
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
      kind: 'training-result',
      state: 'waiting',
      body: {
        action: 'complete',
        answers: { 's-cold': { q1: ['q1-b'] }, 's-shelves': { q2: ['q2-a', 'q2-c'] } },
      },
    });
    const body = kept[0]!.body;

    // The list shows it completed (and moved after the others) before the server knows.
    await user.click(screen.getByRole('button', { name: 'Back to the trainings' }));
    await waitFor(() => expect(cardNames()).toEqual(['Welcome to the team', 'Hygiene basics']));
    const card = screen.getByRole('button', { name: /Hygiene basics/ });
    expect(within(card).getByText('Completed')).toBeTruthy();
    expect(within(card).getByText('Waiting to send')).toBeTruthy();

    const completed = buildTraining({ unread: false, completed_at: '2026-11-25T10:02:00.000Z' });
    const calls = fakeNetwork((call) => {
      if (call.method === 'POST') return json(200, { training: completed });
      return json(200, { items: [welcome, completed] });
    });
    await networkReturned();

    await waitFor(() => expect(within(card).queryByText('Waiting to send')).toBeNull());
    expect(within(card).getByText('Completed')).toBeTruthy();
    expect(await outboxRecords()).toEqual([]);
    const posts = calls.filter((call) => call.method === 'POST');
    expect(posts.map((call) => [call.url, call.body])).toEqual([
      [`/api/device/trainings/${ids.hygiene}/result`, body],
    ]);
  });

  it('counts a section without questions as right: Finish at once', async () => {
    fakeNetwork(listOnly([fire]));
    const user = userEvent.setup();
    navigate({ name: 'training', trainingId: ids.fire });
    renderWith(<Screens />);
    expect(await screen.findByText('No document in this section.')).toBeTruthy();
    expect(screen.queryByRole('group')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Finish' }));
    expect(await screen.findByRole('heading', { name: 'Done' })).toBeTruthy();
    const records = await outboxRecords();
    expect(records.map((record) => record.body)).toMatchObject([
      { action: 'complete', answers: { 's-read': {} } },
    ]);
  });

  it("shows a section's picture with the device token", async () => {
    const picture = {
      name: 'cold-room.jpg',
      type: 'image' as const,
      path: `databases/x/training/${ids.hygiene}/cold-room.jpg`,
      url: `/api/files/databases/x/training/${ids.hygiene}/cold-room.jpg`,
    };
    const calls = fakeNetwork((call) =>
      call.url === picture.url
        ? new Response(new Blob(['jpeg'], { type: 'image/jpeg' }), { status: 200 })
        : listOnly([buildTraining({ sections: [{ ...coldRoom, attachment: picture }, shelves] })])(
            call,
          ),
    );
    navigate({ name: 'training', trainingId: ids.hygiene });
    renderWith(<Screens />);
    const open = await screen.findByRole('button', {
      name: 'View the picture full screen: cold-room.jpg',
    });
    await waitFor(() => expect(open.querySelector('img')?.getAttribute('src')).toMatch(/^blob:/));
    expect(calls.find((call) => call.url === picture.url)?.headers).toEqual({
      authorization: 'Bearer device-token',
    });
  });
});
