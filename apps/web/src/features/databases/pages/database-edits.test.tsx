import type { DatabaseDetail } from '@mise/shared/organisation/schemas';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildDatabaseDetail, buildId, buildUser } from '../../../test/factories';
import { mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import { databaseQueryKey } from '../api/get-database';

function buildDatabase(overrides: Partial<DatabaseDetail> = {}): DatabaseDetail {
  return buildDatabaseDetail({ name: 'Base Boulangeries', version: 2, ...overrides });
}

/** Replaces XMLHttpRequest: each upload answers `respond()` at once. */
function stubUploads(respond: () => unknown) {
  class FakeXhr {
    upload = { onprogress: null };
    status = 200;
    responseText = '';
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    open() {}
    setRequestHeader() {}
    send() {
      this.responseText = JSON.stringify(respond());
      setTimeout(() => this.onload?.(), 0);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
}

/** A server holding one database, its roles and tags; PATCH checks and bumps the version. */
function serveDatabase(initial: DatabaseDetail, tab = 0) {
  const server = { database: initial };
  const path = `/api/databases/${initial.id}`;
  const role = { id: buildId(), database_id: initial.id, name: 'Cuisinier', active: true };
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
    [`GET ${path}`]: () => ({ body: { database: server.database } }),
    [`PATCH ${path}`]: ({ body }) => {
      const { version, ...fields } = body as { version: number };
      server.database = { ...server.database, ...fields, version: version + 1 };
      return { body: { database: server.database } };
    },
    [`GET ${path}/employeeRoles`]: {
      body: {
        items: [{ ...role, features_permissions: {} }],
        available_features: [],
        editable: true,
      },
    },
    [`GET ${path}/storeTags`]: {
      body: {
        items: [{ id: buildId(), name: 'Sud', active: true, store_ids: [] }],
        stores: [],
        editable: true,
      },
    },
  });
  return { server, api, path, ...renderApp(`/database?id=${initial.id}&tab=${tab}`) };
}

const unsavedQuestion = 'You have unsaved changes. Leave this page anyway?';

describe('database screen edits (issue 13)', { timeout: 30_000 }, () => {
  it('keeps the name and store access typed on the general tab when an illustration is uploaded', async () => {
    const database = buildDatabase();
    const { server, api, path, user } = serveDatabase(database);
    stubUploads(() => {
      server.database = {
        ...server.database,
        illustration_url: '/api/files/logo.png',
        version: server.database.version + 1,
      };
      return { database: server.database };
    });
    const name = (await screen.findByTestId(
      'database-name',
      {},
      { timeout: 10_000 },
    )) as HTMLInputElement;
    await user.clear(name);
    await user.type(name, 'Boulangeries du Nord');
    await user.click(screen.getByTestId('database-store-access'));

    const file = document.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(file, new File(['png'], 'logo.png', { type: 'image/png' }));
    await waitFor(() => expect(server.database.version).toBe(3));
    await waitFor(() =>
      expect(screen.getByTestId('database-illustration').querySelector('img')).toBeTruthy(),
    );
    expect((screen.getByTestId('database-name') as HTMLInputElement).value).toBe(
      'Boulangeries du Nord',
    );
    expect((screen.getByTestId('database-store-access') as HTMLInputElement).checked).toBe(true);

    await user.click(screen.getByTestId('save'));
    expect(await screen.findByText('Saved successfully.')).toBeTruthy();
    expect(api.callsTo('PATCH', path)[0]?.body).toMatchObject({
      version: 3,
      name: 'Boulangeries du Nord',
      store_access: true,
    });
  });

  it('keeps a renamed role and a renamed tag when a new version of the database arrives', async () => {
    const database = buildDatabase();
    const { user, queryClient, router } = serveDatabase(database, 4);
    const roleName = (await screen.findByTestId(
      'role-name-input',
      {},
      { timeout: 10_000 },
    )) as HTMLInputElement;
    // The header's Save sends the general tab only: it is not offered where it would not save.
    expect(screen.queryByTestId('save')).toBeNull();
    await user.clear(roleName);
    await user.type(roleName, 'Chef de partie');

    // A save or an upload elsewhere answers a new version of the database.
    queryClient.setQueryData(databaseQueryKey(database.id), { ...database, version: 3 });
    await waitFor(() =>
      expect(
        (queryClient.getQueryData(databaseQueryKey(database.id)) as DatabaseDetail).version,
      ).toBe(3),
    );
    expect((screen.getByTestId('role-name-input') as HTMLInputElement).value).toBe(
      'Chef de partie',
    );

    // Leaving the tab with the unsaved role asks; the answer No keeps it.
    await user.click(screen.getByTestId('database-tab-tags'));
    expect(await screen.findByText(unsavedQuestion)).toBeTruthy();
    await user.click(screen.getByTestId('confirm-dialog-cancel'));
    expect((screen.getByTestId('role-name-input') as HTMLInputElement).value).toBe(
      'Chef de partie',
    );

    await router.navigate(`/database?id=${database.id}&tab=3`, { replace: true });
    await user.click(await screen.findByTestId('confirm-dialog-confirm'));
    const tagName = (await screen.findByTestId('tag-name-input')) as HTMLInputElement;
    await user.clear(tagName);
    await user.type(tagName, 'Sud-Ouest');
    queryClient.setQueryData(databaseQueryKey(database.id), { ...database, version: 4 });
    await waitFor(() =>
      expect(
        (queryClient.getQueryData(databaseQueryKey(database.id)) as DatabaseDetail).version,
      ).toBe(4),
    );
    expect((screen.getByTestId('tag-name-input') as HTMLInputElement).value).toBe('Sud-Ouest');
  });

  it('announces no tab "in a coming version": tags, roles and the shop are built', async () => {
    serveDatabase(buildDatabase());
    await screen.findByTestId('database-name', {}, { timeout: 10_000 });
    expect(screen.queryByText(/coming version/i)).toBeNull();
    expect(screen.getByTestId('database-tab-tags').hasAttribute('disabled')).toBe(false);
    expect(screen.getByTestId('database-tab-roles').hasAttribute('disabled')).toBe(false);
    expect(screen.getByTestId('database-tab-shop').hasAttribute('disabled')).toBe(false);
  });

  it('asks before leaving with unsaved general changes, not when switching tabs', async () => {
    const database = buildDatabase();
    const { user, router } = serveDatabase(database);
    const name = await screen.findByTestId('database-name', {}, { timeout: 10_000 });
    await user.type(name, ' bis');

    // The general tab's form lives above the tabs: switching tabs keeps it, without asking.
    await user.click(screen.getByTestId('database-tab-elements'));
    await waitFor(() => expect(router.state.location.search).toContain('tab=1'));
    expect(screen.queryByText(unsavedQuestion)).toBeNull();
    await user.click(screen.getByTestId('database-tab-general'));
    expect(((await screen.findByTestId('database-name')) as HTMLInputElement).value).toBe(
      'Base Boulangeries bis',
    );

    // The menu leaves the screen: asked, and No stays with the edit.
    await router.navigate('/stores');
    expect(await screen.findByText(unsavedQuestion)).toBeTruthy();
    await user.click(screen.getByTestId('confirm-dialog-cancel'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/database'));
    expect((screen.getByTestId('database-name') as HTMLInputElement).value).toBe(
      'Base Boulangeries bis',
    );

    await router.navigate('/stores');
    await user.click(await screen.findByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/stores'));
  });
});
