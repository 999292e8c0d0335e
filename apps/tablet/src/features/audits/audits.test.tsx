import type { AuditResult, AuditSection } from '@mise/shared/audits/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeviceContext } from '../../shared/api/types';
import { loadDevice, unpair } from '../../shared/device/device-state';
import { setDeviceToken } from '../../shared/device/device-token';
import { networkReturned } from '../../shared/outbox/outbox';
import { openSession } from '../../shared/session/employee-session';
import { writeValue } from '../../shared/storage/local-db';
import { endSession, outboxRecords, testEmployee } from '../../test/factories';
import { isAuditingShown } from './audit-access';
import { draftFromResult, readDraft, writeDraft } from './audit-draft';
import { AuditScreen } from './audit-screen';
import type { DeviceAudit } from './audits-api';
import { AuditsScreen } from './audits-screen';

vi.mock('../../shared/camera/camera-capture', () => ({
  CameraCapture: ({ onCapture }: { onCapture: (picture: Blob) => void }) => (
    <button
      type="button"
      onClick={() => onCapture(new Blob(['jpeg bytes'], { type: 'image/jpeg' }))}
    >
      Fake shutter
    </button>
  ),
}));

const ids = {
  store: '3f0c1a2b-4d5e-4f60-8a71-b2c3d4e5f601',
  database: '3f0c1a2b-4d5e-4f60-8a71-b2c3d4e5f602',
  role: '3f0c1a2b-4d5e-4f60-8a71-b2c3d4e5f603',
  audit: '3f0c1a2b-4d5e-4f60-8a71-b2c3d4e5f604',
  result: '3f0c1a2b-4d5e-4f60-8a71-b2c3d4e5f605',
} as const;

function buildContext(hiddenExtensions: DeviceContext['store']['hidden_extensions']) {
  return {
    store: {
      id: ids.store,
      name: 'Bistro Lumière',
      timezone_name: 'Europe/Paris',
      week_start: 1,
      hidden_modules: [],
      hidden_extensions: hiddenExtensions,
    },
    screen_saver_url: null,
    roles: [{ id: ids.role, name: 'Shift lead', features_permissions: { auditing: true } }],
    device: {
      id: '3f0c1a2b-4d5e-4f60-8a71-b2c3d4e5f606',
      store_id: ids.store,
      device_id: 'tablet-1',
      device_model: 'browser',
      name: 'Kitchen tablet',
      app_version: 'test',
      os_version: 'Linux',
      creation_timestamp: '2026-11-01T08:00:00Z',
      last_connexion: null,
      dark_mode: false,
      slow_internet_mode: false,
      audio_task_reminders: false,
      show_unscheduled_tasks: true,
      rotation_lock: false,
      prevent_screen_lock: false,
      calendar_types_order: [],
      linked_user: null,
      version: 1,
    },
    server_time: '2026-11-24T10:00:00Z',
  } satisfies DeviceContext;
}

/** Two sections: a yes/no whose "No" asks why (required), then a number and a photo. */
const sections: AuditSection[] = [
  {
    id: 'cold-room',
    title: 'Cold room',
    archived_at: null,
    questions: [
      {
        id: 'clean',
        text: 'Is the cold room clean?',
        type: 'yes_or_no',
        score: 1,
        required: true,
        conditions: [],
        archived_at: null,
        options: {
          multiple_selection: false,
          choices: [
            { id: 'clean-yes', text: 'true', score: 1, archived_at: null },
            { id: 'clean-no', text: 'false', score: 0, archived_at: null },
          ],
        },
      },
      {
        id: 'why',
        text: 'What needs cleaning?',
        type: 'text_input',
        score: null,
        required: true,
        conditions: [{ question_id: 'clean', value: false }],
        archived_at: null,
        options: { max_characters: 200 },
      },
    ],
  },
  {
    id: 'records',
    title: 'Records',
    archived_at: null,
    questions: [
      {
        id: 'temperature',
        text: 'Cold room temperature',
        type: 'number',
        score: 1,
        required: false,
        conditions: [],
        archived_at: null,
        options: { min_number: -5, max_number: 10 },
      },
      {
        id: 'photo',
        text: 'Photo of the shelves',
        type: 'file_upload',
        score: null,
        required: false,
        conditions: [],
        archived_at: null,
        options: { file_extensions: ['jpg', 'png'] },
      },
    ],
  },
];

function buildResult(overrides: Partial<AuditResult> = {}): AuditResult {
  return {
    id: ids.result,
    audit_id: ids.audit,
    database_id: ids.database,
    store: { id: ids.store, name: 'Bistro Lumière' },
    auditor: { kind: 'employee', id: testEmployee.id, name: 'Ana Lopes' },
    status: 'in_progress',
    start_date: '2026-11-24T09:00:00Z',
    end_date: null,
    score: null,
    max_score: null,
    has_pdf: false,
    path: `databases/${ids.database}/audits/${ids.audit}/audit_results/${ids.result}`,
    answered_count: 0,
    audit_name: 'Hygiene self-check',
    structure_version: 1,
    sections,
    answers: [],
    section_scores: [],
    version: 1,
    ...overrides,
  };
}

const deviceAudit: DeviceAudit = {
  id: ids.audit,
  database_id: ids.database,
  name: 'Hygiene self-check',
  active: true,
  self_evaluation: true,
  published: true,
  publishing_date: '2026-11-01T08:00:00Z',
  creation_date: '2026-10-30T08:00:00Z',
  section_count: 2,
  question_count: 4,
  in_progress_result_id: null,
  last_submitted_at: null,
};

type Call = { url: string; method: string; body: unknown };

/** The network as a test says: an answer per call, or 'offline'; every call is recorded. */
function fakeNetwork(answer: (call: Call) => Response | 'offline') {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const call: Call = {
      url,
      method: init.method ?? 'GET',
      body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
    };
    calls.push(call);
    const result = answer(call);
    if (result === 'offline') throw new TypeError('Failed to fetch');
    return result;
  });
  return calls;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

async function pairWith(context: DeviceContext) {
  await setDeviceToken('device-token');
  await writeValue('context', context);
  await loadDevice();
}

function renderScreen(ui: ReactElement) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>);
}

const question = (name: string) => screen.getByRole('region', { name });

beforeEach(async () => {
  await openSession({
    employee: { ...testEmployee, role_id: ids.role },
    token: 'employee-token-of-ana',
    expires_at: new Date(Date.now() + 3_600_000).toISOString(),
  });
});

afterEach(async () => {
  await endSession();
  await unpair();
  vi.unstubAllGlobals();
});

describe('Audits list', () => {
  it('is not offered, and asks nothing, when the store hides the auditing extension', async () => {
    const calls = fakeNetwork((call) =>
      call.url === '/api/device/audits' ? json(200, { items: [deviceAudit] }) : 'offline',
    );
    const hidden = buildContext(['documents', 'auditing']);
    await pairWith(hidden);
    expect(isAuditingShown(hidden)).toBe(false);
    expect(isAuditingShown(buildContext(['documents']))).toBe(true);

    renderScreen(<AuditsScreen />);
    expect(await screen.findByText('Audits are not available in this store.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Hygiene self-check/ })).toBeNull();
    expect(calls.filter((call) => call.url === '/api/device/audits')).toHaveLength(0);
  });

  it("lists the store's self-evaluation audits with the employee's token", async () => {
    const calls = fakeNetwork((call) =>
      call.url === '/api/device/audits'
        ? json(200, {
            items: [{ ...deviceAudit, last_submitted_at: '2026-11-20T15:30:00Z' }],
          })
        : 'offline',
    );
    await pairWith(buildContext([]));
    renderScreen(<AuditsScreen />);
    const card = await screen.findByRole('button', { name: /Hygiene self-check/ });
    expect(within(card).getByText('Sections: 2 · Questions: 4')).toBeTruthy();
    expect(within(card).getByText('Last submitted: 20/11/2026 16:30')).toBeTruthy();
    expect(within(card).getByText('Start')).toBeTruthy();
    expect(calls.some((call) => call.url === '/api/device/audits')).toBe(true);
  });

  it('shows the permission text when the server refuses the employee', async () => {
    fakeNetwork((call) =>
      call.url === '/api/device/audits'
        ? json(403, {
            error: {
              code: 'permission/denied',
              message: 'You do not have permission to execute this action.',
            },
          })
        : 'offline',
    );
    await pairWith(buildContext([]));
    renderScreen(<AuditsScreen />);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'You do not have permission to execute this action.',
    );
  });

  it('offline, a new audit needs the connection and a draft kept here reopens', async () => {
    fakeNetwork(() => 'offline');
    await pairWith(buildContext([]));
    await writeValue('cache:audits', { items: [deviceAudit] });
    const user = userEvent.setup();
    const view = renderScreen(<AuditsScreen />);
    await user.click(await screen.findByRole('button', { name: /Hygiene self-check/ }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Starting an audit needs a connection. Try again once the tablet is online.',
    );
    view.unmount();

    await writeDraft(draftFromResult(buildResult()));
    const pushState = vi.spyOn(history, 'pushState');
    renderScreen(<AuditsScreen />);
    const card = await screen.findByRole('button', { name: /Hygiene self-check/ });
    await waitFor(() => expect(within(card).getByText('Continue')).toBeTruthy());
    await user.click(card);
    await waitFor(() =>
      expect(pushState).toHaveBeenCalledWith(
        { screen: { name: 'audit', resultId: ids.result } },
        '',
      ),
    );
  });
});

describe('Performing an audit', () => {
  it('shows a question only while its condition holds', async () => {
    fakeNetwork(() => 'offline');
    await pairWith(buildContext([]));
    await writeDraft(draftFromResult(buildResult()));
    const user = userEvent.setup();
    renderScreen(<AuditScreen resultId={ids.result} />);

    const clean = await screen.findByRole('region', { name: 'Is the cold room clean?' });
    expect(
      screen.getByRole('progressbar', { name: 'Progress' }).getAttribute('aria-valuetext'),
    ).toBe('Section 1 of 2');
    expect(screen.queryByRole('region', { name: 'What needs cleaning?' })).toBeNull();

    await user.click(within(clean).getByRole('button', { name: 'No' }));
    const why = await screen.findByRole('region', { name: 'What needs cleaning?' });
    expect(within(why).getByRole('textbox', { name: 'What needs cleaning?' })).toBeTruthy();

    await user.click(within(clean).getByRole('button', { name: 'Yes' }));
    expect(screen.queryByRole('region', { name: 'What needs cleaning?' })).toBeNull();
    expect(within(clean).getByRole('button', { name: 'Yes' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
  });

  it('keeps the submission closed while a required question that shows is unanswered', async () => {
    fakeNetwork(() => 'offline');
    await pairWith(buildContext([]));
    await writeDraft(draftFromResult(buildResult()));
    const user = userEvent.setup();
    const view = renderScreen(<AuditScreen resultId={ids.result} />);

    await user.click(await screen.findByRole('button', { name: 'Next section' }));
    const submit = screen.getByRole('button', { name: 'Submit the audit' });
    expect(submit).toHaveProperty('disabled', true);
    expect(screen.getByText('Before submitting, answer:')).toBeTruthy();
    // The missing question leads back to its section.
    await user.click(screen.getByRole('button', { name: 'Is the cold room clean?' }));
    await user.click(
      within(question('Is the cold room clean?')).getByRole('button', { name: 'No' }),
    );
    // "No" makes the follow-up show, and it is required too.
    await user.click(screen.getByRole('button', { name: 'Next section' }));
    expect(screen.getByRole('button', { name: 'Submit the audit' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(screen.getByRole('button', { name: 'What needs cleaning?' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Previous section' }));
    await user.type(
      within(question('What needs cleaning?')).getByRole('textbox', {
        name: 'What needs cleaning?',
      }),
      'Bottom shelf',
    );
    await user.click(screen.getByRole('button', { name: 'Next section' }));
    expect(screen.getByRole('button', { name: 'Submit the audit' })).toHaveProperty(
      'disabled',
      false,
    );

    // Reopening the screen (the app closed) resumes on the same section with the answers.
    view.unmount();
    renderScreen(<AuditScreen resultId={ids.result} />);
    expect(await screen.findByRole('button', { name: 'Submit the audit' })).toHaveProperty(
      'disabled',
      false,
    );
    expect((await readDraft(ids.result))?.answers.why?.text).toBe('Bottom shelf');
  });

  it('offline, queues each answer (the last one per question) and then the submission', async () => {
    fakeNetwork(() => 'offline');
    await pairWith(buildContext([]));
    await writeDraft(draftFromResult(buildResult()));
    const user = userEvent.setup();
    renderScreen(<AuditScreen resultId={ids.result} />);

    const clean = await screen.findByRole('region', { name: 'Is the cold room clean?' });
    await user.click(within(clean).getByRole('button', { name: 'No' }));
    await user.click(within(clean).getByRole('button', { name: 'Yes' }));
    await user.click(screen.getByRole('button', { name: 'Next section' }));
    await user.click(screen.getByRole('button', { name: 'Enter a number: Cold room temperature' }));
    await user.type(screen.getByRole('textbox', { name: 'Number: Cold room temperature' }), '4');
    await user.click(screen.getByRole('button', { name: 'OK' }));
    await user.click(screen.getByRole('button', { name: 'Submit the audit' }));
    const dialog = screen.getByRole('dialog', { name: 'Submit the audit?' });
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));

    expect(
      await screen.findByText(
        'Saved on this tablet: the audit will be sent as soon as the connection returns.',
      ),
    ).toBeTruthy();
    expect(screen.getByText('It will be scored when sent.')).toBeTruthy();
    const records = await outboxRecords();
    expect(
      records.map((record) => [record.kind, record.method ?? 'POST', record.path, record.body]),
    ).toEqual([
      [
        'audit-answers',
        'PATCH',
        `/device/audit-results/${ids.result}/answers`,
        { answers: [{ question_id: 'clean', answer_yes: true, choices: ['clean-yes'] }] },
      ],
      [
        'audit-answers',
        'PATCH',
        `/device/audit-results/${ids.result}/answers`,
        { answers: [{ question_id: 'temperature', number: 4 }] },
      ],
      ['audit-submit', 'POST', `/device/audit-results/${ids.result}/submit`, {}],
    ]);
    expect(records.every((record) => record.state === 'waiting')).toBe(true);
    expect(records.every((record) => record.employee_token === 'employee-token-of-ana')).toBe(true);
  });

  it('sends a photo taken offline before its answer, then the submission, and shows the score', async () => {
    fakeNetwork(() => 'offline');
    await pairWith(buildContext([]));
    await writeDraft(draftFromResult(buildResult()));
    const user = userEvent.setup();
    renderScreen(<AuditScreen resultId={ids.result} />);

    await user.click(
      within(await screen.findByRole('region', { name: 'Is the cold room clean?' })).getByRole(
        'button',
        { name: 'Yes' },
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Next section' }));
    await user.click(screen.getByRole('button', { name: 'Take a photo: Photo of the shelves' }));
    await user.click(screen.getByRole('button', { name: 'Fake shutter' }));
    await within(question('Photo of the shelves')).findByRole('img', { name: /^File 1: photo-/ });
    await user.click(screen.getByRole('button', { name: 'Submit the audit' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Submit the audit?' })).getByRole('button', {
        name: 'Submit',
      }),
    );
    await screen.findByText('It will be scored when sent.');

    const fileUrl = `/api/files/audit-results/${ids.result}/5b6c.jpg`;
    const uploads: { fields: string[]; questionId: unknown }[] = [];
    const calls = fakeNetwork((call) => {
      if (call.url.endsWith('/files')) {
        const form = call.body as FormData;
        uploads.push({ fields: [...form.keys()], questionId: form.get('question_id') });
        return json(200, { url: fileUrl, name: 'photo.jpg' });
      }
      if (call.url.endsWith('/answers')) return json(200, { result: buildResult() });
      if (call.url.endsWith('/submit'))
        return json(200, {
          result: buildResult({
            status: 'submitted',
            end_date: '2026-11-24T10:05:00Z',
            score: 1,
            max_score: 2,
            section_scores: [
              { section_id: 'cold-room', score: 1, max_score: 1 },
              { section_id: 'records', score: 0, max_score: 1 },
            ],
          }),
        });
      return 'offline';
    });
    await networkReturned();

    // The outbox sends three requests in turn before the score shows: slow on a loaded machine.
    expect(await screen.findByText('Score: 50 %', undefined, { timeout: 8000 })).toBeTruthy();
    expect(screen.getByText('Cold room: 100 %')).toBeTruthy();
    expect(uploads).toEqual([{ fields: ['question_id', 'file'], questionId: 'photo' }]);
    const sent = calls.filter((call) => call.url.startsWith('/api/device/audit-results/'));
    expect(sent.map((call) => `${call.method} ${call.url.split('/').pop()}`)).toEqual([
      'PATCH answers',
      'POST files',
      'PATCH answers',
      'POST submit',
    ]);
    expect(sent[2]?.body).toEqual({ answers: [{ question_id: 'photo', file_urls: [fileUrl] }] });
    expect(await outboxRecords()).toEqual([]);
  });
});
