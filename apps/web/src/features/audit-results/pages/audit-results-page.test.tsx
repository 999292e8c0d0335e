import { auditTruncation } from '@mise/shared/audits/rules';
import type { AuditResult } from '@mise/shared/audits/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildUser } from '../../../test/factories';
import { apiError, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import { expectNoAxeViolations } from '../../alerts/test/expect-no-axe-violations';
import {
  auditId,
  buildAnswer,
  buildAudit,
  buildResult,
  choiceQuestion,
  section,
  summaryOf,
  textQuestion,
  yesNoQuestion,
} from '../test/build-audit';

const pageLoad = { timeout: 10_000 };

const sink = yesNoQuestion('q-sink', 'Is there a hand-washing sink?');
const longQuestion = textQuestion(
  'q-long',
  `Describe ${'the cleaning of the cold room '.repeat(8)}`,
);
const storage = choiceQuestion('q-storage', 'How is food stored?', ['Covered', 'Open']);
const fridge = textQuestion('q-fridge', 'Fridge notes');
const longTitle = `Réception ${'des marchandises et contrôle '.repeat(6)}`;
const longAnswer = `Nettoyée ${'chaque soir avec un produit désinfectant '.repeat(4)}`;

const newer = buildResult({
  status: 'submitted',
  store: { id: 'b7d4b9f4-0000-4000-8000-000000000001', name: 'Bistro Opéra' },
  start_date: '2026-11-20T08:00:00Z',
  end_date: '2026-11-20T09:30:00Z',
  score: 2,
  max_score: 3,
  sections: [
    section('s-hygiene', 'Hygiène', [sink, longQuestion]),
    section('s-storage', 'Stockage', [storage]),
    section('s-cold', 'Froid', [fridge]),
    section('s-delivery', longTitle, [textQuestion('q-delivery', 'Delivery notes')]),
  ],
  answers: [
    buildAnswer(sink, { answer_yes: true, choices: ['q-sink-yes'], comment: 'Savon présent' }),
    buildAnswer(longQuestion, { text: longAnswer }),
  ],
  section_scores: [
    { section_id: 's-hygiene', score: 2, max_score: 2 },
    { section_id: 's-storage', score: 0, max_score: 1 },
  ],
});

/** An older result, performed before the long question was added. */
const older = buildResult({
  status: 'submitted',
  store: { id: 'b7d4b9f4-0000-4000-8000-000000000002', name: 'Café du Port' },
  start_date: '2026-11-10T08:00:00Z',
  end_date: '2026-11-10T09:00:00Z',
  score: 3,
  max_score: 4,
  sections: [section('s-hygiene', 'Hygiène', [sink]), section('s-storage', 'Stockage', [storage])],
  answers: [
    buildAnswer(sink, { answer_yes: false, choices: ['q-sink-no'] }),
    buildAnswer(storage, { choices: ['q-storage-c0'] }),
  ],
  section_scores: [{ section_id: 's-hygiene', score: 0, max_score: 2 }],
});

function renderResults(results: AuditResult[] | MockHandler, role: 'admin' | 'manager' = 'admin') {
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role }) } },
    [`GET /api/audits/${auditId}`]: { body: { audit: buildAudit() } },
    [`GET /api/audits/${auditId}/results`]: Array.isArray(results)
      ? { body: { items: results.map(summaryOf) } }
      : results,
    [`GET /api/audit-results/${newer.id}`]: { body: { result: newer } },
    [`GET /api/audit-results/${older.id}`]: { body: { result: older } },
    'POST /api/pdf/audit': ({ body }) => ({
      body: { url: `/api/files/${(body as { auditResultPath: string }).auditResultPath}.pdf` },
    }),
  });
  return { ...renderApp(`/auditingResults?audit=${auditId}`), api };
}

async function pick(user: ReturnType<typeof renderApp>['user'], name: RegExp) {
  await user.click(screen.getByTestId('results-select'));
  await user.click(await screen.findByRole('option', { name }));
}

describe('audit results', () => {
  it('says when the audit has no result yet', async () => {
    renderResults([]);
    expect((await screen.findByTestId('results-none', {}, pageLoad)).textContent).toContain(
      'This audit has no results yet.',
    );
    expect(screen.queryByTestId('results-select')).toBeNull();
  });

  it('shows the permission text when the API refuses the results', async () => {
    renderResults(apiError(403, 'permission/denied'));
    expect((await screen.findByTestId('results-denied', {}, pageLoad)).textContent).toContain(
      'You do not have permission to execute this action.',
    );
  });

  it('asks to select results, then shows the chosen one by section with truncated texts', async () => {
    const { user, container } = renderResults([newer, older]);
    expect((await screen.findByTestId('results-select-empty', {}, pageLoad)).textContent).toContain(
      'Select one or more results to see their answers.',
    );
    expect((screen.getByTestId('results-pdf') as HTMLButtonElement).disabled).toBe(true);

    await pick(user, /^Bistro Opéra · 20\/11\/2026/);
    const summary = await screen.findByTestId('results-summary');
    expect(within(summary).getByTestId('results-score').textContent).toBe('66.67 %');
    expect(summary.textContent).toContain('By Camille Martin');

    // Four sections, the first three open (their tables rendered), titles cut at 150.
    const titles = screen.getAllByTestId('results-section-title').map((title) => title.textContent);
    expect(titles).toHaveLength(4);
    expect(titles[3]).toBe(`${longTitle.slice(0, auditTruncation.sectionTitle).trimEnd()}…`);
    expect(screen.getAllByTestId('results-section-table')).toHaveLength(3);

    const questions = screen.getAllByTestId('results-question').map((item) => item.textContent);
    expect(questions[1]).toBe(
      `${longQuestion.text.slice(0, auditTruncation.questionInResults).trimEnd()}…`,
    );
    const answers = screen.getAllByTestId('results-answer').map((item) => item.textContent);
    expect(answers).toEqual(['Yes', `${longAnswer.slice(0, auditTruncation.answer).trimEnd()}…`]);
    expect(screen.getByTestId('results-comment').textContent).toBe('Comment: Savon présent');
    // Stockage and Froid were not answered.
    expect(screen.getAllByTestId('results-answer-missing').map((item) => item.textContent)).toEqual(
      ['No answer', 'No answer'],
    );
    expect(screen.getAllByTestId('results-section-score').map((item) => item.textContent)).toEqual([
      '100 %',
      '0 %',
    ]);
    expect(screen.getAllByTestId('results-chart-value').map((item) => item.textContent)).toEqual([
      '100 %',
      '0 %',
    ]);
    await expectNoAxeViolations(container);
  });

  it("compares results, telling a question missing from a result's version", async () => {
    const { user } = renderResults([newer, older]);
    await screen.findByTestId('results-select', {}, pageLoad);
    await pick(user, /^Café du Port/);
    await pick(user, /^Bistro Opéra/);

    await waitFor(() => expect(screen.getAllByTestId('results-summary')).toHaveLength(2));
    // Newest first, whatever the order of picking; a whole percentage has no decimals.
    expect(screen.getAllByTestId('results-score').map((item) => item.textContent)).toEqual([
      '66.67 %',
      '75 %',
    ]);
    const longRow = screen
      .getAllByTestId('results-question-row')
      .find((row) => row.textContent?.startsWith('Describe'));
    expect(longRow && within(longRow).getByTestId('results-question-missing').textContent).toBe(
      'Not in this version of the audit',
    );
    const storageRow = screen
      .getAllByTestId('results-question-row')
      .find((row) => row.textContent?.startsWith('How is food stored?'));
    expect(storageRow?.textContent).toContain('Covered');
  });

  it('asks the server for the PDF of each selected result', async () => {
    const click = vi
      .spyOn(HTMLAnchorElement.prototype, 'click')
      .mockImplementation(() => undefined);
    const { user, api } = renderResults([newer, older]);
    await screen.findByTestId('results-select', {}, pageLoad);
    await pick(user, /^Café du Port/);
    await pick(user, /^Bistro Opéra/);

    await user.click(screen.getByTestId('results-pdf'));
    const links = await screen.findByTestId('results-pdf-links');
    expect(api.callsTo('POST', '/api/pdf/audit').map((call) => call.body)).toEqual([
      { auditResultPath: newer.path },
      { auditResultPath: older.path },
    ]);
    expect(
      within(links)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual([`/api/files/${newer.path}.pdf`, `/api/files/${older.path}.pdf`]);
    expect(click).toHaveBeenCalledTimes(2);
    click.mockRestore();
  });
});
