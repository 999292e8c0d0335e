import type { Communication, CommunicationBody } from '@mise/shared/communications/schemas';
import { act, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { describe, expect, it, vi } from 'vitest';
import { FakeTusServer } from '../../../shared/upload/test-support';
import { buildId, buildUser } from '../../../test/factories';
import { apiError, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import { brasseries, buildCommunication } from '../test/build-communication';
import { expectNoAxeViolations } from '../test/expect-no-axe-violations';

// The browser build of tus-js-client (attachment uploads), as Vite bundles it.
// @ts-expect-error the browser entry has no type declarations of its own
vi.mock('tus-js-client', () => import('tus-js-client/lib.esm/browser/index.js'));

const pageLoad = { timeout: 10_000 };

const opera = { id: buildId(), name: 'Bistro Opéra', city: 'Paris' };
const vieuxPort = { id: buildId(), name: 'Le Vieux Port', city: 'Marseille' };
const terrasses = { id: buildId(), name: 'Terrasses', active: true, store_ids: [opera.id] };
const centreVille = { id: buildId(), name: 'Centre-ville', active: true, store_ids: [] };
const oldTag = { id: buildId(), name: 'Ancien tag', active: false, store_ids: [] };
const cook = {
  id: buildId(),
  database_id: brasseries.id,
  name: 'Cuisinier',
  active: true,
  features_permissions: {},
};
const waiter = { ...cook, id: buildId(), name: 'Serveur' };

const targetingHandlers: Record<string, MockHandler> = {
  [`GET /api/databases/${brasseries.id}/storeTags`]: {
    body: {
      items: [centreVille, oldTag, terrasses],
      stores: [opera, vieuxPort],
      editable: true,
    },
  },
  [`GET /api/databases/${brasseries.id}/employeeRoles`]: {
    body: { items: [cook, waiter], available_features: [], editable: true },
  },
};

function renderEditor(
  communication: Communication,
  extra: Record<string, MockHandler> = {},
  role: 'admin' | 'manager' | 'customer' = 'manager',
) {
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role }) } },
    [`GET /api/communications/${communication.id}`]: {
      body: { communication, can_edit: role !== 'customer' },
    },
    [`PUT /api/communications/${communication.id}`]: ({ body }) => {
      const saved = body as CommunicationBody & { version: number };
      return {
        body: {
          communication: {
            ...communication,
            ...saved,
            attachment: communication.attachment,
            version: saved.version + 1,
          },
          can_edit: true,
        },
      };
    },
    ...targetingHandlers,
    ...extra,
  });
  return { ...renderApp(`/communication?id=${communication.id}`), api };
}

type User = ReturnType<typeof renderApp>['user'];
type Api = ReturnType<typeof mockApi>;

async function save(user: User, api: Api, communicationId: string) {
  const before = api.callsTo('PUT', `/api/communications/${communicationId}`).length;
  await user.click(screen.getByTestId('communication-save'));
  await waitFor(() =>
    expect(api.callsTo('PUT', `/api/communications/${communicationId}`)).toHaveLength(before + 1),
  );
  return api.callsTo('PUT', `/api/communications/${communicationId}`).at(-1)?.body as
    | (CommunicationBody & { version: number })
    | undefined;
}

/** The picked items of the targeting card's lists (stores or groups, then roles). */
const pillsOf = (element: HTMLElement) =>
  Array.from(element.querySelectorAll('.mantine-MultiSelect-pill')).map((pill) => pill.textContent);

const selectedQuestionText = () =>
  (screen.getByTestId('quiz-question-text') as HTMLTextAreaElement).value;

const quiz = {
  questions: [
    {
      id: 'q-washing',
      text: 'Combien de temps faut-il se laver les mains ?',
      answers: [
        { id: 'a-10', text: '10 secondes', correct: false },
        { id: 'a-30', text: '30 secondes', correct: true },
      ],
    },
    {
      id: 'q-gloves',
      text: 'Quand changer de gants ?',
      answers: [{ id: 'a-each', text: 'À chaque tâche', correct: true }],
    },
    {
      id: 'q-apron',
      text: 'Le tablier est-il obligatoire ?',
      answers: [{ id: 'a-yes', text: 'Oui', correct: true }],
    },
  ],
};

describe('communication editor', { timeout: 60_000 }, () => {
  it('saves the whole communication with its version, days, attachment, quiz and target', async () => {
    const communication = buildCommunication({
      quiz,
      target: {
        stores: [],
        store_tags: [terrasses.id],
        employee_roles: [cook.id],
        store_tags_union: false,
      },
    });
    const { user, api, container } = renderEditor(communication);
    const name = await screen.findByTestId('communication-name', {}, pageLoad);
    expect((name as HTMLInputElement).value).toBe('Nouvelle carte d’hiver');
    expect(screen.getByTestId('communication-attachment-name').textContent).toBe('carte-hiver.pdf');
    expect(screen.getByTestId('communication-attachment-download').getAttribute('href')).toBe(
      communication.attachment?.url,
    );
    // The first question is selected on open.
    expect(selectedQuestionText()).toBe('Combien de temps faut-il se laver les mains ?');

    await expectNoAxeViolations(container);

    await user.clear(name);
    await user.type(name, '  Carte d’hiver 2026 ');
    await user.click(screen.getByTestId('communication-active'));
    const body = await save(user, api, communication.id);
    expect(body).toEqual({
      version: 3,
      name: 'Carte d’hiver 2026',
      active: false,
      start_day: '2026-12-01',
      end_day: '2026-12-07',
      attachment: { name: 'carte-hiver.pdf', path: communication.attachment?.path },
      quiz,
      target: {
        stores: [],
        store_tags: [terrasses.id],
        employee_roles: [cook.id],
        store_tags_union: false,
      },
    });
    expect(await screen.findByText('Saved successfully.')).toBeTruthy();

    // The answer is the new baseline: the next save sends its version.
    expect((await save(user, api, communication.id))?.version).toBe(4);
  });

  it('shows the refusal of a question without a correct answer and selects it; nothing is sent', async () => {
    const communication = buildCommunication({ quiz });
    const { user, api } = renderEditor(communication);
    await screen.findByTestId('quiz-question-editor', {}, pageLoad);

    await user.click(screen.getByTestId('quiz-add-question'));
    await user.type(screen.getByTestId('quiz-question-text'), 'Où ranger les produits ?');
    // Back to the first question: the save must bring the faulty one back.
    await user.click(screen.getAllByTestId('quiz-question-row')[0]!);
    await user.click(screen.getByTestId('communication-save'));

    const issue = await screen.findByTestId('communication-issue');
    expect(
      within(issue).getByText(
        'Each quiz question needs at least one answer and at least one correct answer.',
      ),
    ).toBeTruthy();
    expect(selectedQuestionText()).toBe('Où ranger les produits ?');
    expect(screen.getByTestId('quiz-no-answer')).toBeTruthy();

    await user.click(screen.getByTestId('quiz-add-answer'));
    await user.type(screen.getByTestId('quiz-answer-text'), 'En réserve');
    await user.click(screen.getByTestId('communication-save'));
    expect(await screen.findByTestId('communication-issue')).toBeTruthy();

    await user.click(screen.getByLabelText('Answer 1 is correct'));
    expect(api.callsTo('PUT', `/api/communications/${communication.id}`)).toHaveLength(0);
    const body = await save(user, api, communication.id);
    const added = body?.quiz.questions[3];
    expect(added?.text).toBe('Où ranger les produits ?');
    expect(added?.answers.map(({ text, correct }) => ({ text, correct }))).toEqual([
      { text: 'En réserve', correct: true },
    ]);
  });

  it('deleting a question (after confirming) selects the first remaining one, then none', async () => {
    const communication = buildCommunication({ quiz });
    const { user, api } = renderEditor(communication);
    await screen.findByTestId('quiz-question-editor', {}, pageLoad);

    await user.click(screen.getAllByTestId('quiz-question-row')[2]!);
    expect(selectedQuestionText()).toBe('Le tablier est-il obligatoire ?');
    await user.click(screen.getByTestId('quiz-remove-question'));
    // "No" keeps it.
    await user.click(await screen.findByTestId('confirm-dialog-cancel'));
    await waitFor(() => expect(screen.getAllByTestId('quiz-question-row')).toHaveLength(3));

    await user.click(screen.getByTestId('quiz-remove-question'));
    expect(await screen.findByText('Are you sure you want to delete this question?')).toBeTruthy();
    await user.click(screen.getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(screen.getAllByTestId('quiz-question-row')).toHaveLength(2));
    expect(selectedQuestionText()).toBe('Combien de temps faut-il se laver les mains ?');

    await user.click(screen.getByTestId('quiz-remove-question'));
    await user.click(await screen.findByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(screen.getAllByTestId('quiz-question-row')).toHaveLength(1));
    expect(selectedQuestionText()).toBe('Quand changer de gants ?');

    await user.click(screen.getByTestId('quiz-remove-question'));
    await user.click(await screen.findByTestId('confirm-dialog-confirm'));
    expect(await screen.findByTestId('quiz-empty')).toBeTruthy();
    expect(screen.queryByTestId('quiz-question-editor')).toBeNull();

    expect((await save(user, api, communication.id))?.quiz).toEqual({ questions: [] });
  });

  it('picking groups clears the picked stores, and stores clear the groups; roles stay', async () => {
    const communication = buildCommunication({
      target: {
        stores: [opera.id],
        store_tags: [],
        employee_roles: [waiter.id],
        store_tags_union: true,
      },
    });
    const { user, api } = renderEditor(communication);
    const targeting = await screen.findByTestId('communication-targeting', {}, pageLoad);
    const kind = within(targeting).getByTestId('communication-target-kind');
    expect((within(kind).getByLabelText('Stores') as HTMLInputElement).checked).toBe(true);
    await waitFor(() => expect(pillsOf(targeting)).toEqual(['Bistro Opéra — Paris', 'Serveur']));

    await user.click(within(kind).getByLabelText('Store groups'));
    // Inactive tags are not offered.
    await user.click(screen.getByTestId('communication-target-groups'));
    expect(screen.queryByRole('option', { name: 'Ancien tag' })).toBeNull();
    await user.click(await screen.findByRole('option', { name: 'Terrasses' }));
    await user.click(within(targeting).getByLabelText('All of these groups'));
    expect(pillsOf(targeting)).toEqual(['Terrasses', 'Serveur']);

    let body = await save(user, api, communication.id);
    expect(body?.target).toEqual({
      stores: [],
      store_tags: [terrasses.id],
      employee_roles: [waiter.id],
      store_tags_union: false,
    });

    await user.click(within(kind).getByLabelText('Stores'));
    // The groups are gone with the switch; the roles stay.
    expect(pillsOf(targeting)).toEqual(['Serveur']);
    await user.click(screen.getByTestId('communication-target-stores'));
    await user.click(await screen.findByRole('option', { name: 'Le Vieux Port — Marseille' }));
    expect(pillsOf(targeting)).toEqual(['Le Vieux Port — Marseille', 'Serveur']);
    body = await save(user, api, communication.id);
    expect(body?.target).toEqual({
      stores: [vieuxPort.id],
      store_tags: [],
      employee_roles: [waiter.id],
      store_tags_union: false,
    });

    await user.click(within(kind).getByLabelText('Everyone'));
    expect(screen.getByTestId('communication-target-everyone')).toBeTruthy();
    body = await save(user, api, communication.id);
    expect(body?.target.stores).toEqual([]);
    expect(body?.target.store_tags).toEqual([]);
  });

  it('says when someone else saved first (409) and reloads on demand', async () => {
    const communication = buildCommunication();
    const newer = { ...communication, name: 'Carte d’hiver (revue)', version: 4 };
    let isReloaded = false;
    const { user, api } = renderEditor(communication, {
      [`PUT /api/communications/${communication.id}`]: apiError(409, 'conflict/stale-version'),
      [`GET /api/communications/${communication.id}`]: () => ({
        body: { communication: isReloaded ? newer : communication, can_edit: true },
      }),
    });
    const name = await screen.findByTestId('communication-name', {}, pageLoad);
    await user.type(name, ' !');
    isReloaded = true;
    await save(user, api, communication.id);
    expect(
      await screen.findByText(
        'This record was changed by someone else. Reload it before saving again.',
      ),
    ).toBeTruthy();
    await user.click(screen.getByTestId('confirm-dialog-confirm'));
    await waitFor(() =>
      expect((screen.getByTestId('communication-name') as HTMLInputElement).value).toBe(
        'Carte d’hiver (revue)',
      ),
    );
  });

  it('shows a refusal of the server by its code', async () => {
    const communication = buildCommunication();
    const { user, api } = renderEditor(communication, {
      [`PUT /api/communications/${communication.id}`]: apiError(
        400,
        'communication/target-invalid',
      ),
    });
    await screen.findByTestId('communication-name', {}, pageLoad);
    await save(user, api, communication.id);
    expect(
      await screen.findByText('A targeted store, group or role does not belong to this database.'),
    ).toBeTruthy();
  });

  it('creates a communication: name and attachment required, then the upload and the POST', async () => {
    const created = buildCommunication({ name: 'Fermeture exceptionnelle' });
    const api = mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
      [`POST /api/databases/${brasseries.id}/communications`]: ({ body }) => ({
        body: { communication: { ...created, ...(body as object) }, can_edit: true },
      }),
      [`GET /api/communications/${created.id}`]: {
        body: { communication: created, can_edit: true },
      },
      ...targetingHandlers,
    });
    const { user, router, container } = renderApp(`/communication?database=${brasseries.id}`);
    const server = new FakeTusServer().install();
    const path = `databases/${brasseries.id}/communications/u1/fermeture.pdf`;
    server.outcomeOf = () => ({
      status: 'completed',
      result: { path, name: 'fermeture.pdf', url: `/api/files/${path}` },
    });

    await screen.findByTestId('communication-save', {}, pageLoad);
    expect(screen.getByTestId('page-title').textContent).toBe('New communication');
    await user.click(screen.getByTestId('communication-save'));
    expect(
      within(await screen.findByTestId('communication-issue')).getByText('Name is required.'),
    ).toBeTruthy();
    expect(screen.getByTestId('communication-name').getAttribute('aria-invalid')).toBe('true');

    await user.type(screen.getByTestId('communication-name'), 'Fermeture exceptionnelle');
    await user.click(screen.getByTestId('communication-save'));
    expect(
      within(await screen.findByTestId('communication-issue')).getByText(
        'Please select an attachement for this communication.',
      ),
    ).toBeTruthy();
    await expectNoAxeViolations(container);

    const input = screen
      .getByTestId('communication-attachment')
      .querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File(['pdf'], 'fermeture.pdf', { type: 'application/pdf' }));
    await waitFor(() =>
      expect(screen.getByTestId('communication-attachment-name').textContent).toBe('fermeture.pdf'),
    );
    expect(server.uploads.get(FakeTusServer.idOf(1))?.metadata).toMatchObject({
      purpose: 'communication-attachment',
      owner: brasseries.id,
    });
    expect(screen.getByTestId('communication-attachment-download').getAttribute('href')).toBe(
      `/api/files/${path}`,
    );

    await act(() => user.click(screen.getByTestId('communication-save')));
    await waitFor(() =>
      expect(api.callsTo('POST', `/api/databases/${brasseries.id}/communications`)).toHaveLength(1),
    );
    const today = dayjs();
    expect(api.callsTo('POST', `/api/databases/${brasseries.id}/communications`)[0]?.body).toEqual({
      name: 'Fermeture exceptionnelle',
      active: true,
      start_day: today.format('YYYY-MM-DD'),
      end_day: today.add(6, 'day').format('YYYY-MM-DD'),
      attachment: { name: 'fermeture.pdf', path },
      quiz: { questions: [] },
      target: { stores: [], store_tags: [], employee_roles: [], store_tags_union: true },
    });
    await waitFor(() => expect(router.state.location.search).toBe(`?id=${created.id}`));
    expect(screen.queryByText('Unsaved changes')).toBeNull();
  });

  it('shows the state the chosen days give', async () => {
    renderEditor(buildCommunication({ start_day: '2020-01-01', end_day: '2999-12-31' }));
    expect(
      (await screen.findByTestId('communication-editor-state', {}, pageLoad)).textContent,
    ).toBe('Running');
  });

  it('never lets a customer edit', async () => {
    const communication = buildCommunication();
    renderEditor(communication, {}, 'customer');
    expect(
      await screen.findByText('You do not have permission to execute this action.', {}, pageLoad),
    ).toBeTruthy();
    expect(screen.queryByTestId('communication-save')).toBeNull();
  });

  it('asks before leaving with unsaved changes', async () => {
    const communication = buildCommunication();
    const { user, router } = renderEditor(communication, {
      'GET /api/databases': { body: { items: [brasseries] } },
      [`GET /api/databases/${brasseries.id}/communications`]: {
        body: { items: [], can_edit: true },
      },
    });
    const name = await screen.findByTestId('communication-name', {}, pageLoad);
    await user.type(name, ' !');
    await user.click(screen.getByTestId('communication-back'));
    expect(await screen.findByText('Unsaved changes')).toBeTruthy();
    await user.click(screen.getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/communications'));
  });
});
