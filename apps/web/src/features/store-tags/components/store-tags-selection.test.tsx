import type { DatabaseDetail } from '@mise/shared/organisation/schemas';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildDatabaseDetail, buildId, buildUser } from '../../../test/factories';
import { mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import type { StoreTags } from '../api/get-store-tags';
import type { SaveStoreTagsBody } from '../api/save-store-tags';

const opera = { id: buildId(), name: 'Bistro Opéra', city: 'Paris' };

function buildDatabase(): DatabaseDetail {
  return buildDatabaseDetail({ store_count: 1 });
}

/** A server keeping the tags: PUT stores them (new ones get an id), GET answers them. */
function serveTags(items: StoreTags['items']) {
  const database = buildDatabase();
  const path = `/api/databases/${database.id}/storeTags`;
  const server = { items };
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
    [`GET /api/databases/${database.id}`]: { body: { database } },
    [`GET ${path}`]: () => ({
      body: { items: server.items, stores: [opera], editable: true } satisfies StoreTags,
    }),
    [`PUT ${path}`]: ({ body }) => {
      const { tags } = body as SaveStoreTagsBody;
      server.items = tags.map((tag) => ({ ...tag, id: tag.id ?? buildId() }));
      return { body: {} };
    },
  });
  const puts = () => api.callsTo('PUT', path).map((call) => (call.body as SaveStoreTagsBody).tags);
  return { server, puts, ...renderApp(`/database?id=${database.id}&tab=3`) };
}

const tagSelect = () => screen.getByTestId('tag-select') as HTMLInputElement;
const tagName = () => screen.getByTestId('tag-name-input') as HTMLInputElement;

describe('store tags editor selection (issue 13)', { timeout: 30_000 }, () => {
  it('keeps a saved new tag selected, so the next rename and delete hit it', async () => {
    const sud = { id: buildId(), name: 'Sud', active: true, store_ids: [] };
    const nord = { id: buildId(), name: 'Nord', active: true, store_ids: [] };
    const { server, puts, user } = serveTags([sud, nord]);
    await screen.findByTestId('tags-editor', {}, { timeout: 10_000 });

    await user.click(screen.getByTestId('tag-add'));
    await user.clear(tagName());
    await user.type(tagName(), 'Est');
    await user.click(screen.getByTestId('tags-save'));
    expect(await screen.findByText('Tags saved')).toBeTruthy();
    const est = server.items.find((tag) => tag.name === 'Est');
    expect(est?.id).toBeTruthy();
    await waitFor(() => expect(tagSelect().value).toBe('Est'));
    expect(tagName().value).toBe('Est');

    await user.type(tagName(), ' 2');
    await user.click(screen.getByTestId('tags-save'));
    await waitFor(() => expect(puts()).toHaveLength(2));
    expect(puts()[1]).toContainEqual({ id: est?.id, name: 'Est 2', active: true, store_ids: [] });
    expect(puts()[1]).toContainEqual({ id: sud.id, name: 'Sud', active: true, store_ids: [] });
    await waitFor(() => expect(tagSelect().value).toBe('Est 2'));

    await user.click(screen.getByTestId('tag-delete'));
    expect(await screen.findByText('Delete the tag "Est 2"')).toBeTruthy();
    expect(screen.getByText('Are you sure you want to delete this tag?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Yes' }));
    await user.click(screen.getByTestId('tags-save'));
    await waitFor(() => expect(puts()).toHaveLength(3));
    expect(puts()[2]).toContainEqual({ id: est?.id, name: 'Est 2', active: false, store_ids: [] });
    expect(puts()[2]).toContainEqual({ id: sud.id, name: 'Sud', active: true, store_ids: [] });
    expect(puts()[2]).toContainEqual({ id: nord.id, name: 'Nord', active: true, store_ids: [] });
  });
});
