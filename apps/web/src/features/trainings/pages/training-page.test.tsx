import type { Training, TrainingBody } from '@mise/shared/trainings/schemas';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../shared/i18n/i18n';
import { FakeTusServer } from '../../../shared/upload/test-support';
import { buildId, buildUser } from '../../../test/factories';
import { apiError, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import { expectNoAxeViolations } from '../../communications/test/expect-no-axe-violations';
import { brasseries, buildTraining } from '../test/build-training';

// The browser build of tus-js-client (attachment uploads), as Vite bundles it.
// @ts-expect-error the browser entry has no type declarations of its own
vi.mock('tus-js-client', () => import('tus-js-client/lib.esm/browser/index.js'));

const pageLoad = { timeout: 10_000 };

const opera = { id: buildId(), name: 'Bistro Opéra', city: 'Paris' };
const vieuxPort = { id: buildId(), name: 'Le Vieux Port', city: 'Marseille' };
const terrasses = { id: buildId(), name: 'Terrasses', active: true, store_ids: [opera.id] };
const hygiene = { id: buildId(), name: 'Hygiène', type: 'database', source: brasseries.id };

type Role = 'admin' | 'distributor' | 'manager' | 'customer';
type User = ReturnType<typeof renderApp>['user'];
type Api = ReturnType<typeof mockApi>;

function handlers(role: Role, extra: Record<string, MockHandler> = {}) {
  return mockApi({
    'GET /api/me': { body: { user: buildUser({ role }) } },
    'GET /api/training-categories': { body: { items: [hygiene] } },
    [`GET /api/databases/${brasseries.id}/storeTags`]: {
      body: { items: [terrasses], stores: [opera, vieuxPort], editable: true },
    },
    ...extra,
  });
}

function renderEditor(training: Training, extra: Record<string, MockHandler> = {}) {
  const api = handlers('manager', {
    [`GET /api/trainings/${training.id}`]: { body: { training } },
    [`PUT /api/trainings/${training.id}`]: ({ body }) => {
      const saved = body as TrainingBody & { version: number };
      return {
        body: {
          training: {
            ...training,
            ...saved,
            sections: training.sections,
            category: null,
            version: saved.version + 1,
          },
        },
      };
    },
    ...extra,
  });
  return { ...renderApp(`/training?id=${training.id}`), api };
}

async function save(user: User, api: Api, trainingId: string) {
  const before = api.callsTo('PUT', `/api/trainings/${trainingId}`).length;
  await user.click(screen.getByTestId('training-save'));
  await waitFor(() =>
    expect(api.callsTo('PUT', `/api/trainings/${trainingId}`)).toHaveLength(before + 1),
  );
  return api.callsTo('PUT', `/api/trainings/${trainingId}`).at(-1)?.body as
    | (TrainingBody & { version: number })
    | undefined;
}

const sectionTitles = () =>
  screen
    .getAllByTestId('training-section-select')
    .map((row) => row.querySelector('.mantine-NavLink-label')?.textContent);

const selectedQuestionText = () =>
  (screen.getByTestId('quiz-question-text') as HTMLTextAreaElement).value;

const issueText = async () => (await screen.findByTestId('training-issue')).textContent;

describe('training editor', { timeout: 60_000 }, () => {
  it('creates a training: one blank "Nouvelle section", the checks, sections, the upload, then the POST', async () => {
    const created = buildTraining({ name: 'Hygiène des mains' });
    const api = handlers('manager', {
      'POST /api/trainings': { body: { training: created } },
      [`GET /api/trainings/${created.id}`]: { body: { training: created } },
    });
    const { user, router, container } = renderApp(`/training?new=1&database=${brasseries.id}`);
    const server = new FakeTusServer().install();
    const path = `databases/${brasseries.id}/training/u1/lavage.pdf`;
    server.outcomeOf = () => ({
      status: 'completed',
      result: { path, name: 'lavage.pdf', url: `/api/files/${path}` },
    });

    await screen.findByTestId('training-save', {}, pageLoad);
    expect(screen.getByTestId('page-title').textContent).toBe('New training');
    expect(screen.getByTestId('page-subtitle').textContent).toBe('Database training');
    expect(sectionTitles()).toEqual(['1. Nouvelle section']);
    expect((screen.getByTestId('training-active') as HTMLInputElement).checked).toBe(false);
    expect(screen.getByTestId('training-target-state').textContent).toBe('Everyone');
    await expectNoAxeViolations(container);

    await user.click(screen.getByTestId('training-save'));
    expect(await issueText()).toContain('Name is required.');
    await user.type(screen.getByTestId('training-name'), 'Hygiène des mains');
    await user.click(screen.getByTestId('training-save'));
    expect(await issueText()).toContain('Please select an attachment for this training.');
    expect(screen.getByTestId('training-attachment-empty').textContent).toBe(
      'Please select an attachment for this training.',
    );

    const input = screen
      .getByTestId('training-attachment')
      .querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File(['pdf'], 'lavage.pdf', { type: 'application/pdf' }));
    await waitFor(() =>
      expect(screen.getByTestId('training-attachment-name').textContent).toBe('lavage.pdf'),
    );
    expect(screen.getByTestId('training-attachment-type').textContent).toBe('PDF');
    expect(server.uploads.get(FakeTusServer.idOf(1))?.metadata).toMatchObject({
      purpose: 'training-attachment',
      owner: `database:${brasseries.id}`,
    });

    // Add a section (selected at once), rename it, then delete it after confirming.
    await user.click(screen.getByTestId('training-section-add'));
    expect(sectionTitles()).toEqual(['1. Nouvelle section', '2. Nouvelle section']);
    expect(screen.getByTestId('training-attachment-empty')).toBeTruthy();
    await user.click(screen.getAllByRole('button', { name: 'Rename Nouvelle section' })[1]!);
    const rename = await screen.findByLabelText('Section title');
    await user.clear(rename);
    await user.type(rename, 'Les gants{Enter}');
    expect(sectionTitles()).toEqual(['1. Nouvelle section', '2. Les gants']);
    await user.click(screen.getByRole('button', { name: 'Delete Les gants' }));
    await user.click(await screen.findByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(sectionTitles()).toEqual(['1. Nouvelle section']));
    // The remaining section keeps its attachment; a training keeps one section.
    expect(screen.getByTestId('training-attachment-name').textContent).toBe('lavage.pdf');
    expect(
      (screen.getByRole('button', { name: 'Delete Nouvelle section' }) as HTMLButtonElement)
        .disabled,
    ).toBe(true);

    // A question without a correct answer is refused and shown.
    await user.click(screen.getByTestId('training-tab-quiz'));
    await user.click(screen.getByTestId('quiz-add-question'));
    await user.type(screen.getByTestId('quiz-question-text'), 'Combien de temps ?');
    await user.click(screen.getByTestId('quiz-add-answer'));
    await user.type(screen.getByTestId('quiz-answer-text'), '30 secondes');
    await user.click(screen.getByTestId('training-tab-attachment'));
    await user.click(screen.getByTestId('training-save'));
    expect(await issueText()).toContain('Please select at least one correct answer for each quiz.');
    expect(screen.getByTestId('quiz-question-issue').textContent).toBe(
      'Please select at least one correct answer for each quiz.',
    );
    await user.click(screen.getByLabelText('Answer 1 is correct'));
    expect(api.callsTo('POST', '/api/trainings')).toHaveLength(0);

    await act(() => user.click(screen.getByTestId('training-save')));
    await waitFor(() => expect(api.callsTo('POST', '/api/trainings')).toHaveLength(1));
    const body = api.callsTo('POST', '/api/trainings')[0]?.body as TrainingBody & {
      database_id: string;
      store_id: string | null;
    };
    const sectionId = body.sections[0]?.id;
    const questionId = body.sections[0]?.quiz.questions[0]?.id;
    const answerId = body.sections[0]?.quiz.questions[0]?.answers[0]?.id;
    expect(body).toEqual({
      name: 'Hygiène des mains',
      active: false,
      lang: 'fr',
      required: false,
      category_id: null,
      sections: [
        {
          id: sectionId,
          title: 'Nouvelle section',
          attachment: { name: 'lavage.pdf', path },
          quiz: {
            questions: [
              {
                id: questionId,
                text: 'Combien de temps ?',
                answers: [{ id: answerId, text: '30 secondes', correct: true }],
              },
            ],
          },
        },
      ],
      target: { stores: [], store_tags: [], employee_roles: [], store_tags_union: true },
      database_id: brasseries.id,
      store_id: null,
    });
    await waitFor(() => expect(router.state.location.search).toBe(`?id=${created.id}`));
    expect(screen.queryByText('Unsaved changes')).toBeNull();
  });

  it('edits a copy: selecting a section selects its first question; Save sends the version', async () => {
    const training = buildTraining({ category: hygiene as Training['category'] });
    const { user, api, container } = renderEditor(training);
    const name = await screen.findByTestId('training-name', {}, pageLoad);
    expect(sectionTitles()).toEqual(['1. Le lavage', '2. Les gants']);
    expect(screen.getByTestId('training-attachment-name').textContent).toBe('lavage.pdf');
    expect(screen.getByTestId('training-attachment-download').getAttribute('href')).toBe(
      training.sections[0]?.attachment?.url,
    );

    await user.click(screen.getByTestId('training-tab-quiz'));
    expect(selectedQuestionText()).toBe('Combien de temps faut-il se laver les mains ?');
    await user.click(screen.getAllByTestId('training-section-select')[1]!);
    expect(selectedQuestionText()).toBe('Quand changer de gants ?');
    await user.click(screen.getAllByTestId('quiz-question-row')[1]!);
    expect(selectedQuestionText()).toBe('Faut-il se laver les mains avant ?');
    // Deleting a question selects the first remaining one.
    await user.click(screen.getByTestId('quiz-remove-question'));
    await user.click(await screen.findByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(screen.getAllByTestId('quiz-question-row')).toHaveLength(1));
    expect(selectedQuestionText()).toBe('Quand changer de gants ?');
    await expectNoAxeViolations(container);

    await user.clear(name);
    await user.type(name, ' Hygiène des mains (2026) ');
    await user.click(screen.getByLabelText('English'));
    await user.click(screen.getByTestId('training-required'));
    await user.click(screen.getByTestId('training-active'));
    const body = await save(user, api, training.id);
    expect(body).toMatchObject({
      version: 2,
      name: 'Hygiène des mains (2026)',
      lang: 'en',
      required: true,
      active: false,
      category_id: hygiene.id,
    });
    expect(body?.sections.map((section) => section.quiz.questions.length)).toEqual([1, 1]);
    expect(body?.sections[1]?.attachment).toEqual({
      name: 'gants.mp4',
      path: training.sections[1]?.attachment?.path,
    });
    expect(await screen.findByText('Saved successfully.')).toBeTruthy();
    expect((await save(user, api, training.id))?.version).toBe(3);
  });

  it('chooses a category, or adds one on demand', async () => {
    const training = buildTraining();
    const created = { id: buildId(), name: 'Sécurité', type: 'database', source: brasseries.id };
    const { user, api } = renderEditor(training, {
      'POST /api/training-categories': { body: { category: created } },
    });
    await screen.findByTestId('training-name', {}, pageLoad);
    await waitFor(() =>
      expect(api.callsTo('GET', '/api/training-categories')[0]?.query.get('database_id')).toBe(
        brasseries.id,
      ),
    );
    await user.click(screen.getByTestId('training-category'));
    await user.click(await screen.findByRole('option', { name: 'Add a category…' }));
    const dialog = await screen.findByRole('dialog', { name: 'New category' });
    await user.type(within(dialog).getByTestId('training-category-name'), ' Sécurité ');
    await user.click(within(dialog).getByTestId('training-category-create'));
    await waitFor(() => expect(api.callsTo('POST', '/api/training-categories')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/training-categories')[0]?.body).toEqual({
      name: 'Sécurité',
      database_id: brasseries.id,
    });
    expect((await save(user, api, training.id))?.category_id).toBe(created.id);
  });

  it('targets stores or groups in the filter dialog: picking one clears the other', async () => {
    const training = buildTraining({
      target: {
        stores: [opera.id, vieuxPort.id],
        store_tags: [],
        employee_roles: [],
        store_tags_union: true,
      },
    });
    const { user, api } = renderEditor(training);
    const state = await screen.findByTestId('training-target-state', {}, pageLoad);
    expect(state.textContent).toBe('Targeted');
    expect(screen.getByTestId('training-target-counts').textContent).toBe('2 stores');

    await user.click(screen.getByTestId('training-target-open'));
    const dialog = await screen.findByRole('dialog', { name: 'Target of the training' });
    const kind = within(dialog).getByTestId('training-target-kind');
    expect((within(kind).getByLabelText('Stores') as HTMLInputElement).checked).toBe(true);
    await user.click(within(kind).getByLabelText('Store groups'));
    await user.click(within(dialog).getByTestId('training-target-groups'));
    await user.click(await screen.findByRole('option', { name: 'Terrasses' }));
    await user.click(within(dialog).getByLabelText('All of these groups'));
    await expectNoAxeViolations(dialog);
    await user.click(within(dialog).getByTestId('training-target-apply'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByTestId('training-target-counts').textContent).toBe(
      '1 store group · All of these groups',
    );
    expect((await save(user, api, training.id))?.target).toEqual({
      stores: [],
      store_tags: [terrasses.id],
      employee_roles: [],
      store_tags_union: false,
    });

    await user.click(screen.getByTestId('training-target-open'));
    const again = await screen.findByRole('dialog', { name: 'Target of the training' });
    await user.click(within(again).getByLabelText('Stores'));
    await user.click(within(again).getByTestId('training-target-stores'));
    await user.click(await screen.findByRole('option', { name: 'Le Vieux Port — Marseille' }));
    await user.click(within(again).getByTestId('training-target-apply'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((await save(user, api, training.id))?.target).toMatchObject({
      stores: [vieuxPort.id],
      store_tags: [],
    });

    await user.click(screen.getByTestId('training-target-open'));
    const last = await screen.findByRole('dialog', { name: 'Target of the training' });
    await user.click(within(last).getByLabelText('Everyone'));
    await user.click(within(last).getByTestId('training-target-apply'));
    await waitFor(() =>
      expect(screen.getByTestId('training-target-state').textContent).toBe('Everyone'),
    );
    expect((await save(user, api, training.id))?.target).toMatchObject({
      stores: [],
      store_tags: [],
    });
  });

  it('offers a distributor training the distributor’s stores, without groups', async () => {
    const distributorId = buildId();
    const training = buildTraining({ type: 'distributor', source: distributorId });
    const { user, api } = renderEditor(training, {
      'GET /api/stores': {
        body: {
          items: [{ ...opera, address: '', postal_code: '', country: 'FR' }],
          total: 1,
        },
      },
    });
    await user.click(await screen.findByTestId('training-target-open', {}, pageLoad));
    const dialog = await screen.findByRole('dialog', { name: 'Target of the training' });
    expect(within(dialog).queryByLabelText('Store groups')).toBeNull();
    await user.click(within(dialog).getByLabelText('Stores'));
    await user.click(within(dialog).getByTestId('training-target-stores'));
    await user.click(await screen.findByRole('option', { name: 'Bistro Opéra — Paris' }));
    expect(api.callsTo('GET', '/api/stores')[0]?.query.get('distributorId')).toBe(distributorId);
    await user.click(within(dialog).getByTestId('training-target-apply'));
    expect((await save(user, api, training.id))?.target.stores).toEqual([opera.id]);
  });

  it('says in French what a quiz lacks, and "Tout le monde"', async () => {
    await i18n.changeLanguage('fr');
    const training = buildTraining();
    training.sections[1]!.quiz.questions[0]!.answers = [
      { id: 'a-each', text: 'À chaque tâche', correct: false },
    ];
    const { user, api } = renderEditor(training);
    expect((await screen.findByTestId('training-target-state', {}, pageLoad)).textContent).toBe(
      'Tout le monde',
    );
    await user.click(screen.getByTestId('training-save'));
    expect(await issueText()).toContain(
      'Veuillez selectionner au moins une bonne réponse pour chaque quiz.',
    );
    // The faulty section and question are selected, on the quiz tab.
    expect(screen.getAllByTestId('training-section-select')[1]?.getAttribute('aria-current')).toBe(
      'true',
    );
    expect(selectedQuestionText()).toBe('Quand changer de gants ?');
    expect(api.callsTo('PUT', `/api/trainings/${training.id}`)).toHaveLength(0);
  });

  it('uploads a global training’s attachments as "global" and shows no target', async () => {
    const api = handlers('admin');
    const { user } = renderApp('/training?new=1');
    const server = new FakeTusServer().install();
    server.outcomeOf = () => ({
      status: 'completed',
      result: { path: 'trainings/u1/guide.pdf', name: 'guide.pdf', url: '/api/files/x' },
    });
    await screen.findByTestId('training-save', {}, pageLoad);
    expect(screen.getByTestId('page-subtitle').textContent).toBe('Global training');
    expect(screen.queryByTestId('training-target')).toBeNull();
    const input = screen
      .getByTestId('training-attachment')
      .querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File(['pdf'], 'guide.pdf', { type: 'application/pdf' }));
    await waitFor(() =>
      expect(server.uploads.get(FakeTusServer.idOf(1))?.metadata).toMatchObject({
        purpose: 'training-attachment',
        owner: 'global',
      }),
    );
    expect(api.callsTo('GET', '/api/training-categories')[0]?.query.toString()).toBe('');
  });

  it('shows a refusal of the server by its code, and 409 reloads on demand', async () => {
    const training = buildTraining();
    const newer = { ...training, name: 'Hygiène (revue)', version: 5 };
    let isReloaded = false;
    const { user, api } = renderEditor(training, {
      [`PUT /api/trainings/${training.id}`]: () =>
        isReloaded
          ? apiError(409, 'conflict/stale-version')
          : apiError(400, 'training/target-invalid'),
      [`GET /api/trainings/${training.id}`]: () => ({
        body: { training: isReloaded ? newer : training },
      }),
    });
    await screen.findByTestId('training-name', {}, pageLoad);
    await save(user, api, training.id);
    expect(
      await screen.findByText('A targeted store or group cannot be aimed at by this training.'),
    ).toBeTruthy();
    isReloaded = true;
    await save(user, api, training.id);
    await user.click(await screen.findByTestId('confirm-dialog-confirm'));
    await waitFor(() =>
      expect((screen.getByTestId('training-name') as HTMLInputElement).value).toBe(
        'Hygiène (revue)',
      ),
    );
  });

  it('refuses a training the caller may not edit, and a new one without a source', async () => {
    const training = buildTraining({ type: 'global', source: null, can_edit: false });
    renderEditor(training);
    expect(await screen.findByTestId('training-no-permission', {}, pageLoad)).toBeTruthy();
    expect(screen.queryByTestId('training-save')).toBeNull();
  });

  it('tells a manager opening a new training without a database to select a source', async () => {
    handlers('manager');
    renderApp('/training?new=1');
    expect(await screen.findByText('Please select a training source.', {}, pageLoad)).toBeTruthy();
  });

  it('asks before leaving with unsaved changes', async () => {
    const training = buildTraining();
    const { user, router } = renderEditor(training, {
      'GET /api/databases': { body: { items: [brasseries] } },
      'GET /api/trainings': { body: { items: [], can_create: true } },
    });
    const name = await screen.findByTestId('training-name', {}, pageLoad);
    await user.type(name, ' !');
    await user.click(screen.getByTestId('training-back'));
    expect(await screen.findByText('Unsaved changes')).toBeTruthy();
    await user.click(screen.getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/trainings'));
    expect(router.state.location.search).toBe(`?database=${brasseries.id}`);
  });
});
