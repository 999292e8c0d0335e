import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/factories';
import { type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import { brasseries, buildCommunicationSummary, buildDatabase } from '../test/build-communication';
import { expectNoAxeViolations } from '../test/expect-no-axe-violations';

const pageLoad = { timeout: 10_000 };

const cafes = buildDatabase('Cafés du Nord');

const winter = buildCommunicationSummary({ name: 'Nouvelle carte d’hiver' });
const hygiene = buildCommunicationSummary({
  name: 'Rappel hygiène',
  state: 'running',
  start_day: '2026-11-20',
  end_day: '2026-11-30',
  target_kind: 'groups',
  question_count: 2,
});
const summer = buildCommunicationSummary({
  name: 'Carte d’été',
  state: 'passed',
  active: false,
  start_day: '2026-06-01',
  end_day: '2026-06-30',
});

function renderList(
  role: 'admin' | 'manager' | 'customer',
  canEdit: boolean,
  extra: Record<string, MockHandler> = {},
) {
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role }) } },
    'GET /api/databases': { body: { items: [brasseries, cafes] } },
    [`GET /api/databases/${brasseries.id}/communications`]: (call) => ({
      body: {
        items:
          call.query.get('include_inactive') === 'true'
            ? [winter, hygiene, summer]
            : [winter, hygiene],
        can_edit: canEdit,
      },
    }),
    [`GET /api/databases/${cafes.id}/communications`]: { body: { items: [], can_edit: canEdit } },
    ...extra,
  });
  return { ...renderApp('/communications'), api };
}

const cardOf = (name: string) =>
  screen
    .getAllByTestId('communication-card')
    .find((card) => card.getAttribute('aria-label') === name)!;

describe('communications list', { timeout: 30_000 }, () => {
  it('shows cards with dates, state, edit and statistics, and New, to a manager', async () => {
    const { container } = renderList('manager', true);
    await screen.findAllByTestId('communication-card', {}, pageLoad);
    expect(
      screen.getAllByTestId('communication-card-name').map((item) => item.textContent),
    ).toEqual(['Nouvelle carte d’hiver', 'Rappel hygiène']);

    const winterCard = cardOf('Nouvelle carte d’hiver');
    expect(within(winterCard).getByTestId('communication-card-dates').textContent).toBe(
      'From 01/12/2026 to 07/12/2026',
    );
    expect(within(winterCard).getByTestId('communication-state').textContent).toBe('Coming');
    expect(within(cardOf('Rappel hygiène')).getByTestId('communication-state').textContent).toBe(
      'Running',
    );
    expect(within(cardOf('Rappel hygiène')).getByText(/2 questions/)).toBeTruthy();
    expect(within(winterCard).getByTestId('communication-edit').getAttribute('href')).toBe(
      `/communication?id=${winter.id}`,
    );
    expect(within(winterCard).getByTestId('communication-stats').getAttribute('href')).toBe(
      `/communicationStats?id=${winter.id}`,
    );
    expect(screen.getByTestId('communication-new').getAttribute('href')).toBe(
      `/communication?database=${brasseries.id}`,
    );
    await expectNoAxeViolations(container);
  });

  it('shows a customer the statistics only: no New, no edit', async () => {
    renderList('customer', false);
    const cards = await screen.findAllByTestId('communication-card', {}, pageLoad);
    expect(within(cards[0]!).getByTestId('communication-stats')).toBeTruthy();
    expect(screen.queryByTestId('communication-edit')).toBeNull();
    expect(screen.queryByTestId('communication-new')).toBeNull();
  });

  it('searches on the server and shows the inactive ones on demand', async () => {
    const { user, api } = renderList('admin', true);
    await screen.findAllByTestId('communication-card', {}, pageLoad);
    expect(
      api
        .callsTo('GET', `/api/databases/${brasseries.id}/communications`)[0]
        ?.query.get('include_inactive'),
    ).toBe('false');

    await user.click(screen.getByTestId('communications-inactive'));
    await waitFor(() => expect(screen.getAllByTestId('communication-card')).toHaveLength(3));
    const summerCard = cardOf('Carte d’été');
    expect(within(summerCard).getByTestId('communication-inactive').textContent).toBe('Inactive');
    expect(within(summerCard).getByTestId('communication-state').textContent).toBe('Passed');

    await user.type(screen.getByTestId('communications-search'), 'hygiène');
    await waitFor(() =>
      expect(
        api
          .callsTo('GET', `/api/databases/${brasseries.id}/communications`)
          .some(
            (call) =>
              call.query.get('search') === 'hygiène' &&
              call.query.get('include_inactive') === 'true',
          ),
      ).toBe(true),
    );
  });

  it('says when a database has no communication', async () => {
    const { user } = renderList('admin', true);
    await screen.findAllByTestId('communication-card', {}, pageLoad);
    await user.click(screen.getByTestId('communication-database'));
    await user.click(await screen.findByRole('option', { name: 'Cafés du Nord' }));
    expect(await screen.findByText('No communication found.')).toBeTruthy();
    expect(screen.getByTestId('communication-new').getAttribute('href')).toBe(
      `/communication?database=${cafes.id}`,
    );
  });

  it('is not offered to distributors', async () => {
    mockApi({ 'GET /api/me': { body: { user: buildUser({ role: 'distributor' }) } } });
    renderApp('/communicationStats?id=x');
    expect(await screen.findByTestId('no-permission', {}, pageLoad)).toBeTruthy();
  });
});
