import type { AuditAnswerInput, AuditResult } from '@mise/shared/audits/schemas';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildId, buildStore, buildUser } from '../../../test/factories';
import { apiError, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import { expectNoAxeViolations } from '../../alerts/test/expect-no-axe-violations';
import { draftStorageKey } from '../model/answer-drafts';
import {
  auditId,
  buildAnswer,
  buildAudit,
  buildResult,
  choiceQuestion,
  databaseId,
  section,
  storeId,
  summaryOf,
  textQuestion,
  yesNoQuestion,
} from '../test/build-audit';

/** The page is a lazy route: its first render waits for its chunk. */
const pageLoad = { timeout: 10_000 };

const sink = yesNoQuestion('q-sink', 'Is there a hand-washing sink?', { required: true });
const sinkDetail = textQuestion('q-sink-detail', 'Describe the sink', {
  required: true,
  conditions: [{ question_id: 'q-sink', value: true }],
});
const storage = choiceQuestion('q-storage', 'How is food stored?', ['Covered', 'Open'], {
  required: true,
});

function performResult(overrides: Partial<AuditResult> = {}): AuditResult {
  return buildResult({
    sections: [
      section('s-hygiene', 'Hygiène', [sink, sinkDetail]),
      section('s-storage', 'Stockage', [storage]),
    ],
    ...overrides,
  });
}

function renderPerform(result: AuditResult, handlers: Record<string, MockHandler> = {}) {
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: 'manager' }) } },
    [`GET /api/audit-results/${result.id}`]: { body: { result } },
    [`GET /api/stores/${storeId}`]: {
      body: { store: buildStore({ id: storeId, timezone_name: 'Europe/Paris' }) },
    },
    [`PATCH /api/audit-results/${result.id}/answers`]: { body: { result } },
    ...handlers,
  });
  const view = renderApp(`/auditingPerform?audit=${auditId}&result=${result.id}`);
  const patches = () =>
    api
      .callsTo('PATCH', `/api/audit-results/${result.id}/answers`)
      .map((call) => (call.body as { answers: AuditAnswerInput[] }).answers);
  return { ...view, api, patches };
}

const questionIds = () =>
  screen.getAllByTestId('perform-question').map((card) => card.getAttribute('data-question-id'));

/** Waits for the answers to be saved (no save left to run after the test). */
async function settled() {
  await waitFor(() =>
    expect(screen.getByTestId('save-status').getAttribute('data-status')).toBe('saved'),
  );
}

function keptOnDevice(resultId: string): AuditAnswerInput[] {
  const raw = window.localStorage.getItem(draftStorageKey(resultId));
  return raw ? (JSON.parse(raw) as { answers: AuditAnswerInput[] }).answers : [];
}

describe('performing an audit', () => {
  it('shows a question only while its yes/no condition holds', async () => {
    const result = performResult();
    const { user, container } = renderPerform(result);

    await screen.findByTestId('audit-form', {}, pageLoad);
    expect(screen.getByTestId('perform-section-count').textContent).toBe('Section 1 of 2');
    expect(questionIds()).toEqual(['q-sink']);
    expect(screen.getByTestId('perform-answered').textContent).toBe('0 of 2 questions answered');

    await user.click(screen.getByTestId('answer-yes'));
    expect(questionIds()).toEqual(['q-sink', 'q-sink-detail']);
    expect(screen.getByTestId('answer-yes').getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('perform-answered').textContent).toBe('1 of 3 questions answered');

    await user.click(screen.getByTestId('answer-no'));
    expect(questionIds()).toEqual(['q-sink']);
    await expectNoAxeViolations(container);
    await settled();
  });

  it('keeps the auditor on a section with a required question unanswered, and blocks submit', async () => {
    const result = performResult();
    const { user, api } = renderPerform(result, {
      [`POST /api/audit-results/${result.id}/submit`]: {
        body: { result: { ...result, status: 'submitted' } },
      },
    });
    await screen.findByTestId('audit-form', {}, pageLoad);

    await user.click(screen.getByTestId('perform-next'));
    expect(screen.getByTestId('perform-section-count').textContent).toBe('Section 1 of 2');
    const card = screen.getByTestId('perform-question');
    expect(within(card).getByTestId('answer-required').textContent).toBe(
      'This answer is required.',
    );
    expect(screen.getByTestId('perform-blocked').textContent).toContain('1 question needs');

    // Answering yes reveals the detail question, required too.
    await user.click(screen.getByTestId('answer-yes'));
    expect(screen.queryByTestId('answer-required')).toBeNull();
    await user.click(screen.getByTestId('perform-next'));
    expect(screen.getByTestId('perform-section-count').textContent).toBe('Section 1 of 2');
    await user.type(screen.getByTestId('answer-text'), 'Inox, eau chaude');
    await user.click(screen.getByTestId('perform-next'));
    expect(screen.getByTestId('perform-section-count').textContent).toBe('Section 2 of 2');

    await user.click(screen.getByTestId('perform-submit'));
    expect(await screen.findByTestId('answer-required')).toBeTruthy();
    expect(api.callsTo('POST', `/api/audit-results/${result.id}/submit`)).toHaveLength(0);
    await settled();
  });

  it('saves answers, keeps them on the device when the save fails, and sends them again', async () => {
    const result = performResult();
    let isDown = true;
    const { user, patches } = renderPerform(result, {
      [`PATCH /api/audit-results/${result.id}/answers`]: () =>
        isDown ? apiError(503, 'internal') : { body: { result } },
    });
    await screen.findByTestId('audit-form', {}, pageLoad);

    await user.click(screen.getByTestId('answer-yes'));
    // Kept on the device at once, before any save.
    expect(keptOnDevice(result.id)).toEqual([
      { question_id: 'q-sink', answer_yes: true, choices: ['q-sink-yes'] },
    ]);
    await waitFor(() =>
      expect(screen.getByTestId('save-status').getAttribute('data-status')).toBe('offline'),
    );
    expect(screen.getByTestId('save-status').textContent).toBe('Offline, kept on this device');
    expect(patches()).toEqual([
      [{ question_id: 'q-sink', answer_yes: true, choices: ['q-sink-yes'] }],
    ]);
    expect(keptOnDevice(result.id)).toHaveLength(1);

    isDown = false;
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await waitFor(() =>
      expect(screen.getByTestId('save-status').getAttribute('data-status')).toBe('saved'),
    );
    expect(patches()).toHaveLength(2);
    expect(patches()[1]).toEqual([
      { question_id: 'q-sink', answer_yes: true, choices: ['q-sink-yes'] },
    ]);
    expect(window.localStorage.getItem(draftStorageKey(result.id))).toBeNull();
  });

  it('merges the answers a closed tab kept over the server ones and sends them on opening', async () => {
    const result = performResult({
      answers: [buildAnswer(sink, { answer_yes: false, choices: ['q-sink-no'] })],
    });
    window.localStorage.setItem(
      draftStorageKey(result.id),
      JSON.stringify({
        answers: [
          { question_id: 'q-sink', answer_yes: true, choices: ['q-sink-yes'] },
          { question_id: 'q-sink-detail', text: 'Inox' },
        ],
      }),
    );
    const { patches, user } = renderPerform(result);
    await screen.findByTestId('audit-form', {}, pageLoad);

    // The first section is complete with the kept answers: the screen opens on the next one.
    expect(screen.getByTestId('perform-section-count').textContent).toBe('Section 2 of 2');
    await user.click(screen.getByTestId('perform-previous'));
    expect(screen.getByTestId('answer-yes').getAttribute('aria-pressed')).toBe('true');
    expect((screen.getByTestId('answer-text') as HTMLTextAreaElement).value).toBe('Inox');
    await waitFor(() => expect(patches()).toHaveLength(1));
    expect(patches()[0]).toEqual([
      { question_id: 'q-sink', answer_yes: true, choices: ['q-sink-yes'] },
      { question_id: 'q-sink-detail', text: 'Inox' },
    ]);
    await waitFor(() => expect(window.localStorage.getItem(draftStorageKey(result.id))).toBeNull());
  });

  it('does not send an answer that breaks its limit and shows why', async () => {
    const short = textQuestion('q-short', 'One word', { options: { max_characters: 3 } } as never);
    const numberQuestion = {
      ...textQuestion('q-temp', 'Fridge temperature'),
      type: 'number',
      options: { min_number: -5, max_number: 8 },
    } as AuditResult['sections'][number]['questions'][number];
    const result = buildResult({ sections: [section('s-1', 'Froid', [short, numberQuestion])] });
    const { user, patches } = renderPerform(result);
    await screen.findByTestId('audit-form', {}, pageLoad);

    await user.type(screen.getByTestId('answer-number'), '12');
    expect((await screen.findByTestId('answer-issue')).textContent).toBe(
      'This value is outside the allowed range.',
    );
    await user.clear(screen.getByTestId('answer-number'));
    await user.type(screen.getByTestId('answer-number'), '4');
    await waitFor(() => expect(patches()).toHaveLength(1));
    expect(patches()[0]).toEqual([{ question_id: 'q-temp', number: 4 }]);
  });

  it('submits and shows the score with two decimals when it is not whole', async () => {
    const result = performResult({
      answers: [
        buildAnswer(sink, { answer_yes: true, choices: ['q-sink-yes'] }),
        buildAnswer(sinkDetail, { text: 'Inox' }),
        buildAnswer(storage, { choices: ['q-storage-c1'] }),
      ],
    });
    const submitted: AuditResult = {
      ...result,
      status: 'submitted',
      end_date: '2026-11-20T09:30:00Z',
      score: 1,
      max_score: 3,
    };
    const { user, api } = renderPerform(result, {
      [`POST /api/audit-results/${result.id}/submit`]: { body: { result: submitted } },
      'POST /api/pdf/audit': { body: { url: '/api/files/audit.pdf' } },
    });
    await screen.findByTestId('audit-form', {}, pageLoad);
    // Everything answered: the screen opens on the last section.
    await user.click(screen.getByTestId('perform-submit'));

    expect((await screen.findByTestId('perform-score')).textContent).toBe('33.33 %');
    await user.click(screen.getByTestId('perform-pdf'));
    const link = await screen.findByTestId('perform-pdf-link');
    expect(link.getAttribute('href')).toBe('/api/files/audit.pdf');
    expect(api.callsTo('POST', '/api/pdf/audit')[0]?.body).toEqual({
      auditResultPath: result.path,
    });
  });

  it('starts the audit in a chosen store of its database, or resumes one in progress', async () => {
    const result = performResult();
    const inProgress = buildResult({ store: { id: buildId(), name: 'Café du Port' } });
    const store = buildStore({ id: storeId, name: 'Bistro Opéra', city: 'Paris' });
    const api = mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'distributor' }) } },
      [`GET /api/audits/${auditId}`]: { body: { audit: buildAudit() } },
      'GET /api/audit-results/in-progress': { body: { items: [summaryOf(inProgress)] } },
      'GET /api/stores': { body: { items: [store], total: 1 } },
      [`POST /api/audits/${auditId}/results`]: { body: { result } },
      [`GET /api/audit-results/${result.id}`]: { body: { result } },
    });
    const { user, router, container } = renderApp(`/auditingPerform?audit=${auditId}`);

    const resumable = await screen.findByTestId('perform-resumable', {}, pageLoad);
    expect(resumable.textContent).toContain('Café du Port');
    expect(api.callsTo('GET', '/api/audit-results/in-progress')[0]?.query.get('audit_id')).toBe(
      auditId,
    );
    await expectNoAxeViolations(container);

    await user.click(screen.getByTestId('perform-store'));
    await user.click(await screen.findByRole('option', { name: 'Bistro Opéra — Paris' }));
    expect(api.callsTo('GET', '/api/stores')[0]?.query.get('databaseId')).toBe(databaseId);
    await user.click(screen.getByTestId('perform-begin'));

    await screen.findByTestId('audit-form');
    expect(api.callsTo('POST', `/api/audits/${auditId}/results`)[0]?.body).toEqual({
      store_id: storeId,
    });
    expect(router.state.location.search).toContain(`result=${result.id}`);
  });

  it('opens a 50-section audit of 1000 questions quickly, one section at a time', async () => {
    const sections = Array.from({ length: 50 }, (_, sectionIndex) =>
      section(
        `s-${sectionIndex}`,
        `Section ${sectionIndex + 1}`,
        Array.from({ length: 20 }, (_, questionIndex) =>
          questionIndex % 2 === 0
            ? yesNoQuestion(`q-${sectionIndex}-${questionIndex}`, `Question ${questionIndex}`)
            : textQuestion(`q-${sectionIndex}-${questionIndex}`, `Question ${questionIndex}`, {
                conditions: [
                  { question_id: `q-${sectionIndex}-${questionIndex - 1}`, value: true },
                ],
              }),
        ),
      ),
    );
    const result = buildResult({ sections });
    renderPerform(result);
    await screen.findByTestId('audit-form', {}, pageLoad);
    // Warm: the chunk is loaded. Open it again and time the render of the screen itself.
    const started = performance.now();
    const second = buildResult({ sections });
    renderPerform(second);
    await waitFor(() => expect(screen.getAllByTestId('audit-form')).toHaveLength(2));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(screen.getAllByTestId('perform-section-count')[1]?.textContent).toBe('Section 1 of 50');
    // Only the visible questions of the first section are rendered (10 yes/no, no hidden text).
    expect(
      within(screen.getAllByTestId('perform-section')[1] as HTMLElement).getAllByTestId(
        'perform-question',
      ),
    ).toHaveLength(10);
  });
});
