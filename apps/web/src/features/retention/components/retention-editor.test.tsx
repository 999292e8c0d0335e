import type { DatabaseDetail } from '@mise/shared/organisation/schemas';
import {
  type RetentionRecordType,
  type RetentionRemoval,
  type RetentionResponse,
  retentionRecordTypes,
  retentionRules,
} from '@mise/shared/records/retention';
import { screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { buildDatabaseDetail, buildId, buildUser } from '../../../test/factories';
import { apiError, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';

const pageLoad = { timeout: 10_000 };
const belowMinimumMessage = 'A retention cannot be shorter than the legal minimum of its records.';

function buildDatabase(overrides: Partial<DatabaseDetail> = {}): DatabaseDetail {
  return buildDatabaseDetail({ store_count: 2, ...overrides });
}

/** A retention answer as the server builds it: settings over the shared defaults and minimums. */
function buildRetention(
  databaseId: string,
  settings: Partial<Record<RetentionRecordType, number>> = {},
  overrides: Partial<RetentionResponse> = {},
): RetentionResponse {
  const types = Object.fromEntries(
    retentionRecordTypes.map((type) => {
      const { minimum, defaultMonths } = retentionRules[type];
      const months = settings[type] ?? null;
      const kept = months ?? defaultMonths;
      return [
        type,
        {
          months,
          defaultMonths,
          minimum,
          effective: kept === null ? null : Math.max(kept, minimum),
        },
      ];
    }),
  ) as RetentionResponse['types'];
  return {
    database_id: databaseId,
    editable: true,
    types,
    updated_at: null,
    removals: [],
    ...overrides,
  };
}

function buildRemoval(overrides: Partial<RetentionRemoval> = {}): RetentionRemoval {
  return {
    store_id: buildId(),
    store_name: 'Bistro Opéra',
    type: 'task_results',
    before: '2023-11-01',
    count: 1234,
    at: '2026-11-20T03:00:00Z',
    ...overrides,
  };
}

function renderRetention(
  database: DatabaseDetail,
  retention: RetentionResponse,
  extra: Record<string, MockHandler> = {},
) {
  const path = `/api/databases/${database.id}/retention`;
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
    [`GET /api/databases/${database.id}`]: { body: { database } },
    [`GET ${path}`]: { body: retention },
    ...extra,
  });
  return { ...renderApp(`/database?id=${database.id}&tab=6`), api, path };
}

function input(type: RetentionRecordType): HTMLInputElement {
  return screen.getByTestId(`retention-input-${type}`) as HTMLInputElement;
}

function text(testId: string): string {
  return screen.getByTestId(testId).textContent ?? '';
}

describe('retention tab of a database', { timeout: 20_000 }, () => {
  it('shows each type with its setting, default, legal minimum and what is kept', async () => {
    const database = buildDatabase();
    renderRetention(
      database,
      buildRetention(database.id, { punch_cards: 120 }, { updated_at: '2026-11-02T09:30:00Z' }),
    );
    const editor = await screen.findByTestId('retention-editor', {}, pageLoad);

    expect(screen.getByTestId('database-tab-retention').textContent).toBe('Retention');
    // The labels name the types; an empty field means the default.
    expect(within(editor).getByLabelText(/Task results/)).toBe(input('task_results'));
    expect(within(editor).getByLabelText(/Probe readings/)).toBe(input('probe_readings'));
    expect(input('task_results').value).toBe('');
    expect(input('task_results').placeholder).toBe('Default');
    expect(text('retention-default-task_results')).toBe('Default: 36 months');
    expect(text('retention-minimum-task_results')).toBe('Legal minimum: 24 months');
    expect(text('retention-effective-task_results')).toBe('Kept 36 months');
    // A database setting above the default.
    expect(input('punch_cards').value).toBe('120');
    expect(text('retention-default-punch_cards')).toBe('Default: 60 months');
    expect(text('retention-effective-punch_cards')).toBe('Kept 120 months');
    // Documents have no default: kept until someone deletes them.
    expect(text('retention-default-documents')).toBe('Default: kept until deleted');
    expect(text('retention-minimum-documents')).toBe('Legal minimum: 12 months');
    expect(text('retention-effective-documents')).toBe('Kept until deleted');

    expect(text('retention-explanation')).toContain('signed mark');
    expect(text('retention-explanation')).toContain('inspector pack');
    // 09:30 UTC is 04:30 in the browser's zone (New York).
    expect(text('retention-updated-at')).toBe('Last changed on 02/11/2026 04:30');
    expect(screen.getByTestId('retention-removals-empty').textContent).toContain(
      'Nothing removed yet',
    );
    // Nothing typed yet: nothing to save.
    expect(screen.getByTestId('retention-save').hasAttribute('disabled')).toBe(true);

    const results = await axe.run(screen.getByRole('tabpanel'), {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      rules: { 'color-contrast': { enabled: false } },
    });
    expect(results.violations.map((violation) => violation.id)).toEqual([]);
  });

  it('refuses a value under the legal minimum with the server message and sends nothing', async () => {
    const database = buildDatabase();
    const { user, api, path } = renderRetention(database, buildRetention(database.id), {
      [`PUT /api/databases/${database.id}/retention`]: {
        body: buildRetention(database.id),
      },
    });
    await screen.findByTestId('retention-editor', {}, pageLoad);

    await user.type(input('task_results'), '12');
    await user.click(screen.getByTestId('retention-save'));

    // Beside the field (described by it) and as a toast.
    const row = screen.getByTestId('retention-row-task_results');
    expect(within(row).getByText(belowMinimumMessage)).toBeTruthy();
    expect(input('task_results').getAttribute('aria-invalid')).toBe('true');
    expect(await screen.findByTestId('notice-error')).toBeTruthy();
    expect(screen.getByTestId('notice-error').textContent).toContain(belowMinimumMessage);
    expect(api.callsTo('PUT', path)).toHaveLength(0);
    // What is kept is still the stored value, not the refused one.
    expect(text('retention-effective-task_results')).toBe('Kept 36 months');
  });

  it('saves only the changed types and then shows what the server stored', async () => {
    const database = buildDatabase();
    // The stored answer also carries a change made meanwhile by someone else (audit results).
    const stored = buildRetention(
      database.id,
      { task_results: 48, audit_results: 72 },
      { updated_at: '2026-11-26T10:00:00Z' },
    );
    const { user, api, path } = renderRetention(
      database,
      buildRetention(database.id, { punch_cards: 120 }),
      { [`PUT /api/databases/${database.id}/retention`]: { body: stored } },
    );
    await screen.findByTestId('retention-editor', {}, pageLoad);

    await user.type(input('task_results'), '48');
    // Emptied: back to the default.
    await user.clear(input('punch_cards'));
    // The effective value follows what is typed before the save.
    expect(text('retention-effective-task_results')).toBe('Kept 48 months');
    expect(text('retention-effective-punch_cards')).toBe('Kept 60 months');
    await user.click(screen.getByTestId('retention-save'));

    await waitFor(() => expect(api.callsTo('PUT', path)).toHaveLength(1));
    expect(api.callsTo('PUT', path)[0]?.body).toEqual({ task_results: 48, punch_cards: null });
    expect(await screen.findByText('Saved successfully.')).toBeTruthy();
    // The form is the stored answer: the other user's change shows, nothing is left to save.
    await waitFor(() => expect(input('audit_results').value).toBe('72'));
    expect(input('task_results').value).toBe('48');
    expect(input('punch_cards').value).toBe('');
    expect(text('retention-effective-audit_results')).toBe('Kept 72 months');
    expect(text('retention-effective-punch_cards')).toBe('Kept 60 months');
    expect(text('retention-updated-at')).toBe('Last changed on 26/11/2026 05:00');
    expect(screen.getByTestId('retention-save').hasAttribute('disabled')).toBe(true);
  });

  it("keeps the edits and shows the server's refusal when a save is refused", async () => {
    const database = buildDatabase();
    const { user, api, path } = renderRetention(database, buildRetention(database.id), {
      [`PUT /api/databases/${database.id}/retention`]: apiError(
        403,
        'permission/denied',
        'Permission denied.',
      ),
    });
    await screen.findByTestId('retention-editor', {}, pageLoad);
    await user.type(input('documents'), '24');
    await user.click(screen.getByTestId('retention-save'));

    await waitFor(() => expect(api.callsTo('PUT', path)).toHaveLength(1));
    expect(api.callsTo('PUT', path)[0]?.body).toEqual({ documents: 24 });
    expect((await screen.findByTestId('notice-error')).textContent).toContain(
      'You do not have permission to execute this action.',
    );
    expect(input('documents').value).toBe('24');
  });

  it('asks before leaving the tab with unsaved changes', async () => {
    const database = buildDatabase();
    const { user, api, path } = renderRetention(database, buildRetention(database.id));
    await screen.findByTestId('retention-editor', {}, pageLoad);
    await user.type(input('probe_readings'), '30');
    await user.click(screen.getByTestId('database-tab-general'));

    expect(
      await screen.findByText('You have unsaved changes. Leave this page anyway?'),
    ).toBeTruthy();
    await user.click(screen.getByTestId('confirm-dialog-cancel'));
    await waitFor(() => expect(input('probe_readings').value).toBe('30'));
    expect(api.callsTo('PUT', path)).toHaveLength(0);
  });

  it('is read-only when the retention is not editable', async () => {
    const database = buildDatabase();
    renderRetention(
      database,
      buildRetention(database.id, { task_results: 48 }, { editable: false }),
    );
    await screen.findByTestId('retention-editor', {}, pageLoad);

    expect(screen.queryByTestId('retention-save')).toBeNull();
    expect(text('retention-read-only')).toBe(
      'You can view the retention of records but not change it.',
    );
    for (const type of retentionRecordTypes) expect(input(type).readOnly).toBe(true);
    expect(input('task_results').value).toBe('48');
  });

  it('lists the latest removals of the retention job', async () => {
    const database = buildDatabase();
    renderRetention(
      database,
      buildRetention(
        database.id,
        {},
        {
          removals: [
            buildRemoval({ store_name: 'Bistro Opéra', type: 'probe_readings', count: 1234 }),
            buildRemoval({
              store_name: 'Café du Port',
              type: 'punch_cards',
              before: '2021-10-31',
              count: 7,
              at: '2026-11-19T03:00:00Z',
            }),
          ],
        },
      ),
    );
    const removals = await screen.findByTestId('retention-removals', {}, pageLoad);

    expect(screen.queryByTestId('retention-removals-empty')).toBeNull();
    const table = within(removals).getByRole('table', { name: 'Latest removals' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Date', 'Store', 'Records', 'Removed before', 'Rows removed']);
    const rows = within(table).getAllByTestId('retention-removal');
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['19/11/2026 22:00', 'Bistro Opéra', 'Probe readings', '01/11/2023', '1,234'],
      ['18/11/2026 22:00', 'Café du Port', 'Punch cards', '31/10/2021', '7'],
    ]);
  });
});
