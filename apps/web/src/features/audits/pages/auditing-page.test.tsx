import type { DatabaseSummary } from '@mise/shared/organisation/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildId, buildUser } from '../../../test/factories';
import { type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import type { AuditDatabase } from '../api/get-audit-databases';
import { buildAuditSummary } from '../test/build-audit';
import { expectNoAxeViolations } from '../test/expect-no-axe-violations';

const pageLoad = { timeout: 10_000 };

function database(name: string, overrides: Partial<AuditDatabase> = {}): AuditDatabase {
  const summary: DatabaseSummary = {
    id: buildId(),
    name,
    distributor: null,
    distributor_name: null,
    illustration_url: null,
    hidden: false,
    store_count: 3,
  };
  return { ...summary, ...overrides };
}

const brasseries = database('Brasseries du Sud');
const hiddenAudits = database('Boulangeries', { hidden_extensions: ['auditing'] });
const cafes = database('Cafés du Nord');

const published = buildAuditSummary({
  name: 'Audit hygiène',
  published: true,
  publishing_date: '2026-11-10T08:00:00Z',
  section_count: 3,
  question_count: 12,
});
const draft = buildAuditSummary({ name: 'Audit sécurité', section_count: 1, question_count: 1 });
const inactive = buildAuditSummary({ name: 'Ancien audit', published: true, active: false });

type Rights = { can_create: boolean; can_read_results: boolean };

function renderList(
  role: 'admin' | 'manager' | 'distributor',
  rights: Rights,
  extra: Record<string, MockHandler> = {},
) {
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role }) } },
    'GET /api/databases': { body: { items: [brasseries, hiddenAudits, cafes] } },
    [`GET /api/databases/${brasseries.id}/audits`]: (call) => ({
      body: {
        items:
          call.query.get('include_inactive') === 'true'
            ? [published, draft, inactive]
            : [published, draft],
        ...rights,
      },
    }),
    [`GET /api/databases/${cafes.id}/audits`]: { body: { items: [], ...rights } },
    ...extra,
  });
  return { ...renderApp('/auditing'), api };
}

const cardOf = (name: string) =>
  screen.getAllByTestId('audit-card').find((card) => card.getAttribute('aria-label') === name)!;

describe('auditing list', { timeout: 30_000 }, () => {
  it('shows an admin the cards with their counts, New, edit, results and perform', async () => {
    const { user } = renderList('admin', { can_create: true, can_read_results: true });
    await screen.findAllByTestId('audit-card', {}, pageLoad);
    expect(screen.getAllByTestId('audit-card-name').map((item) => item.textContent)).toEqual([
      'Audit hygiène',
      'Audit sécurité',
    ]);
    const hygiene = cardOf('Audit hygiène');
    expect(within(hygiene).getByTestId('audit-card-counts').textContent).toBe(
      '3 sections · 12 questions',
    );
    expect(within(cardOf('Audit sécurité')).getByTestId('audit-card-counts').textContent).toBe(
      '1 section · 1 question',
    );
    expect(within(hygiene).getByTestId('audit-edit').getAttribute('href')).toBe(
      `/auditingConfiguration?id=${published.id}`,
    );
    expect(within(hygiene).getByTestId('audit-results').getAttribute('href')).toBe(
      `/auditingResults?audit=${published.id}`,
    );
    expect(within(hygiene).getByTestId('audit-perform').getAttribute('href')).toBe(
      `/auditingPerform?audit=${published.id}`,
    );
    // Not published: nothing to perform.
    expect(within(cardOf('Audit sécurité')).queryByTestId('audit-perform')).toBeNull();
    expect(screen.getByTestId('audit-new').getAttribute('href')).toBe(
      `/auditingConfiguration?database=${brasseries.id}`,
    );

    // The database whose auditing extension is hidden is not offered.
    await user.click(screen.getByTestId('audit-database'));
    const options = screen.getAllByRole('option').map((option) => option.textContent);
    expect(options).toEqual(['Brasseries du Sud', 'Cafés du Nord']);
    await expectNoAxeViolations(document.body);
  });

  it('shows a distributor New and edit but no results', async () => {
    renderList('distributor', { can_create: true, can_read_results: false });
    const cards = await screen.findAllByTestId('audit-card', {}, pageLoad);
    expect(within(cards[0]!).getByTestId('audit-edit')).toBeTruthy();
    expect(screen.queryByTestId('audit-results')).toBeNull();
    expect(screen.getByTestId('audit-new')).toBeTruthy();
  });

  it('shows no New button when the answer says the caller may not create', async () => {
    renderList('manager', { can_create: false, can_read_results: true });
    const cards = await screen.findAllByTestId('audit-card', {}, pageLoad);
    expect(within(cards[0]!).getByTestId('audit-results')).toBeTruthy();
    expect(screen.queryByTestId('audit-new')).toBeNull();
  });

  it('searches on the server, shows the inactive audits on demand', async () => {
    const { user, api } = renderList('admin', { can_create: true, can_read_results: true });
    await screen.findAllByTestId('audit-card', {}, pageLoad);
    await user.click(screen.getByTestId('audits-inactive'));
    await waitFor(() => expect(screen.getAllByTestId('audit-card')).toHaveLength(3));
    expect(cardOf('Ancien audit').textContent).toContain('Inactive');
    // An inactive audit is not performed, even published.
    expect(within(cardOf('Ancien audit')).queryByTestId('audit-perform')).toBeNull();

    await user.type(screen.getByTestId('audits-search'), 'hygiène');
    await waitFor(() =>
      expect(
        api
          .callsTo('GET', `/api/databases/${brasseries.id}/audits`)
          .some(
            (call) =>
              call.query.get('search') === 'hygiène' &&
              call.query.get('include_inactive') === 'true',
          ),
      ).toBe(true),
    );
  });

  it('remembers the chosen database for the next visit', async () => {
    const first = renderList('admin', { can_create: true, can_read_results: true });
    await screen.findAllByTestId('audit-card', {}, pageLoad);
    await first.user.click(screen.getByTestId('audit-database'));
    await first.user.click(await screen.findByRole('option', { name: 'Cafés du Nord' }));
    expect(await screen.findByText('No audit found.')).toBeTruthy();
    first.unmount();

    const second = renderList('admin', { can_create: true, can_read_results: true });
    expect(await screen.findByText('No audit found.', {}, pageLoad)).toBeTruthy();
    expect((screen.getByTestId('audit-database') as HTMLInputElement).value).toBe('Cafés du Nord');
    expect(second.api.callsTo('GET', `/api/databases/${brasseries.id}/audits`)).toHaveLength(0);
  });

  it('says when the server refuses a database whose audits are hidden', async () => {
    renderList(
      'admin',
      { can_create: true, can_read_results: true },
      {
        [`GET /api/databases/${brasseries.id}/audits`]: {
          status: 403,
          body: { error: { code: 'audit/extension-hidden', message: 'hidden' } },
        },
      },
    );
    expect(
      await screen.findByText('Audits are not available for this database.', {}, pageLoad),
    ).toBeTruthy();
    expect(screen.queryByTestId('audit-new')).toBeNull();
  });
});
