import type { Audit, AuditQuestion, SaveAuditBody } from '@mise/shared/audits/schemas';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories';
import { apiError, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import { buildAudit, buildQuestion, buildSection } from '../test/build-audit';
import { expectNoAxeViolations } from '../test/expect-no-axe-violations';

const pageLoad = { timeout: 10_000 };

function buildFixture(overrides: Partial<Audit> = {}) {
  const washed = buildQuestion('yes_or_no', 'Les mains sont-elles lavées ?');
  const products = buildQuestion('multiple_choice', 'Quels produits sont utilisés ?');
  const productsWithChoices = {
    ...products,
    score: 5,
    options: {
      multiple_selection: true,
      choices: [
        { id: 'choice-bleach', text: 'Javel', score: 2, archived_at: null },
        { id: 'choice-soap', text: 'Savon', score: 3, archived_at: null },
      ],
    },
  } as AuditQuestion;
  const comment = buildQuestion('text_input', 'Commentaire général', {
    conditions: [{ question_id: washed.id, value: true }],
  });
  const fridge = buildQuestion('yes_or_no', 'Le frigo est-il propre ?');
  const temperature = buildQuestion('number', 'Température relevée');
  const welcome = buildSection('Accueil', [washed, productsWithChoices, comment]);
  const kitchen = buildSection('Cuisine', [fridge, temperature]);
  const audit = buildAudit({ sections: [welcome, kitchen], ...overrides });
  return {
    audit,
    welcome,
    kitchen,
    washed,
    products: productsWithChoices,
    comment,
    fridge,
    temperature,
  };
}

type Fixture = ReturnType<typeof buildFixture>;

function renderBuilder(fixture: Fixture, extra: Record<string, MockHandler> = {}) {
  const { audit } = fixture;
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
    [`GET /api/audits/${audit.id}`]: { body: { audit } },
    [`PUT /api/audits/${audit.id}`]: ({ body }) => {
      const saved = body as SaveAuditBody;
      return {
        body: {
          audit: {
            ...audit,
            ...saved,
            version: saved.version + 1,
            publishing_date:
              audit.publishing_date ?? (saved.published ? '2026-11-24T10:00:00Z' : null),
          },
        },
      };
    },
    ...extra,
  });
  const view = renderApp(`/auditingConfiguration?id=${audit.id}`);
  return { ...view, api };
}

type User = ReturnType<typeof renderApp>['user'];

const savedBody = (api: ReturnType<typeof mockApi>, auditId: string) =>
  api.callsTo('PUT', `/api/audits/${auditId}`).at(-1)?.body as SaveAuditBody | undefined;

async function save(user: User, api: ReturnType<typeof mockApi>, auditId: string) {
  const before = api.callsTo('PUT', `/api/audits/${auditId}`).length;
  await user.click(screen.getByTestId('audit-save'));
  await waitFor(() =>
    expect(api.callsTo('PUT', `/api/audits/${auditId}`)).toHaveLength(before + 1),
  );
  return savedBody(api, auditId)!;
}

async function selectQuestion(user: User, text: string) {
  const row = (await screen.findAllByTestId('question-row', {}, pageLoad)).find(
    (item) => within(item).getByTestId('question-row-text').textContent === text,
  );
  if (!row) throw new Error(`No question row ${text}`);
  await user.click(within(row).getByTestId('question-select'));
  await waitFor(() =>
    expect(
      (screen.getByTestId('question-text') as HTMLTextAreaElement).value.startsWith(
        text.replace(/…$/, ''),
      ),
    ).toBe(true),
  );
}

async function chooseOption(user: User, testId: string, name: string) {
  await user.click(screen.getByTestId(testId));
  await user.click(await screen.findByRole('option', { name }));
}

const rowTexts = () =>
  screen
    .getAllByTestId('question-row')
    .map((row) => within(row).getByTestId('question-row-text').textContent);
const questionIdsOf = (body: SaveAuditBody, sectionIndex: number) =>
  body.sections[sectionIndex]!.questions.map((question) => question.id);

describe('audit builder', { timeout: 60_000 }, () => {
  it('resets the options when the type changes', async () => {
    const fixture = buildFixture();
    const { user, api } = renderBuilder(fixture);
    await selectQuestion(user, 'Quels produits sont utilisés ?');
    expect(screen.getAllByTestId('choice-text')).toHaveLength(2);

    await chooseOption(user, 'question-type', 'Rating');
    expect(screen.queryByTestId('choice-text')).toBeNull();
    expect((screen.getByTestId('option-min-rating') as HTMLInputElement).value).toBe('0');
    expect((screen.getByTestId('option-max-rating') as HTMLInputElement).value).toBe('10');
    expect((screen.getByTestId('option-precision') as HTMLInputElement).value).toBe('1');
    // Scoring stays on: a rating scores 1.
    expect((screen.getByTestId('question-score') as HTMLInputElement).value).toBe('1');

    await chooseOption(user, 'question-type', 'Multiple choice');
    // Back to the defaults, not to the former choices.
    const texts = screen.getAllByTestId('choice-text') as HTMLInputElement[];
    expect(texts.map((input) => input.value)).toEqual(['']);
    expect((screen.getByTestId('option-multiple-selection') as HTMLInputElement).checked).toBe(
      false,
    );
    await user.type(texts[0]!, 'Détergent');
    const body = await save(user, api, fixture.audit.id);
    const saved = body.sections[0]!.questions[1]!;
    expect(saved.type).toBe('multiple_choice');
    expect(saved.options).toMatchObject({
      multiple_selection: false,
      choices: [{ text: 'Détergent', score: 1 }],
    });
    expect(JSON.stringify(saved)).not.toContain('choice-bleach');
  });

  it('derives a choice question’s score from its choices', async () => {
    const { user } = renderBuilder(buildFixture());
    await selectQuestion(user, 'Quels produits sont utilisés ?');
    const score = () => screen.getByTestId('question-score') as HTMLInputElement;
    // Multiple selection: the sum of the choices' scores.
    expect(score().value).toBe('5');
    expect(screen.getByText('Sum of the choices’ scores')).toBeTruthy();
    expect(score().readOnly).toBe(true);

    await user.click(screen.getByTestId('option-multiple-selection'));
    expect(score().value).toBe('3');
    expect(screen.getByText('Highest choice score')).toBeTruthy();

    const choiceScores = screen.getAllByTestId('choice-score') as HTMLInputElement[];
    await user.tripleClick(choiceScores[0]!);
    await user.keyboard('7');
    expect(score().value).toBe('7');

    await user.click(screen.getByTestId('question-scoring'));
    expect(screen.queryByTestId('question-score')).toBeNull();
    await user.click(screen.getByTestId('question-scoring'));
    expect(score().value).toBe('7');
  });

  it('offers as conditions only the yes/no questions not already used', async () => {
    const fixture = buildFixture();
    const { user, api } = renderBuilder(fixture);
    await selectQuestion(user, 'Commentaire général');
    expect(screen.getByTestId('condition-text').textContent).toBe(
      'Shown if “Les mains sont-elles lavées ?” is answered',
    );
    await user.click(screen.getByTestId('condition-candidate'));
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    // Not the one already used, not the multiple choice nor the number, not itself.
    expect(options).toEqual(['Le frigo est-il propre ?']);
    await user.click(screen.getByRole('option', { name: 'Le frigo est-il propre ?' }));
    await user.click(within(screen.getByTestId('condition-new-value')).getByText('No'));
    await user.click(screen.getByTestId('condition-add'));
    expect(screen.getAllByTestId('condition-row')).toHaveLength(2);
    // Every yes/no question is used now.
    expect((screen.getByTestId('condition-candidate') as HTMLInputElement).disabled).toBe(true);

    const body = await save(user, api, fixture.audit.id);
    expect(body.sections[0]!.questions[2]!.conditions).toEqual([
      { question_id: fixture.washed.id, value: true },
      { question_id: fixture.fridge.id, value: false },
    ]);
  });

  it('asks before publishing; cancelling turns published back off', async () => {
    const fixture = buildFixture();
    const { user, api } = renderBuilder(fixture);
    const published = (await screen.findByTestId(
      'audit-published',
      {},
      pageLoad,
    )) as HTMLInputElement;
    await user.click(published);
    await user.click(await screen.findByTestId('confirm-dialog-cancel'));
    await waitFor(() => expect(published.checked).toBe(false));

    await user.click(published);
    await user.click(await screen.findByTestId('confirm-dialog-confirm'));
    expect(published.checked).toBe(true);
    const body = await save(user, api, fixture.audit.id);
    expect(body.published).toBe(true);
    expect(await screen.findByText('Saved successfully.')).toBeTruthy();
  });

  it('warns when a published audit opens; cancel goes back to the list', async () => {
    const fixture = buildFixture({ published: true, publishing_date: '2026-11-10T08:00:00Z' });
    const { user, router } = renderBuilder(fixture, {
      [`GET /api/databases/${fixture.audit.database_id}/audits`]: {
        body: { items: [], can_create: true, can_read_results: true },
      },
      'GET /api/databases': { body: { items: [] } },
    });
    expect(await screen.findByText(/This audit is published/, {}, pageLoad)).toBeTruthy();
    await user.click(screen.getByTestId('confirm-dialog-cancel'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auditing'));
    expect(router.state.location.search).toBe(`?database=${fixture.audit.database_id}`);
  });

  it('archives a removed question of a published audit and selects the first remaining one', async () => {
    const fixture = buildFixture({ published: true, publishing_date: '2026-11-10T08:00:00Z' });
    const { user, api } = renderBuilder(fixture);
    await user.click(await screen.findByTestId('confirm-dialog-confirm', {}, pageLoad));
    await selectQuestion(user, 'Température relevée');
    await user.click(screen.getByTestId('question-remove'));
    expect(await screen.findByText('Are you sure you want to delete this question?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(rowTexts()).not.toContain('Température relevée'));
    // The first remaining question of its section is selected.
    expect((screen.getByTestId('question-text') as HTMLTextAreaElement).value).toBe(
      'Le frigo est-il propre ?',
    );

    const body = await save(user, api, fixture.audit.id);
    const kept = body.sections[1]!.questions.find((q) => q.id === fixture.temperature.id);
    expect(kept?.archived_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(body.sections[1]!.questions.find((q) => q.id === fixture.fridge.id)?.archived_at).toBe(
      null,
    );
  });

  it('deletes a removed question of an audit never published', async () => {
    const fixture = buildFixture();
    const { user, api } = renderBuilder(fixture);
    await selectQuestion(user, 'Les mains sont-elles lavées ?');
    await user.click(screen.getByTestId('question-remove'));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(rowTexts()).not.toContain('Les mains sont-elles lavées ?'));

    const body = await save(user, api, fixture.audit.id);
    expect(questionIdsOf(body, 0)).toEqual([fixture.products.id, fixture.comment.id]);
    // The condition on the removed question went with it.
    expect(body.sections[0]!.questions[1]!.conditions).toEqual([]);
  });

  it('archives a removed choice of a published audit; the score follows the live choices', async () => {
    const fixture = buildFixture({ published: true, publishing_date: '2026-11-10T08:00:00Z' });
    const { user, api } = renderBuilder(fixture);
    await user.click(await screen.findByTestId('confirm-dialog-confirm', {}, pageLoad));
    await selectQuestion(user, 'Quels produits sont utilisés ?');
    await user.click(screen.getAllByTestId('choice-remove')[1]!);
    expect(await screen.findByText('Are you sure you want to delete this item?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(screen.getAllByTestId('choice-text')).toHaveLength(1));
    expect((screen.getByTestId('question-score') as HTMLInputElement).value).toBe('2');

    const body = await save(user, api, fixture.audit.id);
    const question = body.sections[0]!.questions[1]!;
    expect(question.score).toBe(2);
    expect(question.options).toMatchObject({
      choices: [
        { id: 'choice-bleach', archived_at: null },
        { id: 'choice-soap', archived_at: expect.stringMatching(/^\d{4}-/) },
      ],
    });
  });

  it('deletes a removed section of an audit never published', async () => {
    const fixture = buildFixture();
    const { user, api } = renderBuilder(fixture);
    const menus = await screen.findAllByTestId('section-menu', {}, pageLoad);
    await user.click(menus[0]!);
    await user.click(await screen.findByTestId('section-menu-remove'));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(screen.getAllByTestId('section-item')).toHaveLength(1));
    const body = await save(user, api, fixture.audit.id);
    expect(body.sections.map((section) => section.id)).toEqual([fixture.kitchen.id]);
  });

  it('selects a section’s first question with the section', async () => {
    const { user } = renderBuilder(buildFixture());
    const titles = await screen.findAllByTestId('section-select', {}, pageLoad);
    await user.click(titles[1]!);
    expect((screen.getByTestId('section-name') as HTMLInputElement).value).toBe('Cuisine');
    expect((screen.getByTestId('question-text') as HTMLTextAreaElement).value).toBe(
      'Le frigo est-il propre ?',
    );
  });

  it('edits the options of a text, file, number and date question', async () => {
    const fixture = buildFixture();
    const { user, api } = renderBuilder(fixture);
    await selectQuestion(user, 'Commentaire général');
    // The limit: off is unlimited, on starts at 200.
    await user.click(screen.getByTestId('option-max-characters-toggle'));
    expect((screen.getByTestId('option-max-characters') as HTMLInputElement).value).toBe('200');

    await selectQuestion(user, 'Température relevée');
    await user.tripleClick(screen.getByTestId('option-min-number'));
    await user.keyboard('-20');

    await selectQuestion(user, 'Le frigo est-il propre ?');
    await chooseOption(user, 'question-type', 'Date');
    await chooseOption(user, 'option-date-limit', 'Only past dates');

    await selectQuestion(user, 'Quels produits sont utilisés ?');
    await chooseOption(user, 'question-type', 'File upload');
    await chooseOption(user, 'option-extensions', 'docx');

    const body = await save(user, api, fixture.audit.id);
    expect(body.sections[0]!.questions[2]!.options).toEqual({ max_characters: 200 });
    expect(body.sections[0]!.questions[1]).toMatchObject({
      type: 'file_upload',
      options: { file_extensions: ['jpg', 'png', 'pdf', 'docx'] },
    });
    expect(body.sections[1]!.questions[0]).toMatchObject({
      type: 'date',
      options: { date_limit: 'only_past' },
    });
    expect(body.sections[1]!.questions[1]!.options).toEqual({ min_number: -20, max_number: 10 });
  });

  it('keeps a question when its removal is not confirmed', async () => {
    const fixture = buildFixture();
    const { user } = renderBuilder(fixture);
    await selectQuestion(user, 'Les mains sont-elles lavées ?');
    await user.click(screen.getByTestId('question-remove'));
    await user.click(await screen.findByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(rowTexts()).toContain('Les mains sont-elles lavées ?');
  });

  describe('with a layout', () => {
    // The test DOM has no layout: rows and headers are stacked 40 px apart, in document order.
    const original = Element.prototype.getBoundingClientRect;
    afterEach(() => {
      Element.prototype.getBoundingClientRect = original;
    });
    function stubLayout() {
      Element.prototype.getBoundingClientRect = function (this: Element) {
        const placed = Array.from(
          document.querySelectorAll('.audit-section-header, [data-testid="question-row"]'),
        );
        let element: Element = this;
        if (this.classList.contains('audit-section')) element = this.firstElementChild ?? this;
        const index = placed.indexOf(element);
        if (index < 0) return original.call(this);
        const top = index * 40;
        return {
          x: 0,
          y: top,
          top,
          left: 0,
          right: 300,
          bottom: top + 36,
          width: 300,
          height: 36,
          toJSON: () => ({}),
        } as DOMRect;
      };
    }

    it('reorders a question with the keyboard and saves the new order', async () => {
      const fixture = buildFixture();
      const { user, api } = renderBuilder(fixture);
      await screen.findAllByTestId('question-row', {}, pageLoad);
      stubLayout();
      const handle = screen.getAllByTestId('question-handle')[0]!;
      handle.focus();
      await user.keyboard(' ');
      await waitFor(() => expect(handle.getAttribute('aria-pressed')).toBe('true'));
      expect(
        await screen.findByText(/Picked up question “Les mains sont-elles lavées \?”/),
      ).toBeTruthy();
      await user.keyboard('{ArrowDown}');
      await screen.findByText(/is over question “Quels produits sont utilisés \?”/);
      await user.keyboard(' ');
      await waitFor(() =>
        expect(rowTexts().slice(0, 3)).toEqual([
          'Quels produits sont utilisés ?',
          'Les mains sont-elles lavées ?',
          'Commentaire général',
        ]),
      );
      const body = await save(user, api, fixture.audit.id);
      expect(questionIdsOf(body, 0)).toEqual([
        fixture.products.id,
        fixture.washed.id,
        fixture.comment.id,
      ]);
    });

    /** Picks up the question row's handle, presses `key`, drops it; returns the saved body. */
    async function moveWithKeyboard(questionText: string, key: string) {
      const fixture = buildFixture();
      const { user, api } = renderBuilder(fixture);
      await screen.findAllByTestId('question-row', {}, pageLoad);
      stubLayout();
      const row = screen
        .getAllByTestId('question-row')
        .find((item) => item.textContent?.includes(questionText))!;
      const handle = within(row).getByTestId('question-handle');
      handle.focus();
      await user.keyboard(' ');
      await waitFor(() => expect(handle.getAttribute('aria-pressed')).toBe('true'));
      await user.keyboard(key);
      await screen.findByText(/is over section “/);
      await user.keyboard(' ');
      await screen.findByText(/was dropped over section “/);
      return { fixture, body: await save(user, api, fixture.audit.id) };
    }

    it('moves the last question of a section down into the next one, at its start', async () => {
      const { fixture, body } = await moveWithKeyboard('Commentaire général', '{ArrowDown}');
      expect(questionIdsOf(body, 0)).toEqual([fixture.washed.id, fixture.products.id]);
      expect(questionIdsOf(body, 1)).toEqual([
        fixture.comment.id,
        fixture.fridge.id,
        fixture.temperature.id,
      ]);
    });

    it('moves the first question of a section up past its header, to the end of the one above', async () => {
      const { fixture, body } = await moveWithKeyboard('Le frigo est-il propre ?', '{ArrowUp}');
      expect(questionIdsOf(body, 0)).toEqual([
        fixture.washed.id,
        fixture.products.id,
        fixture.comment.id,
        fixture.fridge.id,
      ]);
      expect(questionIdsOf(body, 1)).toEqual([fixture.temperature.id]);
    });
  });

  it('moves a question to another section from its menu', async () => {
    const fixture = buildFixture();
    const { user, api } = renderBuilder(fixture);
    const rows = await screen.findAllByTestId('question-row', {}, pageLoad);
    await user.click(within(rows[0]!).getByTestId('question-menu'));
    await user.click(await screen.findByRole('menuitem', { name: 'Cuisine' }));
    const body = await save(user, api, fixture.audit.id);
    expect(questionIdsOf(body, 0)).toEqual([fixture.products.id, fixture.comment.id]);
    expect(questionIdsOf(body, 1)).toEqual([
      fixture.fridge.id,
      fixture.temperature.id,
      fixture.washed.id,
    ]);
  });

  it('names the validation issue and where it is, and does not save', async () => {
    const fixture = buildFixture();
    const { user, api } = renderBuilder(fixture);
    await user.click((await screen.findAllByTestId('section-add-question', {}, pageLoad))[1]!);
    await user.click(screen.getByTestId('audit-save'));
    const issue = await screen.findByTestId('audit-issue');
    expect(issue.textContent).toContain('Every question needs a text.');
    expect(screen.getByTestId('audit-issue-place').textContent).toBe(
      'Section “Cuisine” › question “Untitled question”',
    );
    expect(api.callsTo('PUT', `/api/audits/${fixture.audit.id}`)).toHaveLength(0);

    const name = screen.getByTestId('audit-name');
    await user.clear(name);
    await user.type(screen.getByTestId('question-text'), 'Sol propre ?');
    await user.click(screen.getByTestId('audit-save'));
    await waitFor(() =>
      expect(screen.getByTestId('audit-issue').textContent).toContain('Name is required.'),
    );
  });

  it('shows the conflict message when someone saved meanwhile', async () => {
    const fixture = buildFixture();
    const { user } = renderBuilder(fixture, {
      [`PUT /api/audits/${fixture.audit.id}`]: apiError(409, 'conflict/stale-version'),
    });
    fireEvent.change(await screen.findByTestId('audit-name', {}, pageLoad), {
      target: { value: 'Audit hygiène 2027' },
    });
    await user.click(screen.getByTestId('audit-save'));
    expect(
      await screen.findByText(
        'This record was changed by someone else. Reload it before saving again.',
      ),
    ).toBeTruthy();
  });

  it('duplicates after confirmation and opens the copy', async () => {
    const fixture = buildFixture();
    const copy = buildAudit({ name: 'Audit hygiène (Copy)', sections: fixture.audit.sections });
    const { user, api, router } = renderBuilder(fixture, {
      [`POST /api/audits/${fixture.audit.id}/duplicate`]: { body: { audit: copy } },
      [`GET /api/audits/${copy.id}`]: { body: { audit: copy } },
    });
    await user.click(await screen.findByTestId('audit-duplicate', {}, pageLoad));
    expect(await screen.findByText('Do you really want to duplicate this audit?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(router.state.location.search).toBe(`?id=${copy.id}`));
    expect(await screen.findByText('Duplicated successfully.')).toBeTruthy();
    expect(await screen.findByDisplayValue('Audit hygiène (Copy)')).toBeTruthy();
    expect(api.callsTo('POST', `/api/audits/${fixture.audit.id}/duplicate`)).toHaveLength(1);
  });

  it('asks before leaving with unsaved changes', async () => {
    const fixture = buildFixture();
    const { user, router } = renderBuilder(fixture);
    await user.type(await screen.findByTestId('audit-name', {}, pageLoad), ' bis');
    await router.navigate('/home');
    expect(
      await screen.findByText('You have unsaved changes. Leave this page anyway?'),
    ).toBeTruthy();
    await user.click(screen.getByTestId('confirm-dialog-cancel'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auditingConfiguration'));
    expect((screen.getByTestId('audit-name') as HTMLInputElement).value).toBe('Audit hygiène bis');
  });

  it('creates a new audit on its first save, then opens it', async () => {
    const databaseId = '00000000-0000-4000-8000-0000000000aa';
    const created = buildAudit({ database_id: databaseId, name: 'Audit ouverture' });
    const api = mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'manager' }) } },
      [`POST /api/databases/${databaseId}/audits`]: ({ body }) => ({
        body: { audit: { ...created, ...(body as object) } },
      }),
      [`GET /api/audits/${created.id}`]: { body: { audit: created } },
    });
    const { user, router } = renderApp(`/auditingConfiguration?database=${databaseId}`);
    await user.type(await screen.findByTestId('audit-name', {}, pageLoad), 'Audit ouverture');
    await user.click(screen.getByTestId('section-add'));
    expect(screen.getByTestId('questions-empty').textContent).toBe(
      'No question in this section yet.',
    );
    await user.click(screen.getByTestId('section-add-question'));
    expect(screen.queryByTestId('questions-empty')).toBeNull();
    await user.type(screen.getByTestId('question-text'), 'Porte fermée ?');
    await chooseOption(user, 'question-type', 'Yes or no');
    await user.click(screen.getByTestId('audit-save'));
    await waitFor(() => expect(router.state.location.search).toBe(`?id=${created.id}`));
    const body = api.callsTo('POST', `/api/databases/${databaseId}/audits`)[0]?.body as {
      name: string;
      sections: Audit['sections'];
    };
    expect(body.name).toBe('Audit ouverture');
    expect(body.sections).toHaveLength(1);
    expect(body.sections[0]!.title).toBe('New section');
    const question = body.sections[0]!.questions[0]!;
    expect(question).toMatchObject({ text: 'Porte fermée ?', type: 'yes_or_no', score: 1 });
    expect(question.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('passes axe', async () => {
    const { user } = renderBuilder(buildFixture());
    await selectQuestion(user, 'Quels produits sont utilisés ?');
    await expectNoAxeViolations(document.body);
  });
});
