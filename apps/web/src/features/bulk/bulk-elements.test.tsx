import type { BulkElementRow } from '@mise/shared/catalogue/bulk';
import type { QueryClient } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client';
import { buildDatabaseDetail, buildId, buildStore, buildUser } from '../../test/factories';
import { apiError, type MockHandler, mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render-app';
import { expectNoAxeViolations } from '../alerts/test/expect-no-axe-violations';
import { bulkRowsQueryKey } from './api/bulk-query-keys';
import { buildBulkElement } from './test/build-bulk';

const databaseId = buildId();
const otherDatabaseId = buildId();

type Options = {
  queryClient?: QueryClient;
  role?: 'admin' | 'distributor' | 'manager' | 'customer';
  editable?: boolean;
  extra?: Record<string, MockHandler>;
};

function renderDatabaseBulk(rows: BulkElementRow[], options: Options = {}) {
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: options.role ?? 'distributor' }) } },
    [`GET /api/databases/${databaseId}`]: {
      body: { database: { id: databaseId, name: 'Bistro Group' } },
    },
    [`GET /api/databases/${databaseId}/elements/bulk`]: {
      body: { rows, hidden_modules: [], editable: options.editable ?? true },
    },
    [`GET /api/databases/${databaseId}/elementTypes`]: {
      body: {
        items: [
          {
            id: 'type-1',
            name: 'Réfrigérateurs',
            store_side: false,
            database_id: databaseId,
            store_id: null,
          },
        ],
      },
    },
    'GET /api/databases': {
      body: {
        items: [
          {
            id: databaseId,
            name: 'Bistro Group',
            distributor: null,
            distributor_name: null,
            illustration_url: null,
            hidden: false,
            store_count: 3,
          },
          {
            id: otherDatabaseId,
            name: 'Brasserie Nord',
            distributor: null,
            distributor_name: null,
            illustration_url: null,
            hidden: false,
            store_count: 1,
          },
        ],
      },
    },
    ...options.extra,
  });
  return {
    ...renderApp(`/bulkDatabaseElement?database=${databaseId}`, options.queryClient),
    api,
  };
}

const savePath = `/api/databases/${databaseId}/elements/bulk`;

// The screens' chunk (the route's lazy import) is loaded once before the tests: on a loaded
// machine its first, cold import could take most of a test's wait for the grid.
beforeAll(async () => {
  await import('./pages/bulk-element-pages');
}, 60_000);

describe('bulk database elements', { timeout: 30_000 }, () => {
  it('shows the database name, the rows and the General columns; a chip shows its columns', async () => {
    const rows = [
      buildBulkElement({ name: 'Chambre froide', type_id: 'type-1', type_name: 'Réfrigérateurs' }),
      buildBulkElement({ name: 'Saumon', minimum_temperature: -2, maximum_temperature: 2 }),
    ];
    const { user, container } = renderDatabaseBulk(rows);

    expect(await screen.findByTestId('bulk-grid')).toBeTruthy();
    expect(screen.getByTestId('page-title').textContent).toContain('Bistro Group');
    const first = rows[0]!.key;
    expect(screen.getByTestId(`bulk-cell-${first}-name`).textContent).toContain('Chambre froide');
    expect(screen.getByTestId(`bulk-cell-${first}-type_id`).textContent).toContain(
      'Réfrigérateurs',
    );
    expect(screen.getByTestId(`bulk-cell-${first}-active`)).toBeTruthy();
    expect(screen.queryByTestId(`bulk-cell-${first}-minimum_temperature`)).toBeNull();

    await user.click(screen.getByTestId('bulk-chip-temperatures'));
    const second = rows[1]!.key;
    await waitFor(() =>
      expect(screen.getByTestId(`bulk-cell-${second}-minimum_temperature`).textContent).toContain(
        '-2',
      ),
    );
    expect(screen.getByTestId(`bulk-cell-${second}-maximum_temperature`).textContent).toContain(
      '2',
    );
    expect(screen.getByTestId(`bulk-cell-${second}-temperatures_module_active`)).toBeTruthy();
    expect(screen.queryByTestId(`bulk-cell-${second}-type_id`)).toBeNull();

    await user.click(screen.getByTestId('bulk-chip-oils'));
    await waitFor(() =>
      expect(screen.getByTestId(`bulk-cell-${second}-maximum_polarity`)).toBeTruthy(),
    );
    await user.click(screen.getByTestId('bulk-chip-temperature_control'));
    await waitFor(() =>
      expect(screen.getByTestId(`bulk-cell-${second}-reheating_temperature`)).toBeTruthy(),
    );
    expect(screen.getByTestId(`bulk-cell-${second}-cooling_temperature`)).toBeTruthy();

    await expectNoAxeViolations(container);
  });

  it('applies a negative value to the two checked rows and saves only those rows, with their changed field and version', async () => {
    const rows = [
      buildBulkElement({ name: 'A', version: 5 }),
      buildBulkElement({ name: 'B', version: 7 }),
      buildBulkElement({ name: 'C', version: 9 }),
    ];
    const [a, b, c] = rows.map((row) => row.key) as [string, string, string];
    const { user, api } = renderDatabaseBulk(rows, {
      extra: {
        [`POST ${savePath}`]: (call) => ({
          body: {
            rows: (
              call.body as { rows: { key: string; values: Record<string, unknown> }[] }
            ).rows.map((write) => {
              const row = rows.find((candidate) => candidate.key === write.key)!;
              return { ...row, ...write.values, version: row.version + 1 };
            }),
          },
        }),
      },
    });

    await user.click(await screen.findByTestId('bulk-chip-temperatures'));
    await user.click(screen.getByTestId(`bulk-check-${a}`));
    await user.click(screen.getByTestId(`bulk-check-${c}`));
    await user.click(screen.getByTestId('bulk-apply-minimum_temperature'));
    const input = await screen.findByTestId('bulk-apply-value');
    await user.type(input, '-18');
    await user.click(screen.getByTestId('bulk-apply-submit'));

    await waitFor(() =>
      expect(screen.getByTestId(`bulk-cell-${a}-minimum_temperature`).textContent).toContain('-18'),
    );
    expect(screen.getByTestId(`bulk-cell-${c}-minimum_temperature`).textContent).toContain('-18');
    expect(screen.getByTestId(`bulk-cell-${b}-minimum_temperature`).textContent).toContain('0');
    expect(screen.getByTestId('bulk-dirty-count').textContent).toBe('2');

    await user.click(screen.getByTestId('bulk-save'));
    await waitFor(() => expect(api.callsTo('POST', savePath)).toHaveLength(1));
    expect(api.callsTo('POST', savePath)[0]?.body).toEqual({
      rows: [
        { key: a, id: a, version: 5, values: { minimum_temperature: -18 } },
        { key: c, id: c, version: 9, values: { minimum_temperature: -18 } },
      ],
    });
    expect(await screen.findByTestId('notice-success')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('bulk-dirty-count')).toBeNull());
  });

  it('edits a cell in place with the element screen’s rule: minimum above maximum is refused on save', async () => {
    const rows = [buildBulkElement({ name: 'A', minimum_temperature: 0, maximum_temperature: 4 })];
    const key = rows[0]!.key;
    const { user, api } = renderDatabaseBulk(rows);

    await user.click(await screen.findByTestId('bulk-chip-temperatures'));
    await user.click(await screen.findByTestId(`bulk-value-${key}-minimum_temperature`));
    const input = await screen.findByTestId(`bulk-input-${key}-minimum_temperature`);
    await user.clear(input);
    await user.type(input, '8{Enter}');
    await waitFor(() =>
      expect(screen.getByTestId(`bulk-cell-${key}-minimum_temperature`).dataset.invalid).toBe(
        'true',
      ),
    );
    expect(screen.getByTestId(`bulk-cell-${key}-maximum_temperature`).dataset.invalid).toBe('true');

    await user.click(screen.getByTestId('bulk-save'));
    expect((await screen.findByTestId('bulk-validation')).textContent).toBe(
      'A: The minimum temperature must not be higher than the maximum temperature.',
    );
    expect(api.callsTo('POST', savePath)).toHaveLength(0);
  });

  it('reverts a column from the last saved copy', async () => {
    const rows = [buildBulkElement({ name: 'A' }), buildBulkElement({ name: 'B' })];
    const [a, b] = rows.map((row) => row.key) as [string, string];
    const { user } = renderDatabaseBulk(rows);

    await user.click(await screen.findByTestId('bulk-chip-temperatures'));
    await user.click(screen.getByTestId('bulk-check-all'));
    await user.click(screen.getByTestId('bulk-apply-maximum_temperature'));
    await user.type(await screen.findByTestId('bulk-apply-value'), '-1');
    await user.click(screen.getByTestId('bulk-apply-submit'));
    await waitFor(() =>
      expect(screen.getByTestId(`bulk-cell-${b}-maximum_temperature`).textContent).toContain('-1'),
    );
    expect(screen.getByTestId(`bulk-cell-${a}-maximum_temperature`).dataset.changed).toBe('true');

    // Revert with both rows checked: both back to 4.
    await user.click(screen.getByTestId('bulk-revert-maximum_temperature'));
    await waitFor(() =>
      expect(screen.getByTestId(`bulk-cell-${a}-maximum_temperature`).textContent).toContain('4'),
    );
    expect(screen.getByTestId(`bulk-cell-${b}-maximum_temperature`).textContent).toContain('4');
    expect(screen.getByTestId(`bulk-cell-${a}-maximum_temperature`).dataset.changed).toBe('false');
    expect(screen.queryByTestId('bulk-dirty-count')).toBeNull();
  });

  it('toggles a field lock at database level and sends only that lock', async () => {
    const rows = [buildBulkElement({ name: 'A', version: 2 })];
    const key = rows[0]!.key;
    const { user, api } = renderDatabaseBulk(rows, {
      extra: { [`POST ${savePath}`]: { body: { rows: [{ ...rows[0], version: 3 }] } } },
    });
    const lock = await screen.findByTestId(`bulk-lock-${key}-name`);
    expect(lock.getAttribute('aria-pressed')).toBe('true');
    await user.click(lock);
    expect(screen.getByTestId(`bulk-lock-${key}-name`).getAttribute('aria-pressed')).toBe('false');
    await user.click(screen.getByTestId('bulk-save'));
    await waitFor(() => expect(api.callsTo('POST', savePath)).toHaveLength(1));
    expect(api.callsTo('POST', savePath)[0]?.body).toEqual({
      rows: [{ key, id: key, version: 2, values: {}, locks: { name: false } }],
    });
  });

  it('a row changed meanwhile: the 409 marks it, every edit is kept, and the row can be reloaded', async () => {
    const rows = [buildBulkElement({ name: 'A' }), buildBulkElement({ name: 'B' })];
    const [a, b] = rows.map((row) => row.key) as [string, string];
    let reads = 0;
    const { user } = renderDatabaseBulk(rows, {
      extra: {
        [`GET /api/databases/${databaseId}/elements/bulk`]: () => {
          reads += 1;
          return {
            body: {
              rows:
                reads === 1 ? rows : [{ ...rows[0]!, name: 'A (by Alex)', version: 8 }, rows[1]],
              hidden_modules: [],
              editable: true,
            },
          };
        },
        [`POST ${savePath}`]: {
          status: 409,
          body: {
            error: {
              code: 'conflict/stale-rows',
              message: 'Stale rows',
              issues: [{ path: a, message: 'stale' }],
            },
          },
        },
      },
    });

    for (const key of [a, b]) {
      await user.click(await screen.findByTestId(`bulk-value-${key}-name`));
      const input = await screen.findByTestId(`bulk-input-${key}-name`);
      await user.type(input, ' edited{Enter}');
    }
    await user.click(screen.getByTestId('bulk-save'));

    expect(await screen.findByTestId(`bulk-conflict-${a}`)).toBeTruthy();
    expect(screen.queryByTestId(`bulk-conflict-${b}`)).toBeNull();
    expect(screen.getByTestId(`bulk-row-${a}`).dataset.conflicted).toBe('true');
    // Nothing lost.
    expect(screen.getByTestId(`bulk-cell-${a}-name`).textContent).toContain('A edited');
    expect(screen.getByTestId(`bulk-cell-${b}-name`).textContent).toContain('B edited');

    // Reload the conflicted row: it takes the server's version, the other keeps its edit.
    await user.click(await screen.findByTestId('confirm-dialog-confirm'));
    await waitFor(() =>
      expect(screen.getByTestId(`bulk-cell-${a}-name`).textContent).toContain('A (by Alex)'),
    );
    expect(screen.getByTestId(`bulk-cell-${b}-name`).textContent).toContain('B edited');
    expect(screen.queryByTestId(`bulk-conflict-${a}`)).toBeNull();
  });

  it('adds a new element locally, duplicates a row with (Copy), and saves both whole', async () => {
    const rows = [buildBulkElement({ name: 'Saumon', maximum_temperature: 2 })];
    const key = rows[0]!.key;
    const { user, api } = renderDatabaseBulk(rows, {
      extra: {
        [`POST ${savePath}`]: (call) => ({
          body: {
            rows: (call.body as { rows: { key: string; values: { name: string } }[] }).rows.map(
              (write) => buildBulkElement({ key: write.key, name: write.values.name }),
            ),
          },
        }),
      },
    });

    await user.click(await screen.findByTestId(`bulk-duplicate-${key}`));
    await user.click(screen.getByTestId('bulk-new'));
    await user.type(await screen.findByTestId('bulk-new-name'), 'Thon');
    await user.click(screen.getByTestId('bulk-new-submit'));
    await waitFor(() => expect(screen.getByTestId('bulk-dirty-count').textContent).toBe('2'));

    await user.click(screen.getByTestId('bulk-save'));
    await waitFor(() => expect(api.callsTo('POST', savePath)).toHaveLength(1));
    const body = api.callsTo('POST', savePath)[0]?.body as {
      rows: { id: string | null; values: Record<string, unknown>; locks?: object }[];
    };
    const sent = body.rows;
    expect(sent.map((row) => row.values.name)).toEqual(['Thon', 'Saumon (Copy)']);
    expect(sent.every((row) => row.id === null)).toBe(true);
    expect(sent[1]?.values.maximum_temperature).toBe(2);
    expect(sent[0]?.locks).toBeDefined();
  });

  it('checks the export: a target, another database, a checked row; then confirms, saves and copies with an idempotency key', async () => {
    const rows = [buildBulkElement({ name: 'A' }), buildBulkElement({ name: 'B' })];
    const [a] = rows.map((row) => row.key) as [string, string];
    const copyPath = '/api/database/copyDatabaseElements';
    let attempts = 0;
    const { user, api } = renderDatabaseBulk(rows, {
      extra: {
        [`POST ${copyPath}`]: () => {
          attempts += 1;
          if (attempts === 1) return apiError(500, 'internal');
          return {
            body: {
              created: [{ source_id: a, id: buildId(), name: 'A' }],
              skipped: [],
              created_types: [],
              attachments_copied: 0,
            },
          };
        },
      },
    });

    await user.click(await screen.findByTestId('bulk-export'));
    await user.click(await screen.findByTestId('bulk-export-submit'));
    expect((await screen.findByTestId('bulk-export-error')).textContent).toBe(
      'No database selected.',
    );

    await user.click(screen.getByTestId('bulk-export-target'));
    await user.click(await screen.findByRole('option', { name: 'Bistro Group' }));
    await user.click(screen.getByTestId('bulk-export-submit'));
    expect((await screen.findByTestId('bulk-export-error')).textContent).toBe(
      'Unable to export to the database being edited.',
    );

    await user.click(screen.getByTestId('bulk-export-target'));
    await user.click(await screen.findByRole('option', { name: 'Brasserie Nord' }));
    await user.click(screen.getByTestId('bulk-export-submit'));
    expect((await screen.findByTestId('bulk-export-error')).textContent).toBe(
      'No element selected.',
    );

    await user.click(screen.getByTestId('bulk-export-attachments'));
    // The modal closed to check a row, then opened again.
    await user.keyboard('{Escape}');
    await user.click(screen.getByTestId(`bulk-check-${a}`));
    await user.click(screen.getByTestId('bulk-export'));
    await user.click(screen.getByTestId('bulk-export-target'));
    await user.click(await screen.findByRole('option', { name: 'Brasserie Nord' }));
    await user.click(screen.getByTestId('bulk-export-attachments'));
    await user.click(screen.getByTestId('bulk-export-submit'));
    expect((await screen.findByTestId('bulk-export-confirm-text')).textContent).toBe(
      'Export 1 element to Brasserie Nord? The grid is saved first.',
    );
    await user.click(screen.getByTestId('bulk-export-confirm'));
    expect(await screen.findByTestId('bulk-export-failed')).toBeTruthy();
    await user.click(screen.getByTestId('bulk-export-retry'));
    expect(await screen.findByTestId('bulk-export-summary')).toBeTruthy();
    expect(screen.getByTestId('bulk-export-created').textContent).toBe('1 copy created.');

    const calls = api.callsTo('POST', copyPath);
    expect(calls).toHaveLength(2);
    expect(calls[0]?.body).toEqual({
      sourceId: databaseId,
      targetId: otherDatabaseId,
      objectIds: [a],
      copyAttachments: true,
    });
    const firstKey = calls[0]?.headers.get('idempotency-key');
    expect(firstKey).toMatch(/^[0-9a-f-]{36}$/);
    // The retry sends the same key: the server answers the first copy again.
    expect(calls[1]?.headers.get('idempotency-key')).toBe(firstKey);
    // Nothing was edited: no save before the copy.
    expect(api.callsTo('POST', savePath)).toHaveLength(0);
  });

  it('asks before leaving with unsaved changes, except to the row’s detail screen, and keeps the edits for the way back', async () => {
    const rows = [buildBulkElement({ name: 'Saumon' })];
    const key = rows[0]!.key;
    const { user, router } = renderDatabaseBulk(rows);

    await user.click(await screen.findByTestId(`bulk-value-${key}-name`));
    await user.type(await screen.findByTestId(`bulk-input-${key}-name`), ' fumé{Enter}');
    await user.click(screen.getByTestId('bulk-back'));
    expect(
      (await screen.findByText('You have unsaved changes. Leave this page anyway?')).textContent,
    ).toBeTruthy();
    await user.click(screen.getByTestId('confirm-dialog-cancel'));
    expect(router.state.location.pathname).toBe('/bulkDatabaseElement');

    await user.click(screen.getByTestId(`bulk-open-${key}`));
    await waitFor(() => expect(router.state.location.pathname).toBe('/databaseElement'));
    expect(router.state.location.search).toBe(`?id=${key}`);
    expect(screen.queryByTestId('confirm-dialog-confirm')).toBeNull();
    // The router is there before React has drawn the detail screen (a transition): going back
    // before the grid has left would never leave it, and its draft, kept for the way back,
    // would be restored by the next screen of this database (the next test's).
    await waitFor(() => expect(screen.queryByTestId('bulk-grid')).toBeNull());

    await router.navigate(-1);
    await waitFor(() =>
      expect(screen.getByTestId(`bulk-cell-${key}-name`).textContent).toContain('Saumon fumé'),
    );
    expect(screen.getByTestId('bulk-dirty-count').textContent).toBe('1');
  });

  it('keeps the grid and its edits when the rows read turn stale (a save marks them so)', async () => {
    const rows = [
      buildBulkElement({ name: 'Saumon', version: 1 }),
      buildBulkElement({ name: 'Thon' }),
    ];
    const [salmon, tuna] = rows.map((row) => row.key) as [string, string];
    // Rows read just before the screen mounted (as the route's prefetch does).
    const queryClient = createQueryClient();
    queryClient.setQueryData(bulkRowsQueryKey('elements', 'database', databaseId), {
      rows,
      hidden_modules: [],
      editable: true,
    });
    const { user } = renderDatabaseBulk(rows, {
      queryClient,
      extra: {
        [`POST ${savePath}`]: { body: { rows: [{ ...rows[0], name: 'Saumon fumé', version: 2 }] } },
      },
    });
    await user.click(await screen.findByTestId(`bulk-value-${salmon}-name`));
    await user.type(await screen.findByTestId(`bulk-input-${salmon}-name`), ' fumé{Enter}');
    await user.click(screen.getByTestId(`bulk-value-${tuna}-name`));
    await user.type(await screen.findByTestId(`bulk-input-${tuna}-name`), ' rouge{Enter}');

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 60_000);
    // The save answers one row only: the other keeps its edit, on the same grid.
    await user.click(screen.getByTestId('bulk-save'));
    await waitFor(() => expect(screen.getByTestId('bulk-dirty-count').textContent).toBe('1'));
    expect(screen.getByTestId(`bulk-cell-${tuna}-name`).textContent).toContain('Thon rouge');
    expect(screen.getByTestId(`bulk-cell-${salmon}-name`).textContent).toContain('Saumon fumé');
  });

  it('a read-only user gets the no-permission message on creation and bulk edits', async () => {
    const rows = [buildBulkElement({ name: 'A' })];
    const key = rows[0]!.key;
    const { user, api } = renderDatabaseBulk(rows, { role: 'manager', editable: false });
    await user.click(await screen.findByTestId('bulk-new'));
    expect((await screen.findByTestId('notice-error')).textContent).toContain(
      'You do not have permission to execute this action.',
    );
    expect(screen.queryByTestId('bulk-new-name')).toBeNull();
    await user.click(screen.getByTestId(`bulk-value-${key}-name`));
    expect(screen.queryByTestId(`bulk-input-${key}-name`)).toBeNull();
    await user.click(screen.getByTestId('bulk-save'));
    expect(api.callsTo('POST', savePath)).toHaveLength(0);
  });
});

describe('expert mode from the database screen', { timeout: 30_000 }, () => {
  it('the Elements tab’s expert-mode button opens the bulk grid of the database', async () => {
    const rows = [buildBulkElement({ name: 'Saumon' })];
    const database = buildDatabaseDetail({
      id: databaseId,
      distributor: null,
      distributor_name: null,
      store_count: 0,
    });
    const { user, router } = renderDatabaseBulk(rows, {
      extra: {
        [`GET /api/databases/${databaseId}`]: { body: { database } },
        [`GET /api/databases/${databaseId}/elements`]: { body: { items: [] } },
      },
    });
    await router.navigate(`/database?id=${databaseId}&tab=1`);
    await user.click(await screen.findByTestId('elements-expert'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/bulkDatabaseElement'));
    expect(router.state.location.search).toBe(`?database=${databaseId}`);
    expect(await screen.findByTestId(`bulk-row-${rows[0]!.key}`)).toBeTruthy();
  });
});

describe('bulk store elements', { timeout: 30_000 }, () => {
  it('shows every column without filter chips, and values the database locks read only', async () => {
    const store = buildStore({ name: 'Bistro Opéra' });
    const originId = buildId();
    const rows = [
      buildBulkElement({
        id: null,
        origin_id: originId,
        level: 'store',
        name: 'Chambre froide',
        fieldStates: { maximum_temperature: 'locked', minimum_temperature: 'inherited' },
      }),
    ];
    const key = `origin:${originId}`;
    const api = mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
      [`GET /api/stores/${store.id}`]: { body: { store } },
      [`GET /api/stores/${store.id}/elements/bulk`]: {
        body: { rows, hidden_modules: [], editable: true },
      },
      [`GET /api/stores/${store.id}/elementTypes`]: { body: { items: [] } },
    });
    const { user, container } = renderApp(`/bulkStoreElement?store=${store.id}`);

    expect(await screen.findByTestId('bulk-grid')).toBeTruthy();
    expect(screen.queryByTestId('bulk-chip-general')).toBeNull();
    expect(screen.getByTestId(`bulk-cell-${key}-maximum_polarity`)).toBeTruthy();
    const locked = screen.getByTestId(`bulk-cell-${key}-maximum_temperature`);
    expect(within(locked).getByTestId(`bulk-locked-${key}-maximum_temperature`)).toBeTruthy();
    expect(within(locked).queryByRole('button')).toBeNull();
    expect(screen.queryByTestId(`bulk-lock-${key}-name`)).toBeNull();
    await expectNoAxeViolations(container);

    // Apply to the checked row: the locked field is skipped, the other applied.
    await user.click(screen.getByTestId(`bulk-check-${key}`));
    await user.click(screen.getByTestId('bulk-apply-maximum_temperature'));
    await user.type(await screen.findByTestId('bulk-apply-value'), '9');
    await user.click(screen.getByTestId('bulk-apply-submit'));
    expect((await screen.findByTestId('notice-info')).textContent).toContain('1 skipped');
    expect(locked.textContent).toContain('4');
    expect(api.calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('a customer opening its store’s grid by its address reads it only (expert mode is not theirs)', async () => {
    const store = buildStore({ name: 'Bistro Opéra' });
    const rows = [buildBulkElement({ id: buildId(), level: 'store', name: 'Vitrine' })];
    const key = rows[0]!.key;
    const api = mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'customer' }) } },
      [`GET /api/stores/${store.id}`]: { body: { store } },
      // The server answers a customer's grid not editable and refuses its saves (403).
      [`GET /api/stores/${store.id}/elements/bulk`]: {
        body: { rows, hidden_modules: [], editable: false },
      },
      [`GET /api/stores/${store.id}/elementTypes`]: { body: { items: [] } },
    });
    const { user } = renderApp(`/bulkStoreElement?store=${store.id}`);

    expect((await screen.findByTestId(`bulk-cell-${key}-name`)).textContent).toContain('Vitrine');
    await user.click(screen.getByTestId(`bulk-value-${key}-name`));
    expect((await screen.findByTestId('notice-error')).textContent).toContain(
      'You do not have permission to execute this action.',
    );
    expect(screen.queryByTestId(`bulk-input-${key}-name`)).toBeNull();
    await user.click(screen.getByTestId('bulk-new'));
    expect(screen.queryByTestId('bulk-new-name')).toBeNull();
    await user.click(screen.getByTestId('bulk-save'));
    expect(api.calls.some((call) => call.method === 'POST')).toBe(false);
  });
});
