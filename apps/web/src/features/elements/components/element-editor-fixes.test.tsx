import type { Element } from '@mise/shared/catalogue/schemas';
import { QueryClient } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildId, buildUser } from '../../../test/factories';
import { apiError, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import {
  elementListsQueryKey,
  elementQueryKey,
  originElementQueryKey,
} from '../api/element-query-keys';
import { cacheSavedElement } from '../api/save-element';
import { buildElement, buildLabel, fieldStates } from '../test/build-element';

const admin = { body: { user: buildUser({ role: 'admin' }) } };
const customer = { body: { user: buildUser({ role: 'customer' }) } };
const png = () => new File(['png'], 'photo.png', { type: 'image/png' });

/** Replaces XMLHttpRequest: each upload answers `respond(url)` at once. */
function stubUploads(respond: (url: string) => { status?: number; body: unknown }) {
  const urls: string[] = [];
  class FakeXhr {
    upload = { onprogress: null as null | ((event: unknown) => void) };
    status = 0;
    responseText = '';
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    url = '';
    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader() {}
    send() {
      urls.push(this.url);
      const answer = respond(this.url);
      this.status = answer.status ?? 200;
      this.responseText = JSON.stringify(answer.body);
      setTimeout(() => this.onload?.(), 0);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return urls;
}

function buildStoreElement(overrides: Partial<Element> = {}): Element {
  return buildElement({
    level: 'store',
    database_id: buildId(),
    store_id: buildId(),
    origin_id: buildId(),
    is_remote: true,
    type_id: buildId(),
    type_name: 'Poissons',
    field_states: fieldStates('inherited'),
    ...overrides,
  });
}

/** A server holding one element: GET answers its current state, PATCH checks the version. */
function serveElement(initial: Element, extra: Record<string, MockHandler> = {}, me = admin) {
  const server = { element: initial };
  const path = `/api/${initial.level === 'database' ? 'databaseElements' : 'storeElements'}/${initial.id}`;
  const ownerTypes =
    initial.level === 'database'
      ? `GET /api/databases/${initial.database_id}/elementTypes`
      : `GET /api/stores/${initial.store_id}/elementTypes`;
  const api = mockApi({
    'GET /api/me': me,
    [`GET ${path}`]: () => ({ body: { element: server.element } }),
    [ownerTypes]: { body: { items: [] } },
    [`PATCH ${path}`]: ({ body }) => {
      const { version, ...fields } = body as { version: number };
      if (version !== server.element.version) return apiError(409, 'conflict/stale-version');
      server.element = { ...server.element, ...fields, version: version + 1 };
      return { body: { element: server.element } };
    },
    ...extra,
  });
  const page = initial.level === 'database' ? 'databaseElement' : 'storeElement';
  return { server, api, path, ...renderApp(`/${page}?id=${initial.id}`) };
}

describe('element editor fixes', { timeout: 30_000 }, () => {
  it('B1: reopening an element after an upload reads the version the upload answered', async () => {
    const element = buildElement({ version: 3 });
    const other = buildElement({ database_id: element.database_id, name: 'Autre' });
    const { server, api, path, user, router } = serveElement(element, {
      [`GET /api/databaseElements/${other.id}`]: { body: { element: other } },
    });
    const urls = stubUploads(() => {
      server.element = {
        ...server.element,
        illustration_url: '/api/files/new.png',
        version: server.element.version + 1,
      };
      return { body: { element: server.element } };
    });
    await screen.findByTestId('field-name');
    const input = document.querySelector('input[type="file"][accept*="image"]') as HTMLInputElement;
    await user.upload(input, png());
    await waitFor(() => expect(urls).toHaveLength(1));
    expect(urls[0]).toBe(`${path}/illustration?version=3`);
    await waitFor(() =>
      expect(screen.getByTestId('element-save').hasAttribute('disabled')).toBe(false),
    );

    // Leave and come back within the cache's 30 s: the editor starts from version 4.
    await router.navigate(`/databaseElement?id=${other.id}`);
    await waitFor(() =>
      expect((screen.getByTestId('field-name') as HTMLInputElement).value).toBe('Autre'),
    );
    await router.navigate(`/databaseElement?id=${element.id}`);
    await waitFor(() =>
      expect((screen.getByTestId('field-name') as HTMLInputElement).value).toBe(element.name),
    );
    const name = screen.getByTestId('field-name');
    await user.type(name, ' bio');
    await user.click(screen.getByTestId('element-save'));
    expect(await screen.findByText('Saved successfully.')).toBeTruthy();
    expect(
      api.callsTo('PATCH', path).map((call) => (call.body as { version: number }).version),
    ).toEqual([4]);
  });

  it('B1: a save or upload answer becomes the cached detail; a database save refreshes store views', () => {
    const queryClient = new QueryClient();
    const storeElement = buildStoreElement();
    const origin = originElementQueryKey(storeElement.store_id!, storeElement.origin_id!);
    queryClient.setQueryData(elementQueryKey('store', storeElement.id!), storeElement);
    queryClient.setQueryData(origin, storeElement);
    queryClient.setQueryData([...elementListsQueryKey, 'x'], []);
    const saved = buildElement({ version: 8 });
    cacheSavedElement(queryClient, saved);
    expect(queryClient.getQueryData(elementQueryKey('database', saved.id!))).toBe(saved);
    expect(
      queryClient.getQueryState(elementQueryKey('store', storeElement.id!))?.isInvalidated,
    ).toBe(true);
    expect(queryClient.getQueryState(origin)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState([...elementListsQueryKey, 'x'])?.isInvalidated).toBe(true);
  });

  it('B2: a stale upload answers 409: nothing adopted, the message shown', async () => {
    const element = buildElement({ version: 3 });
    const { user } = serveElement(element);
    stubUploads(() => ({
      status: 409,
      body: { error: { code: 'conflict/stale-version', message: 'stale' } },
    }));
    await screen.findByTestId('field-name');
    const input = document.querySelector('input[type="file"][accept*="image"]') as HTMLInputElement;
    await user.upload(input, png());
    expect(
      await screen.findByText(
        'This record was changed by someone else. Reload it before saving again.',
      ),
    ).toBeTruthy();
  });

  it('S1: removes a database illustration and allergen illustration by sending null', async () => {
    const element = buildElement({
      illustration_url: '/api/files/a.png',
      allergen_illustration_url: '/api/files/b.png',
    });
    const { api, path, user } = serveElement(element);
    await user.click(await screen.findByTestId('remove-illustration_url'));
    await user.click(screen.getByTestId('element-tab-recipe'));
    await user.click(await screen.findByTestId('remove-allergen_illustration_url'));
    await user.click(screen.getByTestId('element-save'));
    await waitFor(() => expect(api.callsTo('PATCH', path)).toHaveLength(1));
    expect(api.callsTo('PATCH', path)[0]?.body).toEqual({
      version: element.version,
      illustration_url: null,
      allergen_illustration_url: null,
    });
  });

  it('S1: resets an overridden store illustration to the database one; no list reset for labels and attachments', async () => {
    const element = buildStoreElement({
      illustration_url: '/api/files/stores/own.png',
      labels: [buildLabel({ state: 'overridden' })],
      field_states: fieldStates('inherited', {
        illustration_url: 'overridden',
        allergen_illustration_url: 'overridden',
        labels: 'overridden',
        attachments: 'overridden',
      }),
    });
    const { api, path, user } = serveElement(element);
    expect(await screen.findByTestId('reset-illustration_url')).toBeTruthy();
    // Overridden at store level: reset, not removed (null means "follow the database").
    expect(screen.queryByTestId('remove-illustration_url')).toBeNull();
    await user.click(screen.getByTestId('reset-illustration_url'));
    await user.click(screen.getByTestId('element-tab-recipe'));
    await user.click(await screen.findByTestId('reset-allergen_illustration_url'));
    await user.click(screen.getByTestId('element-tab-labels'));
    await screen.findByTestId('label-add');
    expect(screen.queryByTestId('reset-labels')).toBeNull();
    await user.click(screen.getByTestId('element-tab-encyclopedia'));
    await screen.findByTestId('attachment-upload');
    expect(screen.queryByTestId('reset-attachments')).toBeNull();
    await user.click(screen.getByTestId('element-save'));
    await waitFor(() => expect(api.callsTo('PATCH', path)).toHaveLength(1));
    expect(api.callsTo('PATCH', path)[0]?.body).toEqual({
      version: element.version,
      illustration_url: null,
      allergen_illustration_url: null,
    });
  });

  it('S1 / nit: a store upload takes the answered field states (the image becomes overridden)', async () => {
    const element = buildStoreElement({ version: 2 });
    const { server, path, user } = serveElement(element);
    const urls = stubUploads(() => {
      server.element = {
        ...server.element,
        illustration_url: '/api/files/stores/new.png',
        field_states: { ...server.element.field_states, illustration_url: 'overridden' },
        version: 3,
      };
      return { body: { element: server.element } };
    });
    expect(await screen.findByTestId('inherited-illustration_url')).toBeTruthy();
    const input = document.querySelector('input[type="file"][accept*="image"]') as HTMLInputElement;
    await user.upload(input, png());
    expect(await screen.findByTestId('reset-illustration_url')).toBeTruthy();
    expect(urls[0]).toBe(`${path}/illustration?version=2`);
  });

  it('S2: saves a store override of an element whose type the database locks and leaves empty', async () => {
    const element = buildStoreElement({
      type_id: null,
      type_name: null,
      field_states: fieldStates('inherited', { type_id: 'locked' }),
    });
    const { api, path, user } = serveElement(element);
    const maximum = await screen.findByTestId('field-maximum_temperature');
    await user.clear(maximum);
    await user.type(maximum, '6');
    await user.click(screen.getByTestId('element-save'));
    await waitFor(() => expect(api.callsTo('PATCH', path)).toHaveLength(1));
    expect(screen.queryByTestId('element-validation')).toBeNull();
  });

  it('S3: store creation hides the modules hidden by the store or its database', async () => {
    const storeId = buildId();
    mockApi({
      'GET /api/me': admin,
      [`GET /api/stores/${storeId}/elements/context`]: {
        body: { hidden_modules: ['labels', 'oils'], editable: true },
      },
      [`GET /api/stores/${storeId}/elementTypes`]: { body: { items: [] } },
    });
    renderApp(`/newElement?store=${storeId}`);
    expect(await screen.findByTestId('element-tab-temperatures')).toBeTruthy();
    expect(screen.queryByTestId('element-tab-labels')).toBeNull();
    expect(screen.queryByTestId('element-tab-oils')).toBeNull();
  });

  it('S5: the database creation page is read-only for a customer', async () => {
    const databaseId = buildId();
    mockApi({
      'GET /api/me': customer,
      [`GET /api/databases/${databaseId}/elements/context`]: {
        body: { hidden_modules: [], editable: false },
      },
      [`GET /api/databases/${databaseId}/elementTypes`]: { body: { items: [] } },
    });
    renderApp(`/databaseElement?database=${databaseId}`);
    expect(((await screen.findByTestId('field-name')) as HTMLInputElement).readOnly).toBe(true);
    expect(screen.getByTestId('element-save').hasAttribute('disabled')).toBe(true);
  });

  it('nit: a database element the store already overrides opens the store element', async () => {
    const storeId = buildId();
    const originId = buildId();
    const overridden = buildStoreElement({ store_id: storeId, origin_id: originId });
    mockApi({
      'GET /api/me': admin,
      [`GET /api/stores/${storeId}/elements/origin/${originId}`]: {
        body: { element: overridden },
      },
      [`GET /api/storeElements/${overridden.id}`]: { body: { element: overridden } },
      [`GET /api/stores/${storeId}/elementTypes`]: { body: { items: [] } },
    });
    const { router } = renderApp(`/storeElement?store=${storeId}&origin=${originId}`);
    await waitFor(() => expect(router.state.location.search).toBe(`?id=${overridden.id}`));
    expect(await screen.findByTestId('element-duplicate')).toBeTruthy();
  });
});
