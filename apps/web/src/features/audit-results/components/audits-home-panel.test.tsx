import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../shared/i18n/i18n';
import { selectionStorageKey } from '../../../shared/selection/use-selection';
import { buildId, buildUser } from '../../../test/factories';
import { apiError, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import { expectNoAxeViolations } from '../../alerts/test/expect-no-axe-violations';
import { databaseId } from '../test/build-audit';

const pageLoad = { timeout: 10_000 };

const hygiene = {
  id: buildId(),
  name: 'Audit hygiène',
  publishing_date: '2026-11-02T10:00:00Z',
  stores_done: 2,
  store_count: 3,
  done_percentage: (2 / 3) * 100,
};
const reception = {
  id: buildId(),
  name: 'Réception',
  publishing_date: '2026-10-15T10:00:00Z',
  stores_done: 1,
  store_count: 4,
  done_percentage: 25,
};

function renderHome(role: 'admin' | 'manager' | 'customer', audits: MockHandler) {
  window.localStorage.setItem(
    selectionStorageKey,
    JSON.stringify({ kind: 'database', id: databaseId, name: 'Base Bistrots' }),
  );
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role }) } },
    'GET /api/home/best-stores': { body: { items: [] } },
    [`GET /api/databases/${databaseId}/audits/home`]: audits,
  });
  return { ...renderApp('/home'), api };
}

describe('home audits panel', () => {
  it("shows the selected database's published audits with their share done", async () => {
    const { container } = renderHome('manager', { body: { items: [hygiene, reception] } });

    const panel = await screen.findByTestId('home-audits', {}, pageLoad);
    const rows = await within(panel).findAllByTestId('home-audit');
    expect(rows.map((row) => within(row).getByTestId('home-audit-done').textContent)).toEqual([
      '66.67 % done',
      '25 % done',
    ]);
    expect(within(rows[0] as HTMLElement).getByTestId('home-audit-stores').textContent).toBe(
      '2 / 3 stores',
    );
    expect(within(rows[0] as HTMLElement).getByTestId('home-audit-published').textContent).toBe(
      'Published on 02/11/2026',
    );
    // A manager reads the results: the name leads there.
    expect(
      within(rows[0] as HTMLElement)
        .getByRole('link', { name: 'Audit hygiène' })
        .getAttribute('href'),
    ).toBe(`/auditingResults?audit=${hygiene.id}`);
    await expectNoAxeViolations(container);
  });

  it('says "effectué" in French', async () => {
    await i18n.changeLanguage('fr');
    renderHome('admin', { body: { items: [hygiene] } });
    const done = await screen.findByTestId('home-audit-done', {}, pageLoad);
    expect(done.textContent).toBe('66.67 % effectué');
  });

  it('hides the panel when the API refuses auditing (customers)', async () => {
    const { api } = renderHome('customer', apiError(403, 'permission/denied'));
    await screen.findByTestId('home-best-stores', {}, pageLoad);
    await waitFor(() =>
      expect(api.callsTo('GET', `/api/databases/${databaseId}/audits/home`)).toHaveLength(1),
    );
    await waitFor(() => expect(screen.queryByTestId('home-audits')).toBeNull());
  });
});
