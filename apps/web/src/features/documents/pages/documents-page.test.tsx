import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../shared/api/api-error';
import { i18n } from '../../../shared/i18n/i18n';
import type { ResumableUpload, UploadOutcome } from '../../../shared/upload/use-resumable-upload';
import { buildId, buildUser } from '../../../test/factories';
import { type ApiCall, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import { buildDocument, buildPage, buildRoot } from '../test/build-document';
import { expectNoAxeViolations } from '../test/expect-no-axe-violations';

// The resumable upload (tus) is tested where it lives; here it answers as the test says.
const upload = vi.hoisted(() => ({ start: vi.fn() }));
vi.mock('../../../shared/upload/use-resumable-upload', () => ({
  useResumableUpload: (): ResumableUpload => ({
    start: upload.start,
    pause: () => undefined,
    resume: () => undefined,
    cancel: () => undefined,
    state: {
      status: 'uploading',
      bytesSent: 1024,
      bytesTotal: 4096,
      speedBytesPerSecond: 0,
      secondsLeft: null,
    },
  }),
}));

const pageLoad = { timeout: 10_000 };

const database = buildRoot('database', 'Brasseries du Sud', { writable: false });
const distributor = buildRoot('distributor', 'Frais Distribution', { writable: false });
const store = buildRoot('store', 'Bistro Opéra');
const owner = store.owner;

const recipes = buildDocument(owner, { name: 'Recettes', type: 'folder', version: 2 });
const photo = buildDocument(owner, {
  name: 'vitrine.jpg',
  content_type: 'image/jpeg',
  version: 3,
});
// A video document carries its host's id and link (spec 002 §3 placeholder metadata).
const videoKey = `stores/${owner.id}/documents/0b7f3c1e-2d4a-4f6b-9c8d-1e2f3a4b5c6d/formation.mp4`;
const video = buildDocument(owner, {
  name: 'formation.mp4',
  content_type: 'video/mp4',
  isVideo: true,
  videoId: videoKey,
  url: `/api/files/${videoKey}`,
});
const manual = buildDocument(owner, { name: 'manuel.pdf', content_type: 'application/pdf' });
const sheet = buildDocument(owner, { name: 'plan.xlsx', version: 5 });
const sauce = buildDocument(owner, {
  name: 'sauce.docx',
  parent_id: recipes.id,
  path: ['Recettes'],
});

type Folders = Record<string, () => ReturnType<typeof buildPage>>;

/** GET /api/documents answered per folder ('root' or a folder id) of the store. */
function folderHandler(folders: Folders): MockHandler {
  return (call: ApiCall) => {
    const folder = folders[call.query.get('parent_id') ?? 'root'];
    return folder ? { body: folder() } : { status: 404, body: { error: { code: 'not-found' } } };
  };
}

const storeRoot = () => buildPage([recipes, photo, video, manual, sheet]);
const recipesFolder = () =>
  buildPage([sauce], {
    folder: recipes,
    breadcrumb: [{ id: recipes.id, name: recipes.name }],
  });

function renderDocuments(
  path = '/documents',
  folders: Folders = { root: storeRoot, [recipes.id]: recipesFolder },
  extra: Record<string, MockHandler> = {},
) {
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
    'GET /api/documents/roots': { body: { items: [database, distributor, store] } },
    'GET /api/documents': folderHandler(folders),
    ...extra,
  });
  return { ...renderApp(path), api };
}

const storePath = `/documents?owner_kind=store&owner_id=${owner.id}`;

const rowNames = () => screen.getAllByTestId('document-name').map((element) => element.textContent);

function rowOf(name: string): HTMLElement {
  const row = screen
    .getAllByTestId('document-row')
    .find((element) => within(element).getByTestId('document-name').textContent === name);
  if (!row) throw new Error(`No row ${name}`);
  return row;
}

async function openMenu(user: ReturnType<typeof renderApp>['user'], name: string) {
  await user.click(within(rowOf(name)).getByTestId('document-menu'));
  return screen.findByRole('menu');
}

describe('documents explorer', { timeout: 30_000 }, () => {
  it('lists the roots as read-only folders with their kind, without New folder', async () => {
    const { container } = renderDocuments();
    const roots = await screen.findAllByTestId('document-root', {}, pageLoad);
    expect(roots.map((root) => root.textContent)).toEqual([
      'Brasseries du SudDatabase',
      'Frais DistributionDistributor',
      'Bistro OpéraStore',
    ]);
    expect(screen.queryByTestId('documents-new-folder')).toBeNull();
    expect(screen.queryByTestId('document-upload')).toBeNull();
    expect(screen.queryByTestId('document-menu')).toBeNull();
    await expectNoAxeViolations(container);
  });

  it('goes into a store, a folder, and back with Back and the breadcrumb', async () => {
    const { user, api, router, container } = renderDocuments();
    await user.click(await screen.findByText('Bistro Opéra', {}, pageLoad));

    await screen.findAllByTestId('document-row');
    expect(rowNames()).toEqual([
      'Recettes',
      'vitrine.jpg',
      'formation.mp4',
      'manuel.pdf',
      'plan.xlsx',
    ]);
    const firstCall = api.callsTo('GET', '/api/documents')[0];
    expect(firstCall?.query.get('owner_kind')).toBe('store');
    expect(firstCall?.query.get('owner_id')).toBe(owner.id);
    expect(firstCall?.query.has('parent_id')).toBe(false);
    expect(screen.getByTestId('documents-breadcrumb').textContent).toBe('Documents/Bistro Opéra');
    expect(screen.getByTestId('documents-new-folder')).toHaveProperty('disabled', false);
    await expectNoAxeViolations(container);

    await user.click(screen.getByRole('button', { name: 'Recettes' }));
    await waitFor(() => expect(rowNames()).toEqual(['sauce.docx']));
    expect(api.callsTo('GET', '/api/documents').at(-1)?.query.get('parent_id')).toBe(recipes.id);
    expect(router.state.location.search).toContain(`folder=${recipes.id}`);
    expect(screen.getByTestId('documents-breadcrumb').textContent).toBe(
      'Documents/Bistro Opéra/Recettes',
    );

    await user.click(screen.getByTestId('documents-back'));
    await waitFor(() => expect(rowNames()).toContain('Recettes'));
    expect(screen.getByTestId('documents-breadcrumb').textContent).toBe('Documents/Bistro Opéra');

    await user.click(screen.getByRole('button', { name: 'Recettes' }));
    await waitFor(() => expect(rowNames()).toEqual(['sauce.docx']));
    await user.click(
      within(screen.getByTestId('documents-breadcrumb')).getByRole('button', {
        name: 'Documents',
      }),
    );
    expect(await screen.findAllByTestId('document-root')).toHaveLength(3);
    expect(screen.queryByTestId('documents-new-folder')).toBeNull();
  });

  it('locks the upload area and New folder where the caller may not write', async () => {
    renderDocuments(storePath, { root: () => buildPage([sheet], { writable: false }) });
    expect((await screen.findByTestId('upload-locked', {}, pageLoad)).textContent).toBe(
      'You cannot add files or folders here.',
    );
    expect(screen.queryByTestId('document-upload')).toBeNull();
    expect(screen.getByTestId('documents-new-folder')).toHaveProperty('disabled', true);
  });

  it('shows No files found. in an empty folder', async () => {
    renderDocuments(storePath, { root: () => buildPage([]) });
    expect((await screen.findByTestId('empty-state', {}, pageLoad)).textContent).toContain(
      'No files found.',
    );
    // An empty folder still takes uploads.
    expect(screen.getByTestId('document-upload')).toBeTruthy();
  });

  it('creates a folder in the folder shown', async () => {
    const { user, api } = renderDocuments(storePath, undefined, {
      'POST /api/documents/folders': {
        body: { item: buildDocument(owner, { name: 'Hygiène', type: 'folder' }) },
      },
    });
    await user.click(await screen.findByTestId('documents-new-folder', {}, pageLoad));
    await user.type(await screen.findByTestId('documents-folder-dialog-name'), '  Hygiène ');
    await user.click(screen.getByTestId('documents-folder-dialog-submit'));
    await waitFor(() => expect(api.callsTo('POST', '/api/documents/folders')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/documents/folders')[0]?.body).toEqual({
      owner,
      parent_id: null,
      name: 'Hygiène',
    });
    await waitFor(() => expect(screen.queryByTestId('documents-folder-dialog-name')).toBeNull());
  });

  it('renames, locks and deletes with the version shown, after the confirmation', async () => {
    const { user, api } = renderDocuments(storePath, undefined, {
      [`PATCH /api/documents/${sheet.id}`]: (call) => ({
        body: { item: { ...sheet, ...(call.body as object), version: 6 } },
      }),
      [`PATCH /api/documents/${photo.id}`]: { body: { item: { ...photo, locked: true } } },
      [`DELETE /api/documents/${recipes.id}`]: { status: 204 },
    });
    await screen.findAllByTestId('document-row', {}, pageLoad);

    let menu = await openMenu(user, 'plan.xlsx');
    await user.click(within(menu).getByTestId('document-rename'));
    const name = await screen.findByTestId('documents-rename-dialog-name');
    expect(name).toHaveProperty('value', 'plan.xlsx');
    await user.clear(name);
    await user.type(name, 'plan 2027.xlsx');
    await user.click(screen.getByTestId('documents-rename-dialog-submit'));
    await waitFor(() => expect(api.callsTo('PATCH', `/api/documents/${sheet.id}`)).toHaveLength(1));
    expect(api.callsTo('PATCH', `/api/documents/${sheet.id}`)[0]?.body).toEqual({
      version: 5,
      name: 'plan 2027.xlsx',
    });

    menu = await openMenu(user, 'vitrine.jpg');
    expect(within(menu).getByTestId('document-lock').textContent).toBe('Lock');
    await user.click(within(menu).getByTestId('document-lock'));
    await waitFor(() => expect(api.callsTo('PATCH', `/api/documents/${photo.id}`)).toHaveLength(1));
    expect(api.callsTo('PATCH', `/api/documents/${photo.id}`)[0]?.body).toEqual({
      version: 3,
      locked: true,
    });

    menu = await openMenu(user, 'Recettes');
    // A folder has nothing to download.
    expect(within(menu).queryByTestId('document-download')).toBeNull();
    await user.click(within(menu).getByTestId('document-delete'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Are you sure you want to delete this item?');
    await user.click(within(dialog).getByTestId('confirm-dialog-cancel'));
    expect(api.callsTo('DELETE', `/api/documents/${recipes.id}`)).toHaveLength(0);

    menu = await openMenu(user, 'Recettes');
    await user.click(within(menu).getByTestId('document-delete'));
    await user.click(await screen.findByTestId('confirm-dialog-confirm'));
    await waitFor(() =>
      expect(api.callsTo('DELETE', `/api/documents/${recipes.id}`)).toHaveLength(1),
    );
  });

  it("asks the spec's French confirmation before deleting", async () => {
    await i18n.changeLanguage('fr');
    const { user } = renderDocuments(storePath);
    await screen.findAllByTestId('document-row', {}, pageLoad);
    const menu = await openMenu(user, 'plan.xlsx');
    await user.click(within(menu).getByTestId('document-delete'));
    expect((await screen.findByRole('dialog')).textContent).toContain(
      'Etes vous sur de vouloir supprimer cet élément ?',
    );
  });

  it('shows locked items with a lock and without rename or delete; read-only ones download only', async () => {
    const locked = buildDocument(owner, { name: 'contrat.pdf', locked: true, version: 4 });
    const readOnly = buildDocument(owner, { name: 'charte.pdf', forceReadonly: true });
    const { user, api } = renderDocuments(
      storePath,
      { root: () => buildPage([locked, readOnly]) },
      {
        [`PATCH /api/documents/${locked.id}`]: { body: { item: { ...locked, locked: false } } },
      },
    );
    await screen.findAllByTestId('document-row', {}, pageLoad);
    expect(within(rowOf('contrat.pdf')).getByRole('img', { name: 'Locked' })).toBeTruthy();
    expect(within(rowOf('charte.pdf')).queryByTestId('document-locked')).toBeNull();

    let menu = await openMenu(user, 'charte.pdf');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Download']);
    await user.keyboard('{Escape}');

    menu = await openMenu(user, 'contrat.pdf');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Download', 'Unlock']);
    await user.click(within(menu).getByTestId('document-lock'));
    await waitFor(() =>
      expect(api.callsTo('PATCH', `/api/documents/${locked.id}`)[0]?.body).toEqual({
        version: 4,
        locked: false,
      }),
    );
  });

  it('previews an image and a video in a modal; PDFs open in a tab, others download', async () => {
    const { user, container } = renderDocuments(storePath);
    await screen.findAllByTestId('document-row', {}, pageLoad);

    await user.click(screen.getByRole('button', { name: 'vitrine.jpg' }));
    const preview = await screen.findByTestId('document-preview-image');
    expect(preview.getAttribute('src')).toBe(photo.url);
    expect(preview.getAttribute('alt')).toBe('vitrine.jpg');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('document-preview-image')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'formation.mp4' }));
    const player = await screen.findByTestId('document-preview-video');
    // It plays from the video host's link, not from the document's own address.
    expect(player.getAttribute('src')).toBe(`/api/files/${videoKey}`);
    expect(player.hasAttribute('controls')).toBe(true);
    await user.keyboard('{Escape}');

    const pdf = screen.getByRole('link', { name: 'manuel.pdf' });
    expect(pdf.getAttribute('href')).toBe(manual.url);
    expect(pdf.getAttribute('target')).toBe('_blank');
    expect(pdf.hasAttribute('download')).toBe(false);
    const other = screen.getByRole('link', { name: 'plan.xlsx' });
    expect(other.getAttribute('href')).toBe(sheet.url);
    expect(other.getAttribute('download')).toBe('plan.xlsx');
    await expectNoAxeViolations(container);
  });

  it('searches in the folder and below, and shows where each result lies', async () => {
    const { user, api } = renderDocuments(
      storePath,
      {
        root: () => buildPage([recipes, sheet]),
      },
      {
        'GET /api/documents': (call) => ({
          body:
            call.query.get('search') === 'sauce' ? buildPage([sauce]) : buildPage([recipes, sheet]),
        }),
      },
    );
    await screen.findAllByTestId('document-row', {}, pageLoad);
    await user.type(screen.getByTestId('documents-search'), 'sauce');
    await waitFor(() => expect(rowNames()).toEqual(['sauce.docx']));
    expect(api.callsTo('GET', '/api/documents').at(-1)?.query.get('search')).toBe('sauce');
    expect(rowOf('sauce.docx').textContent).toContain('Recettes · ');
  });

  it('loads the next page by its cursor', async () => {
    const first = Array.from({ length: 3 }, (_, index) =>
      buildDocument(owner, { name: `fiche-${index}.txt` }),
    );
    const second = buildDocument(owner, { name: 'fiche-3.txt' });
    const { user } = renderDocuments(
      storePath,
      {},
      {
        'GET /api/documents': (call) => ({
          body:
            call.query.get('cursor') === 'after-2'
              ? buildPage([second])
              : buildPage(first, { next_cursor: 'after-2' }),
        }),
      },
    );
    await screen.findAllByTestId('document-row', {}, pageLoad);
    await user.click(screen.getByTestId('documents-load-more'));
    await waitFor(() => expect(rowNames()).toHaveLength(4));
    expect(rowNames().at(-1)).toBe('fiche-3.txt');
    expect(screen.queryByTestId('documents-load-more')).toBeNull();
  });
});

describe('documents upload', { timeout: 30_000 }, () => {
  function fileInput(): HTMLInputElement {
    const input = document.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('No file input');
    return input;
  }

  const outcome = (filename: string): UploadOutcome => ({
    id: 'a'.repeat(32),
    purpose: 'document',
    owner: '',
    filename,
    size: 4096,
    offset: 4096,
    status: 'completed',
    result: { documentId: buildId() },
    error: null,
  });

  it('uploads several files one after the other into the folder shown', async () => {
    let finishFirst: (value: UploadOutcome) => void = () => undefined;
    upload.start.mockReset();
    upload.start
      .mockImplementationOnce(
        () =>
          new Promise<UploadOutcome>((resolve) => {
            finishFirst = resolve;
          }),
      )
      .mockResolvedValueOnce(outcome('b.txt'));
    const { user, api, container } = renderDocuments(`${storePath}&folder=${recipes.id}`);
    await screen.findAllByTestId('document-row', {}, pageLoad);
    await user.upload(fileInput(), [
      new File(['a'], 'a.txt', { type: 'text/plain' }),
      new File(['b'], 'b.txt', { type: 'text/plain' }),
    ]);

    await waitFor(() => expect(upload.start).toHaveBeenCalledTimes(1));
    expect(upload.start.mock.calls[0]?.[1]).toEqual({
      purpose: 'document',
      owner: `store:${owner.id}:${recipes.id}`,
    });
    const entries = screen.getAllByTestId('upload-entry');
    expect(entries.map((entry) => entry.dataset.status)).toEqual(['uploading', 'waiting']);
    expect(within(entries[0]!).getByTestId('upload-progress')).toBeTruthy();
    await expectNoAxeViolations(container);

    const listReads = api.callsTo('GET', '/api/documents').length;
    finishFirst(outcome('a.txt'));
    await waitFor(() => expect(upload.start).toHaveBeenCalledTimes(2));
    expect((upload.start.mock.calls[1]?.[0] as File | undefined)?.name).toBe('b.txt');
    await waitFor(() =>
      expect(screen.getAllByTestId('upload-entry').map((entry) => entry.dataset.status)).toEqual([
        'done',
        'done',
      ]),
    );
    // The folder is read again with the new files.
    await waitFor(() =>
      expect(api.callsTo('GET', '/api/documents').length).toBeGreaterThan(listReads),
    );
  });

  it('tells in a dialog that the name exists, and that a file over 500 MB is refused', async () => {
    upload.start.mockReset();
    upload.start.mockRejectedValueOnce(
      new ApiError({ status: 409, code: 'documents.file-exists', message: 'exists' }),
    );
    const { user } = renderDocuments(storePath);
    await screen.findAllByTestId('document-row', {}, pageLoad);

    await user.upload(fileInput(), new File(['x'], 'plan.xlsx'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('document-upload-refused').textContent).toBe(
      'A file or folder with this name already exists here.',
    );
    expect(dialog.textContent).toContain('plan.xlsx');
    await user.click(within(dialog).getByTestId('document-upload-refused-ok'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByTestId('upload-entry').dataset.status).toBe('failed');

    const huge = new File(['x'], 'film.mov');
    Object.defineProperty(huge, 'size', { value: 500 * 1024 * 1024 + 1 });
    await user.upload(fileInput(), huge);
    expect((await screen.findByTestId('document-upload-refused')).textContent).toBe(
      'The file is too big: 500 MB at most.',
    );
    expect(upload.start).toHaveBeenCalledTimes(1);
  });
});
