import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildDatabaseDetail, buildId, buildUser } from '../../../test/factories';
import { apiError, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import type { StoreTags } from '../api/get-store-tags';

const opera = { id: buildId(), name: 'Bistro Opéra', city: 'Paris' };
const bellecour = { id: buildId(), name: 'Brasserie Bellecour', city: 'Lyon' };
const vieuxPort = { id: buildId(), name: 'Café du Vieux-Port', city: 'Marseille' };

function buildTags(overrides: Partial<StoreTags> = {}): StoreTags {
  return {
    items: [
      { id: buildId(), name: 'Sud', active: true, store_ids: [vieuxPort.id] },
      { id: buildId(), name: 'Nord', active: true, store_ids: [] },
      { id: buildId(), name: 'Ancien', active: false, store_ids: [] },
    ],
    stores: [opera, bellecour, vieuxPort],
    editable: true,
    ...overrides,
  };
}

function renderTags(tags: StoreTags, put: MockHandler = { body: tags }) {
  const database = buildDatabaseDetail();
  const path = `/api/databases/${database.id}/storeTags`;
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
    [`GET /api/databases/${database.id}`]: { body: { database } },
    [`GET ${path}`]: { body: tags },
    [`PUT ${path}`]: put,
  });
  const puts = () => api.callsTo('PUT', path);
  return { ...renderApp(`/database?id=${database.id}&tab=3`), api, puts };
}

const tagSelect = () => screen.getByTestId('tag-select') as HTMLInputElement;
const tagName = () => screen.getByTestId('tag-name-input') as HTMLInputElement;

describe('store tags editor', { timeout: 20_000 }, () => {
  it('refuses two active tags with the same name: a 1 s error toast and nothing sent', async () => {
    const show = vi.spyOn(notifications, 'show');
    const tags = buildTags();
    const { user, puts } = renderTags(tags);
    await screen.findByTestId('tags-editor', {}, { timeout: 10_000 });
    expect(tagSelect().value).toBe('Sud');

    await user.clear(tagName());
    await user.type(tagName(), ' nord');
    await user.click(screen.getByTestId('tags-save'));

    expect(await screen.findByText('Two tags cannot have the same name')).toBeTruthy();
    expect(show).toHaveBeenLastCalledWith(
      expect.objectContaining({ color: 'red', autoClose: 1000 }),
    );
    expect(puts()).toHaveLength(0);

    // The inactive tag's name may be reused.
    await user.clear(tagName());
    await user.type(tagName(), 'Ancien');
    await user.click(screen.getByTestId('tags-save'));
    await waitFor(() => expect(puts()).toHaveLength(1));
  });

  it("shows the same toast when the server answers 'store-tag/duplicate-name'", async () => {
    const show = vi.spyOn(notifications, 'show');
    const { user, puts } = renderTags(
      buildTags(),
      apiError(409, 'store-tag/duplicate-name', 'Deux tags ne peuvent pas avoir le même nom'),
    );
    await screen.findByTestId('tags-editor', {}, { timeout: 10_000 });
    await user.click(screen.getByTestId('tags-save'));
    expect(await screen.findByText('Two tags cannot have the same name')).toBeTruthy();
    expect(show).toHaveBeenLastCalledWith(expect.objectContaining({ autoClose: 1000 }));
    expect(puts()).toHaveLength(1);
    // Nothing was saved: the draft is kept.
    expect(tagSelect().value).toBe('Sud');
  });

  it('moves stores between the lists (search, arrows) and saves every tag with its store_ids', async () => {
    const tags = buildTags();
    const { user, puts } = renderTags(tags);
    await screen.findByTestId('tags-editor', {}, { timeout: 10_000 });
    const available = () => screen.getByTestId('tags-available-list');
    const selected = () => screen.getByTestId('tags-selected-list');

    expect(within(selected()).getByLabelText('Café du Vieux-Port')).toBeTruthy();
    expect(within(available()).queryByLabelText('Café du Vieux-Port')).toBeNull();

    await user.type(screen.getByTestId('tags-available-search'), 'lyon');
    expect(within(available()).queryByLabelText('Bistro Opéra')).toBeNull();
    await user.click(within(available()).getByLabelText('Brasserie Bellecour'));
    await user.click(screen.getByTestId('tags-add-stores'));
    expect(within(selected()).getByLabelText('Brasserie Bellecour')).toBeTruthy();
    expect(within(available()).queryByLabelText('Brasserie Bellecour')).toBeNull();

    await user.click(within(selected()).getByLabelText('Café du Vieux-Port'));
    await user.click(screen.getByTestId('tags-remove-stores'));
    await user.clear(screen.getByTestId('tags-available-search'));
    expect(within(available()).getByLabelText('Café du Vieux-Port')).toBeTruthy();

    await user.click(screen.getByTestId('tags-save'));
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(puts()[0]?.body).toEqual({
      tags: [
        { id: tags.items[0]?.id, name: 'Sud', active: true, store_ids: [bellecour.id] },
        { id: tags.items[1]?.id, name: 'Nord', active: true, store_ids: [] },
        { id: tags.items[2]?.id, name: 'Ancien', active: false, store_ids: [] },
      ],
    });
    expect(await screen.findByText('Tags saved')).toBeTruthy();
  });

  it('asks before deleting a tag and sends it with active false; a new tag is named Nouveau tag', async () => {
    const tags = buildTags();
    const { user, puts } = renderTags(tags);
    await screen.findByTestId('tags-editor', {}, { timeout: 10_000 });

    await user.click(screen.getByTestId('tag-delete'));
    expect(await screen.findByText('Are you sure you want to delete this tag?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'No' }));
    await waitFor(() =>
      expect(screen.queryByText('Are you sure you want to delete this tag?')).toBeNull(),
    );
    expect(tagSelect().value).toBe('Sud');

    await user.click(screen.getByTestId('tag-delete'));
    await user.click(await screen.findByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(tagSelect().value).toBe('Nord'));

    await user.click(screen.getByTestId('tag-add'));
    expect(tagSelect().value).toBe('Nouveau tag');
    expect(tagName().value).toBe('Nouveau tag');
    await user.click(
      within(screen.getByTestId('tags-available-list')).getByLabelText('Bistro Opéra'),
    );
    await user.click(screen.getByTestId('tags-add-stores'));

    await user.click(screen.getByTestId('tags-save'));
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(puts()[0]?.body).toEqual({
      tags: [
        { id: tags.items[0]?.id, name: 'Sud', active: false, store_ids: [vieuxPort.id] },
        { id: tags.items[1]?.id, name: 'Nord', active: true, store_ids: [] },
        { id: tags.items[2]?.id, name: 'Ancien', active: false, store_ids: [] },
        { name: 'Nouveau tag', active: true, store_ids: [opera.id] },
      ],
    });
  });

  it('hides the save and the tag actions when the tags are not editable', async () => {
    renderTags(buildTags({ editable: false }));
    await screen.findByTestId('tags-editor', {}, { timeout: 10_000 });
    expect(screen.queryByTestId('tags-save')).toBeNull();
    expect(screen.queryByTestId('tag-add')).toBeNull();
    expect(screen.queryByTestId('tag-delete')).toBeNull();
    expect((screen.getByTestId('tags-add-stores') as HTMLButtonElement).disabled).toBe(true);
  });
});
