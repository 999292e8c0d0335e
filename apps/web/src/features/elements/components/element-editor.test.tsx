import type { Element } from '@mise/shared/catalogue/schemas';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../shared/i18n/i18n';
import { FakeTusServer } from '../../../shared/upload/test-support';
import { buildId, buildUser } from '../../../test/factories';
import { apiError, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import { buildElement, buildLabel, fieldStates } from '../test/build-element';

// The browser build of tus-js-client (attachment uploads), as Vite bundles it.
// @ts-expect-error the browser entry has no type declarations of its own
vi.mock('tus-js-client', () => import('tus-js-client/lib.esm/browser/index.js'));

const me = { body: { user: buildUser({ role: 'admin' }) } };

function renderDatabaseElement(element: Element, extra: Record<string, MockHandler> = {}) {
  const api = mockApi({
    'GET /api/me': me,
    [`GET /api/databaseElements/${element.id}`]: { body: { element } },
    [`GET /api/databases/${element.database_id}/elementTypes`]: { body: { items: [] } },
    [`PATCH /api/databaseElements/${element.id}`]: ({ body }) => ({
      body: { element: { ...element, version: element.version + 1, ...(body as object) } },
    }),
    ...extra,
  });
  return { ...renderApp(`/databaseElement?id=${element.id}`), api };
}

function renderStoreElement(element: Element, extra: Record<string, MockHandler> = {}) {
  const api = mockApi({
    'GET /api/me': me,
    [`GET /api/storeElements/${element.id}`]: { body: { element } },
    [`GET /api/stores/${element.store_id}/elementTypes`]: { body: { items: [] } },
    [`PATCH /api/storeElements/${element.id}`]: {
      body: { element: { ...element, version: element.version + 1 } },
    },
    ...extra,
  });
  return { ...renderApp(`/storeElement?id=${element.id}`), api };
}

function buildStoreElement(overrides: Partial<Element> = {}): Element {
  return buildElement({
    level: 'store',
    database_id: null,
    store_id: buildId(),
    origin_id: buildId(),
    is_remote: true,
    type_id: buildId(),
    type_name: 'Poissons',
    field_states: fieldStates('inherited'),
    ...overrides,
  });
}

describe('element editor', { timeout: 30_000 }, () => {
  it('creates a database element, then edits it with its version', async () => {
    const databaseId = buildId();
    const created = buildElement({ database_id: databaseId, name: 'Crème', version: 0 });
    const { user, api, router } = renderDatabaseElement(created, {
      [`GET /api/databases/${databaseId}/elements/context`]: {
        body: { hidden_modules: [], editable: true },
      },
      [`POST /api/databases/${databaseId}/elements`]: { body: { element: created } },
    });
    await router.navigate(`/databaseElement?database=${databaseId}`);

    expect(await screen.findByTestId('element-save')).toBeTruthy();
    expect(screen.queryByTestId('element-duplicate')).toBeNull();
    expect(screen.getByTestId('illustration-save-first')).toBeTruthy();
    await user.type(screen.getByTestId('field-name'), ' Crème ');
    await user.click(screen.getByTestId('element-save'));

    await waitFor(() => expect(router.state.location.search).toBe(`?id=${created.id}`));
    const post = api.callsTo('POST', `/api/databases/${databaseId}/elements`)[0]?.body;
    expect(post).toMatchObject({
      name: 'Crème',
      active: true,
      maximum_polarity: 25,
      reheating_duration: 60,
      locks: { name: true, labels: true },
    });
    expect(post).not.toHaveProperty('illustration_url');
    expect(await screen.findByTestId('element-duplicate')).toBeTruthy();
    expect(await screen.findByText('Saved successfully.')).toBeTruthy();

    const name = screen.getByTestId('field-name');
    await user.clear(name);
    await user.type(name, 'Crème fraîche');
    await user.click(screen.getByTestId('lock-name'));
    await user.click(screen.getByTestId('element-save'));
    await waitFor(() =>
      expect(api.callsTo('PATCH', `/api/databaseElements/${created.id}`)).toHaveLength(1),
    );
    expect(api.callsTo('PATCH', `/api/databaseElements/${created.id}`)[0]?.body).toEqual({
      version: 0,
      name: 'Crème fraîche',
      locks: { name: false },
    });
  });

  it('refuses a minimum above the maximum', async () => {
    const element = buildElement();
    const { user, api } = renderDatabaseElement(element);
    const minimum = await screen.findByTestId('field-minimum_temperature');
    await user.clear(minimum);
    await user.type(minimum, '8');
    await user.click(screen.getByTestId('element-save'));
    expect((await screen.findByTestId('element-validation')).textContent).toBe(
      'The minimum temperature must not be higher than the maximum temperature.',
    );
    expect(api.callsTo('PATCH', `/api/databaseElements/${element.id}`)).toHaveLength(0);
  });

  it('refuses an empty name with the spec message', async () => {
    const element = buildElement();
    await i18n.changeLanguage('fr');
    const { user, api } = renderDatabaseElement(element);
    await user.clear(await screen.findByTestId('field-name'));
    await user.click(screen.getByTestId('element-save'));
    expect((await screen.findByTestId('element-validation')).textContent).toBe(
      'Veuillez specifier un nom valide.',
    );
    expect(api.callsTo('PATCH', `/api/databaseElements/${element.id}`)).toHaveLength(0);
  });

  it('asks for a type at store level', async () => {
    const storeId = buildId();
    const api = mockApi({
      'GET /api/me': me,
      [`GET /api/stores/${storeId}/elements/context`]: {
        body: { hidden_modules: [], editable: true },
      },
      [`GET /api/stores/${storeId}/elementTypes`]: { body: { items: [] } },
    });
    await i18n.changeLanguage('fr');
    const { user } = renderApp(`/newElement?store=${storeId}`);
    await user.type(await screen.findByTestId('field-name'), 'Bar');
    await user.click(screen.getByTestId('element-save'));
    expect((await screen.findByTestId('element-validation')).textContent).toBe(
      "Veuillez selectionner un type d'élement.",
    );
    expect(api.callsTo('POST', `/api/stores/${storeId}/elements`)).toHaveLength(0);
  });

  it('shows database locks as read-only at store level and never sends them', async () => {
    const element = buildStoreElement({
      field_states: fieldStates('inherited', { minimum_temperature: 'locked' }),
    });
    const { user, api } = renderStoreElement(element);
    const minimum = (await screen.findByTestId('field-minimum_temperature')) as HTMLInputElement;
    expect(minimum.readOnly).toBe(true);
    expect(screen.getByTestId('locked-minimum_temperature')).toBeTruthy();
    expect(screen.getByTestId('inherited-maximum_temperature')).toBeTruthy();

    const maximum = screen.getByTestId('field-maximum_temperature');
    await user.clear(maximum);
    await user.type(maximum, '6');
    expect(await screen.findByTestId('reset-maximum_temperature')).toBeTruthy();
    await user.click(screen.getByTestId('element-save'));
    await waitFor(() =>
      expect(api.callsTo('PATCH', `/api/storeElements/${element.id}`)).toHaveLength(1),
    );
    const body = api.callsTo('PATCH', `/api/storeElements/${element.id}`)[0]?.body;
    expect(body).toEqual({ version: element.version, maximum_temperature: 6 });
    expect(body).not.toHaveProperty('minimum_temperature');
  });

  it('resets an overridden field to the database value by sending null', async () => {
    const element = buildStoreElement({
      maximum_polarity: 30,
      field_states: fieldStates('inherited', { maximum_polarity: 'overridden' }),
    });
    const { user, api } = renderStoreElement(element);
    await user.click(await screen.findByTestId('element-tab-oils'));
    await user.click(await screen.findByTestId('reset-maximum_polarity'));
    expect(screen.getByTestId('inherited-maximum_polarity')).toBeTruthy();
    await user.click(screen.getByTestId('element-save'));
    await waitFor(() =>
      expect(api.callsTo('PATCH', `/api/storeElements/${element.id}`)).toHaveLength(1),
    );
    expect(api.callsTo('PATCH', `/api/storeElements/${element.id}`)[0]?.body).toEqual({
      version: element.version,
      maximum_polarity: null,
    });
  });

  it('shows the label fields each type needs and blocks a freeform text too long', async () => {
    const { user } = renderDatabaseElement(buildElement());
    await user.click(await screen.findByTestId('element-tab-labels'));
    await user.click(await screen.findByTestId('label-add'));
    const dialog = await screen.findByRole('dialog');
    // A new label is a defrosting one.
    expect(within(dialog).getByTestId('label-defrosting-days')).toBeTruthy();
    expect(within(dialog).getByTestId('label-cumulate')).toBeTruthy();
    expect(within(dialog).getByTestId('label-expiration-hours')).toBeTruthy();
    expect(within(dialog).queryByTestId('label-show-hour')).toBeNull();

    async function chooseType(name: string) {
      await user.click(within(dialog).getByTestId('label-type'));
      await user.click(await within(dialog).findByRole('option', { name }));
      await waitFor(() =>
        expect((within(dialog).getByTestId('label-type') as HTMLInputElement).value).toBe(name),
      );
    }
    await chooseType('Customer expiration');
    expect(within(dialog).getByTestId('label-expiration-days')).toBeTruthy();
    expect(within(dialog).queryByTestId('label-expiration-hours')).toBeNull();
    expect(within(dialog).queryByTestId('label-defrosting-days')).toBeNull();
    expect(within(dialog).queryByTestId('label-cumulate')).toBeNull();

    await chooseType('Expiration');
    expect(within(dialog).getByTestId('label-show-hour')).toBeTruthy();
    expect(within(dialog).getByTestId('label-expiration-hours')).toBeTruthy();

    await chooseType('Free text');
    await user.type(within(dialog).getByTestId('label-name'), 'Mention');
    await user.type(within(dialog).getByTestId('label-freeform'), 'a{Enter}b{Enter}c{Enter}d');
    expect(within(dialog).queryByText(/fewer than 5 lines/)).toBeNull();
    await user.type(within(dialog).getByTestId('label-freeform'), '{Enter}e{Enter}f');
    expect(
      await within(dialog).findByText(
        'The text must have fewer than 5 lines and at most 200 characters.',
      ),
    ).toBeTruthy();
    expect(within(dialog).getByTestId('label-submit').hasAttribute('disabled')).toBe(true);
  });

  it('saves the labels in their new order with their hours', async () => {
    const first = buildLabel({ name: 'Ouverture', type: 'opening', expiration_duration: 50 });
    const second = buildLabel({ name: 'DLC', index: 1 });
    const element = buildElement({ labels: [first, second] });
    const { user, api } = renderDatabaseElement(element);
    await user.click(await screen.findByTestId('element-tab-labels'));
    const rows = await screen.findAllByTestId('label-row');
    expect(within(rows[0] as HTMLElement).getByTestId('label-row-summary').textContent).toBe(
      'Expiration: 2 d 2 h',
    );
    await user.click(within(rows[0] as HTMLElement).getByTestId('label-down'));
    expect(screen.getAllByTestId('label-row-name').map((cell) => cell.textContent)).toEqual([
      'DLC',
      'Ouverture',
    ]);
    await user.click(screen.getByTestId('element-save'));
    await waitFor(() =>
      expect(api.callsTo('PATCH', `/api/databaseElements/${element.id}`)).toHaveLength(1),
    );
    const body = api.callsTo('PATCH', `/api/databaseElements/${element.id}`)[0]?.body as {
      labels: { id: string; name: string; expiration_duration: number }[];
    };
    expect(body.labels.map((label) => [label.id, label.name, label.expiration_duration])).toEqual([
      [second.id, 'DLC', 72],
      [first.id, 'Ouverture', 50],
    ]);
  });

  it('hides the tabs of hidden modules', async () => {
    renderDatabaseElement(buildElement({ hidden_modules: ['oils', 'encyclopedia'] }));
    expect(await screen.findByTestId('element-tab-temperatures')).toBeTruthy();
    expect(screen.getByTestId('element-tab-recipe')).toBeTruthy();
    expect(screen.queryByTestId('element-tab-oils')).toBeNull();
    expect(screen.queryByTestId('element-tab-encyclopedia')).toBeNull();
  });

  it('says the stock image search is unavailable without a provider', async () => {
    const { user, api } = renderDatabaseElement(buildElement(), {
      'GET /api/stockImages': { body: { configured: false, items: [] } },
    });
    await user.click(await screen.findByTestId('stock-images-open'));
    expect(
      await screen.findByTestId('stock-images-not-configured', {}, { timeout: 3000 }),
    ).toBeTruthy();
    expect(screen.getByTestId('stock-images-not-configured').textContent).toBe(
      'No stock image provider is configured: the search is not available.',
    );
    expect((screen.getByTestId('stock-images-search') as HTMLInputElement).disabled).toBe(true);
    expect(api.callsTo('GET', '/api/stockImages')[0]?.query.get('query')).toBe('Saumon fumé');
  });

  it('asks before leaving with unsaved changes', async () => {
    const element = buildElement();
    const { user, router } = renderDatabaseElement(element);
    await user.type(await screen.findByTestId('field-name'), ' bio');
    await user.click(screen.getByTestId('element-back'));
    expect(
      await screen.findByText('You have unsaved changes. Leave this page anyway?'),
    ).toBeTruthy();
    await user.click(screen.getByTestId('confirm-dialog-cancel'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/databaseElement'));

    await user.click(screen.getByTestId('element-back'));
    await user.click(await screen.findByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/database'));
    expect(router.state.location.search).toBe(`?id=${element.database_id}&tab=1`);
  });

  it('saves a database element seen from a store as the store own, then edits it', async () => {
    const storeId = buildId();
    const originId = buildId();
    const seen = buildStoreElement({
      id: null,
      store_id: storeId,
      origin_id: originId,
      is_remote: false,
      field_states: fieldStates('inherited', { name: 'locked' }),
    });
    const saved = { ...seen, id: buildId(), is_remote: true, version: 0 };
    const api = mockApi({
      'GET /api/me': me,
      [`GET /api/stores/${storeId}/elements/origin/${originId}`]: { body: { element: seen } },
      [`GET /api/stores/${storeId}/elementTypes`]: { body: { items: [] } },
      [`POST /api/stores/${storeId}/elements`]: { body: { element: saved } },
      [`GET /api/storeElements/${saved.id}`]: { body: { element: saved } },
    });
    const { user, router } = renderApp(`/storeElement?store=${storeId}&origin=${originId}`);
    expect(((await screen.findByTestId('field-name')) as HTMLInputElement).readOnly).toBe(true);
    expect(screen.queryByTestId('element-duplicate')).toBeNull();
    await user.click(screen.getByTestId('field-temperature_delivery_item'));
    await user.click(screen.getByTestId('element-save'));

    await waitFor(() => expect(router.state.location.search).toBe(`?id=${saved.id}`));
    expect(api.callsTo('POST', `/api/stores/${storeId}/elements`)[0]?.body).toEqual({
      origin_id: originId,
      temperature_delivery_item: true,
    });
    expect(await screen.findByTestId('element-duplicate')).toBeTruthy();
  });

  it('offers to reload when someone else saved the element first', async () => {
    const element = buildElement();
    const fresh = { ...element, name: 'Saumon (modifié)', version: 9 };
    let reads = 0;
    const { user } = renderDatabaseElement(element, {
      [`GET /api/databaseElements/${element.id}`]: () => {
        reads += 1;
        return { body: { element: reads === 1 ? element : fresh } };
      },
      [`PATCH /api/databaseElements/${element.id}`]: apiError(409, 'conflict/stale-version'),
    });
    await user.type(await screen.findByTestId('field-name'), ' bio');
    await user.click(screen.getByTestId('element-save'));
    expect(
      await screen.findByText(
        'This record was changed by someone else. Reload it before saving again.',
      ),
    ).toBeTruthy();
    await user.click(screen.getByTestId('confirm-dialog-confirm'));
    await waitFor(() =>
      expect((screen.getByTestId('field-name') as HTMLInputElement).value).toBe('Saumon (modifié)'),
    );
  });

  it('shows a save failure as a translated toast', async () => {
    const element = buildElement();
    const { user } = renderDatabaseElement(element, {
      [`PATCH /api/databaseElements/${element.id}`]: apiError(403, 'element/field-locked'),
    });
    await user.type(await screen.findByTestId('field-name'), ' bio');
    await user.click(screen.getByTestId('element-save'));
    const toast = await screen.findByTestId('notice-error');
    expect(toast.textContent).toContain('The changes could not be saved.');
    expect(toast.textContent).toContain(
      'This field is locked by the database and cannot be changed here.',
    );
  });

  it('is read-only when the element is not editable', async () => {
    const element = buildElement({ editable: false, labels: [buildLabel()] });
    const { user } = renderDatabaseElement(element);
    expect(((await screen.findByTestId('field-name')) as HTMLInputElement).readOnly).toBe(true);
    expect(screen.getByTestId('element-save').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('lock-name').hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByTestId('element-tab-labels'));
    expect((await screen.findByTestId('label-add')).hasAttribute('disabled')).toBe(true);
  });

  it('removes, renames and reorders attachments on save; inherited ones stay read-only', async () => {
    const inherited = {
      id: buildId(),
      name: 'Fiche base.pdf',
      type: 'pdf' as const,
      url: '/api/files/a',
      size: 10,
      index: 0,
      video_id: null,
      inherited: true,
    };
    const photo = {
      ...inherited,
      id: buildId(),
      name: 'photo.jpg',
      type: 'image' as const,
      inherited: false,
    };
    const video = { ...photo, id: buildId(), name: 'geste.mp4', type: 'video' as const, index: 1 };
    const guide = { ...photo, id: buildId(), name: 'guide.pdf', type: 'pdf' as const, index: 2 };
    const element = buildStoreElement({
      attachments: [photo, video, guide, inherited],
      field_states: fieldStates('inherited', { attachments: 'overridden' }),
    });
    const { user, api } = renderStoreElement(element);
    await user.click(await screen.findByTestId('element-tab-encyclopedia'));
    const rows = await screen.findAllByTestId('attachment-row');
    expect(rows.map((row) => within(row).getByTestId('attachment-name').textContent)).toEqual([
      'Fiche base.pdf',
      'photo.jpg',
      'geste.mp4',
      'guide.pdf',
    ]);
    expect(within(rows[0] as HTMLElement).queryByTestId('attachment-delete')).toBeNull();
    expect(
      within(rows[0] as HTMLElement)
        .getByTestId('attachment-download')
        .getAttribute('href'),
    ).toBe(`/api/elementAttachments/${inherited.id}/download`);
    await user.click(within(rows[2] as HTMLElement).getByTestId('attachment-delete'));
    await user.click(within(rows[3] as HTMLElement).getByTestId('attachment-up'));
    const renamed = screen.getAllByTestId('attachment-row')[2] as HTMLElement;
    await user.click(within(renamed).getByTestId('attachment-rename'));
    const input = within(renamed).getByTestId('attachment-name-input');
    await user.clear(input);
    await user.type(input, 'Photo du plat{Enter}');
    await user.click(screen.getByTestId('element-save'));
    await waitFor(() =>
      expect(api.callsTo('PATCH', `/api/storeElements/${element.id}`)).toHaveLength(1),
    );
    expect(api.callsTo('PATCH', `/api/storeElements/${element.id}`)[0]?.body).toEqual({
      version: element.version,
      attachments: [
        { id: guide.id, name: 'guide.pdf' },
        { id: photo.id, name: 'Photo du plat' },
      ],
    });
  });

  it('uploads an attachment resumably with progress; the next save sends the new version', async () => {
    const element = buildElement({ version: 3 });
    const uploaded = {
      id: buildId(),
      name: 'haccp.pdf',
      type: 'pdf' as const,
      url: '/api/files/b',
      size: 10,
      index: 0,
      video_id: null,
      inherited: false,
    };
    let current = element;
    const { user, router, api } = renderDatabaseElement(element, {
      [`GET /api/databaseElements/${element.id}`]: () => ({ body: { element: current } }),
    });
    const server = new FakeTusServer().install();
    server.holdPatches = true;
    server.outcomeOf = () => {
      // As the server does once every byte is in: the attachment added, the version moved.
      current = { ...element, version: 4, attachments: [uploaded] };
      return { status: 'completed', result: { attachmentId: uploaded.id, elementId: element.id } };
    };
    await user.click(await screen.findByTestId('element-tab-encyclopedia'));
    const input = document.querySelector(
      'input[type="file"][accept*="application/pdf"]',
    ) as HTMLInputElement;
    await user.upload(input, new File(['%PDF-1.7 x'], 'haccp.pdf', { type: 'application/pdf' }));

    await waitFor(() => expect(server.heldPatches).toHaveLength(1));
    expect(server.uploads.get(FakeTusServer.idOf(1))?.metadata).toMatchObject({
      purpose: 'database-element-attachment',
      owner: element.id,
      filename: 'haccp.pdf',
      filetype: 'application/pdf',
    });
    act(() => server.heldPatches[0]?.progress(4));
    const progress = await screen.findByRole('progressbar', { name: 'Uploading haccp.pdf' });
    await waitFor(() => expect(progress.getAttribute('aria-valuenow')).toBe('40'));
    // Save waits for the upload.
    expect(screen.getByTestId('element-save').hasAttribute('disabled')).toBe(true);
    // Another tab meanwhile: the upload goes on, and its progress is there on coming back.
    await user.click(screen.getByTestId('element-tab-labels'));
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(server.heldPatches[0]?.isAborted).toBe(false);
    await user.click(screen.getByTestId('element-tab-encyclopedia'));
    expect(
      (await screen.findByRole('progressbar', { name: 'Uploading haccp.pdf' })).getAttribute(
        'aria-valuenow',
      ),
    ).toBe('40');
    act(() => server.heldPatches[0]?.accept());
    expect((await screen.findByTestId('attachment-name')).textContent).toBe('haccp.pdf');
    expect(screen.queryByRole('progressbar')).toBeNull();
    await waitFor(() =>
      expect(screen.getByTestId('element-save').hasAttribute('disabled')).toBe(false),
    );
    await user.type(screen.getByTestId('field-name'), ' bio');
    await user.click(screen.getByTestId('element-save'));
    await waitFor(() =>
      expect(api.callsTo('PATCH', `/api/databaseElements/${element.id}`)).toHaveLength(1),
    );
    expect(api.callsTo('PATCH', `/api/databaseElements/${element.id}`)[0]?.body).toEqual({
      version: 4,
      name: `${element.name} bio`,
    });

    await user.click(screen.getByTestId('element-back'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/database'));
  });

  it('uploads store attachments for the store element; a cancelled upload is deleted, a file over 500 MB refused', async () => {
    const element = buildStoreElement({ field_states: fieldStates('overridden') });
    const { user, api } = renderStoreElement(element);
    const server = new FakeTusServer().install();
    server.holdPatches = true;
    await user.click(await screen.findByTestId('element-tab-encyclopedia'));
    const input = document.querySelector(
      'input[type="file"][accept*="application/pdf"]',
    ) as HTMLInputElement;
    await user.upload(input, new File(['%PDF-1.7 x'], 'plan.pdf', { type: 'application/pdf' }));
    await waitFor(() => expect(server.heldPatches).toHaveLength(1));
    expect(server.uploads.get(FakeTusServer.idOf(1))?.metadata).toMatchObject({
      purpose: 'store-element-attachment',
      owner: element.id,
    });
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(server.requestsOf('DELETE')).toHaveLength(1));
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.queryByTestId('notice-error')).toBeNull();

    const big = new File(['%PDF'], 'film.pdf', { type: 'application/pdf' });
    Object.defineProperty(big, 'size', { value: 501 * 1024 * 1024 });
    await user.upload(input, big);
    expect((await screen.findByTestId('notice-error')).textContent).toContain(
      'The file is too big: 500 MB at most.',
    );
    expect(server.requestsOf('POST')).toHaveLength(1);
    expect(api.callsTo('GET', `/api/storeElements/${element.id}`)).toHaveLength(1);
  });

  it('adds an element type (name required) and selects it', async () => {
    const element = buildElement();
    const typeId = buildId();
    const { user, api } = renderDatabaseElement(element, {
      [`POST /api/databases/${element.database_id}/elementTypes`]: ({ body }) => ({
        body: {
          type: {
            id: typeId,
            name: (body as { name: string }).name,
            store_side: false,
            database_id: element.database_id,
            store_id: null,
          },
        },
      }),
    });
    expect((await screen.findByTestId('element-type-edit')).hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByTestId('element-type-add'));
    await user.click(await screen.findByTestId('element-type-submit'));
    expect(await screen.findByText('Please enter a name for the element type.')).toBeTruthy();
    expect(api.callsTo('POST', `/api/databases/${element.database_id}/elementTypes`)).toHaveLength(
      0,
    );

    await user.type(screen.getByTestId('element-type-name'), 'Poissons');
    await user.click(screen.getByTestId('element-type-submit'));
    await waitFor(() =>
      expect(
        api.callsTo('POST', `/api/databases/${element.database_id}/elementTypes`),
      ).toHaveLength(1),
    );
    await user.click(screen.getByTestId('element-save'));
    await waitFor(() =>
      expect(api.callsTo('PATCH', `/api/databaseElements/${element.id}`)).toHaveLength(1),
    );
    expect(api.callsTo('PATCH', `/api/databaseElements/${element.id}`)[0]?.body).toEqual({
      version: element.version,
      type_id: typeId,
    });
  });

  it('lets a store edit only its own element types', async () => {
    const storeId = buildId();
    const databaseType = {
      id: buildId(),
      name: 'Viandes',
      store_side: false,
      database_id: buildId(),
      store_id: null,
    };
    const element = buildStoreElement({
      store_id: storeId,
      type_id: databaseType.id,
      field_states: fieldStates('inherited', { type_id: 'overridden' }),
    });
    renderStoreElement(element, {
      [`GET /api/stores/${storeId}/elementTypes`]: { body: { items: [databaseType] } },
    });
    await waitFor(() =>
      expect((screen.getByTestId('field-type_id') as HTMLInputElement).value).toBe('Viandes'),
    );
    expect(screen.getByTestId('element-type-edit').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('element-type-add').hasAttribute('disabled')).toBe(false);
  });

  it('creates a label with its days and hours stored as hours', async () => {
    const element = buildElement();
    const { user, api } = renderDatabaseElement(element);
    await user.click(await screen.findByTestId('element-tab-labels'));
    await user.click(await screen.findByTestId('label-add'));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByTestId('label-name'), 'Décongélation');
    const days = within(dialog).getByTestId('label-defrosting-days');
    await user.clear(days);
    await user.type(days, '1');
    const hours = within(dialog).getByTestId('label-defrosting-hours');
    await user.clear(hours);
    await user.type(hours, '6');
    const expirationDays = within(dialog).getByTestId('label-expiration-days');
    await user.clear(expirationDays);
    await user.type(expirationDays, '2');
    await user.click(within(dialog).getByTestId('label-submit'));
    expect((await screen.findByTestId('label-row-summary')).textContent).toBe(
      'Defrosting: 1 d 6 h · Expiration: 2 d 0 h',
    );
    expect(screen.getByTestId('label-preview-element').textContent).toBe('Saumon fumé');
    await user.click(screen.getByTestId('element-save'));
    await waitFor(() =>
      expect(api.callsTo('PATCH', `/api/databaseElements/${element.id}`)).toHaveLength(1),
    );
    expect(api.callsTo('PATCH', `/api/databaseElements/${element.id}`)[0]?.body).toEqual({
      version: element.version,
      labels: [
        {
          active: true,
          name: 'Décongélation',
          type: 'defrosting',
          expiration_duration: 48,
          defrosting_duration: 30,
          expiration_text: null,
          cumulate_expiration_duration: false,
          show_expiration_hour: false,
          show_expiration_weekday: false,
        },
      ],
    });
  });
});
