import type { TaskConfiguration } from '@mise/shared/tasks/schemas';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { FakeTusServer } from '../../../shared/upload/test-support';
import { buildId, buildUser } from '../../../test/factories';
import { mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import { buildTaskConfiguration, taskFieldStates } from '../test/build-task-configuration';

// The browser build of tus-js-client (attachment uploads), as Vite bundles it.
// @ts-expect-error the browser entry has no type declarations of its own
vi.mock('tus-js-client', () => import('tus-js-client/lib.esm/browser/index.js'));

const me = { body: { user: buildUser({ role: 'admin' }) } };
/** The first render loads the page's chunk. */
const firstRender = { timeout: 10_000 };

type Action = { name: string; requires_picture: boolean; attachments: Attachment[] };
type Attachment = { name: string; path: string };

function actionsConfiguration(
  actions: Action[],
  overrides: Partial<TaskConfiguration> = {},
): TaskConfiguration {
  return buildTaskConfiguration({
    module: 'actions',
    name: 'Nettoyage',
    configuration: { actions },
    ...overrides,
  });
}

function renderDatabaseConfiguration(configuration: TaskConfiguration) {
  const api = mockApi({
    'GET /api/me': me,
    [`GET /api/taskConfigurations/${configuration.id}`]: { body: { configuration } },
    [`GET /api/databases/${configuration.database_id}/taskTypes`]: { body: { items: [] } },
    [`PATCH /api/taskConfigurations/${configuration.id}`]: {
      body: { configuration: { ...configuration, version: configuration.version + 1 } },
    },
  });
  return { ...renderApp(`/taskConf?id=${configuration.id}`), api };
}

function renderStoreConfiguration(configuration: TaskConfiguration) {
  const storeId = configuration.store_id ?? '';
  const api = mockApi({
    'GET /api/me': me,
    [`GET /api/storeTaskConfigurations/${configuration.id}`]: { body: { configuration } },
    [`GET /api/stores/${storeId}/taskTypes`]: { body: { items: [] } },
    [`GET /api/stores/${storeId}/taskConfigurations/elements`]: { body: { items: [] } },
    [`PATCH /api/storeTaskConfigurations/${configuration.id}`]: {
      body: { configuration: { ...configuration, version: configuration.version + 1 } },
    },
  });
  return { ...renderApp(`/storeTaskConf?id=${configuration.id}`), api };
}

function storeConfiguration(actions: Action[], states: Partial<TaskConfiguration> = {}) {
  return actionsConfiguration(actions, {
    level: 'store',
    database_id: null,
    store_id: buildId(),
    origin_id: buildId(),
    is_remote: true,
    field_states: taskFieldStates('inherited'),
    ...states,
  });
}

const actionRows = () => screen.getAllByTestId('action-row');
const row = (index: number) => actionRows()[index] as HTMLElement;
const fileInputOf = (element: HTMLElement) =>
  element.querySelector('input[type="file"]') as HTMLInputElement;

describe('action attachments', { timeout: 60_000 }, () => {
  it('uploads a picture to the chosen action (database folder) and saves it with the configuration', async () => {
    const configuration = actionsConfiguration([
      { name: 'Vider les poubelles', requires_picture: false, attachments: [] },
      { name: 'Nettoyer la trancheuse', requires_picture: true, attachments: [] },
    ]);
    const databaseId = configuration.database_id ?? '';
    const { user, api } = renderDatabaseConfiguration(configuration);
    const server = new FakeTusServer().install();
    server.holdPatches = true;
    const path = `databases/${databaseId}/task_configurations_attachments/a1/trancheuse.png`;
    server.outcomeOf = () => ({
      status: 'completed',
      result: { path, name: 'trancheuse.png', url: `/api/files/${path}` },
    });

    await screen.findAllByTestId('action-row', {}, firstRender);
    const input = fileInputOf(row(1));
    expect(input.accept).toContain('image/png');
    expect(input.accept).toContain('application/pdf');
    expect(input.accept).toContain('video/mp4');
    await user.upload(input, new File(['png'], 'trancheuse.png', { type: 'image/png' }));

    await waitFor(() => expect(server.heldPatches).toHaveLength(1));
    expect(server.uploads.get(FakeTusServer.idOf(1))?.metadata).toMatchObject({
      purpose: 'database-task-attachment',
      owner: databaseId,
      filename: 'trancheuse.png',
    });
    act(() => server.heldPatches[0]?.progress(1));
    const progress = await within(row(1)).findByRole('progressbar', {
      name: 'Uploading trancheuse.png',
    });
    await waitFor(() => expect(progress.getAttribute('aria-valuenow')).toBe('33'));
    act(() => server.heldPatches[0]?.accept());

    const attachment = await within(row(1)).findByTestId('action-attachment');
    expect(within(attachment).getByTestId('action-attachment-name').textContent).toBe(
      'trancheuse.png',
    );
    expect(within(attachment).getByTestId('action-attachment-download').getAttribute('href')).toBe(
      `/api/files/${path}`,
    );
    expect(within(attachment).getByTestId('action-attachment-thumbnail').getAttribute('src')).toBe(
      `/api/files/${path}?size=thumb`,
    );
    expect(within(row(0)).queryByTestId('action-attachment')).toBeNull();
    expect(within(row(1)).queryByRole('progressbar')).toBeNull();

    await user.click(screen.getByTestId('task-configuration-save'));
    await waitFor(() =>
      expect(api.callsTo('PATCH', `/api/taskConfigurations/${configuration.id}`)).toHaveLength(1),
    );
    expect(api.callsTo('PATCH', `/api/taskConfigurations/${configuration.id}`)[0]?.body).toEqual({
      version: configuration.version,
      configuration: {
        actions: [
          { name: 'Vider les poubelles', requires_picture: false, attachments: [] },
          {
            name: 'Nettoyer la trancheuse',
            requires_picture: true,
            attachments: [{ name: 'trancheuse.png', path }],
          },
        ],
      },
    });
  });

  it('renames and removes attachments (after confirming); the save sends the new list', async () => {
    const folder = 'databases/d/task_configurations_attachments';
    const procedure = { name: 'procedure.pdf', path: `${folder}/p1/procedure.pdf` };
    const photo = { name: 'photo.jpg', path: `${folder}/p2/photo.jpg` };
    const video = { name: 'demo.mp4', path: `${folder}/p3/demo.mp4` };
    const configuration = actionsConfiguration([
      { name: 'Désinfecter', requires_picture: false, attachments: [procedure, photo, video] },
    ]);
    const { user, api } = renderDatabaseConfiguration(configuration);

    const attachments = await screen.findAllByTestId('action-attachment', {}, firstRender);
    expect(attachments).toHaveLength(3);
    // Only pictures have a thumbnail.
    expect(within(attachments[0] as HTMLElement).queryByTestId('action-attachment-thumbnail')).toBe(
      null,
    );
    expect(
      within(attachments[1] as HTMLElement).getByTestId('action-attachment-thumbnail'),
    ).toBeTruthy();

    await user.click(within(attachments[0] as HTMLElement).getByTestId('action-attachment-rename'));
    const input = screen.getByTestId('action-attachment-name-input');
    await user.clear(input);
    await user.type(input, 'Procédure HACCP{Enter}');
    expect(
      within(screen.getAllByTestId('action-attachment')[0] as HTMLElement).getByTestId(
        'action-attachment-name',
      ).textContent,
    ).toBe('Procédure HACCP');

    // Cancelling the confirmation keeps the attachment.
    await user.click(within(attachments[2] as HTMLElement).getByTestId('action-attachment-remove'));
    await user.click(await screen.findByTestId('confirm-dialog-cancel'));
    await waitFor(() => expect(screen.queryByTestId('confirm-dialog-cancel')).toBeNull());
    expect(screen.getAllByTestId('action-attachment')).toHaveLength(3);
    await user.click(
      within(screen.getAllByTestId('action-attachment')[1] as HTMLElement).getByTestId(
        'action-attachment-remove',
      ),
    );
    expect((await screen.findByRole('dialog')).textContent).toContain(
      'Remove “photo.jpg” from this action?',
    );
    await user.click(screen.getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(screen.getAllByTestId('action-attachment')).toHaveLength(2));

    await user.click(screen.getByTestId('task-configuration-save'));
    await waitFor(() =>
      expect(api.callsTo('PATCH', `/api/taskConfigurations/${configuration.id}`)).toHaveLength(1),
    );
    expect(api.callsTo('PATCH', `/api/taskConfigurations/${configuration.id}`)[0]?.body).toEqual({
      version: configuration.version,
      configuration: {
        actions: [
          {
            name: 'Désinfecter',
            requires_picture: false,
            attachments: [{ name: 'Procédure HACCP', path: procedure.path }, video],
          },
        ],
      },
    });
  });

  it('shows names cut to 20 characters with the full name as title', async () => {
    const long = 'Protocole de nettoyage des hottes 2026.pdf';
    const short = 'Fiche 20 caractères.';
    const folder = 'databases/d/task_configurations_attachments';
    renderDatabaseConfiguration(
      actionsConfiguration([
        {
          name: 'Hottes',
          requires_picture: false,
          attachments: [
            { name: long, path: `${folder}/l/protocole.pdf` },
            { name: short, path: `${folder}/s/fiche.pdf` },
          ],
        },
      ]),
    );

    const names = await screen.findAllByTestId('action-attachment-name', {}, firstRender);
    expect(names.map((name) => name.textContent)).toEqual(['Protocole de nettoya…', short]);
    expect(names.map((name) => name.getAttribute('title'))).toEqual([long, short]);
    expect(screen.getAllByTestId('action-attachment-download')[0]?.getAttribute('aria-label')).toBe(
      `Download ${long}`,
    );
  });

  it('keeps attachments read-only at store level when the database locks the content', async () => {
    const attachment = {
      name: 'procedure.pdf',
      path: 'databases/d/task_configurations_attachments/p/procedure.pdf',
    };
    const configuration = storeConfiguration(
      [{ name: 'Désinfecter', requires_picture: false, attachments: [attachment] }],
      { field_states: taskFieldStates('inherited', { configuration: 'locked' }) },
    );
    renderStoreConfiguration(configuration);

    expect(await screen.findByTestId('action-attachment', {}, firstRender)).toBeTruthy();
    expect(screen.getByTestId('action-attachment-download').getAttribute('href')).toBe(
      `/api/files/${attachment.path}`,
    );
    expect(screen.queryByTestId('action-attachment-upload')).toBeNull();
    expect(screen.queryByTestId('action-attachment-rename')).toBeNull();
    expect(screen.queryByTestId('action-attachment-remove')).toBeNull();
    expect(document.querySelector('input[type="file"]')).toBeNull();
  });

  it("uploads into the store's folder when the store overrides the content; at most 10 per action", async () => {
    const folder = 'databases/d/task_configurations_attachments';
    const nine = Array.from({ length: 9 }, (_, index) => ({
      name: `fiche-${index}.pdf`,
      path: `${folder}/f${index}/fiche.pdf`,
    }));
    const configuration = storeConfiguration([
      { name: 'Désinfecter', requires_picture: false, attachments: nine },
    ]);
    const storeId = configuration.store_id ?? '';
    const { user, api } = renderStoreConfiguration(configuration);
    const server = new FakeTusServer().install();
    const path = `stores/${storeId}/task_configurations_attachments/a1/plan.pdf`;
    server.outcomeOf = () => ({
      status: 'completed',
      result: { path, name: 'plan.pdf', url: `/api/files/${path}` },
    });

    await screen.findAllByTestId('action-attachment', {}, firstRender);
    expect(screen.queryByTestId('action-attachments-full')).toBeNull();
    await user.upload(
      fileInputOf(row(0)),
      new File(['%PDF-1.7'], 'plan.pdf', { type: 'application/pdf' }),
    );
    await waitFor(() => expect(screen.getAllByTestId('action-attachment')).toHaveLength(10));
    expect(server.uploads.get(FakeTusServer.idOf(1))?.metadata).toMatchObject({
      purpose: 'store-task-attachment',
      owner: storeId,
    });
    expect(screen.getByTestId('action-attachments-full').textContent).toBe(
      '10 attachments at most per action.',
    );
    expect((screen.getByTestId('action-attachment-upload') as HTMLButtonElement).disabled).toBe(
      true,
    );

    await user.click(screen.getByTestId('task-configuration-save'));
    await waitFor(() =>
      expect(api.callsTo('PATCH', `/api/storeTaskConfigurations/${configuration.id}`)).toHaveLength(
        1,
      ),
    );
    expect(
      api.callsTo('PATCH', `/api/storeTaskConfigurations/${configuration.id}`)[0]?.body,
    ).toEqual({
      version: configuration.version,
      configuration: {
        actions: [
          {
            name: 'Désinfecter',
            requires_picture: false,
            attachments: [...nine, { name: 'plan.pdf', path }],
          },
        ],
      },
    });
  });
});
