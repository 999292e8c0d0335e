import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../shared/i18n/i18n';
import { selectionStorageKey } from '../../../shared/selection/use-selection';
import { buildId, buildStore, buildUser } from '../../../test/factories';
import { apiError, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import { brasseries } from '../test/build-communication';
import { expectNoAxeViolations } from '../test/expect-no-axe-violations';

const pageLoad = { timeout: 10_000 };

// 00:00:00 and 23:59:59 in Paris: the browser here is in New York, a day behind at midnight.
const winter = {
  id: buildId(),
  name: 'Nouvelle carte d’hiver',
  start: '2026-11-30T23:00:00Z',
  end: '2026-12-07T22:59:59Z',
  start_day: '2026-12-01',
  end_day: '2026-12-07',
  percentage: 85,
};
const hygiene = {
  id: buildId(),
  name: 'Rappel hygiène',
  start: '2026-11-19T23:00:00Z',
  end: '2026-11-30T22:59:59Z',
  start_day: '2026-11-20',
  end_day: '2026-11-30',
  percentage: 12,
};

function selectDatabase() {
  window.localStorage.setItem(
    selectionStorageKey,
    JSON.stringify({ kind: 'database', id: brasseries.id, name: brasseries.name }),
  );
}

function renderHome(role: 'admin' | 'manager' | 'customer', handlers: Record<string, MockHandler>) {
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role }) } },
    'GET /api/home/best-stores': { body: { items: [] } },
    [`GET /api/databases/${brasseries.id}/audits/home`]: apiError(403, 'permission/denied'),
    ...handlers,
  });
  return { ...renderApp('/home'), api };
}

describe('home communications panel', { timeout: 30_000 }, () => {
  it("shows the chosen database's running communications; a card opens its statistics", async () => {
    selectDatabase();
    const { user, router, container, api } = renderHome('manager', {
      [`GET /api/databases/${brasseries.id}/communications/home`]: {
        body: { items: [winter, hygiene] },
      },
    });
    const panel = await screen.findByTestId('home-communications', {}, pageLoad);
    const cards = await within(panel).findAllByTestId('home-communication');
    expect(
      cards.map((card) => [
        within(card).getByTestId('home-communication-name').textContent,
        within(card).getByTestId('home-communication-seen').textContent,
      ]),
    ).toEqual([
      ['Nouvelle carte d’hiver', '85 % saw it'],
      ['Rappel hygiène', '12 % saw it'],
    ]);
    expect(cards[0]?.getAttribute('href')).toBe(`/communicationStats?id=${winter.id}`);
    expect(
      api
        .callsTo('GET', `/api/databases/${brasseries.id}/communications/home`)[0]
        ?.query.has('store_id'),
    ).toBe(false);
    await expectNoAxeViolations(container);

    await user.click(cards[0]!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/communicationStats'));
    expect(router.state.location.search).toBe(`?id=${winter.id}`);
  });

  it("with a store chosen: its database's communications seen by its employees, dates on its clock", async () => {
    const store = buildStore({ name: 'Bistro Opéra', database: brasseries.id });
    window.localStorage.setItem(
      selectionStorageKey,
      JSON.stringify({ kind: 'store', id: store.id, name: store.name }),
    );
    const { api } = renderHome('customer', {
      [`GET /api/stores/${store.id}`]: { body: { store } },
      [`GET /api/databases/${brasseries.id}/communications/home`]: { body: { items: [winter] } },
    });
    const card = await screen.findByTestId('home-communication', {}, pageLoad);
    expect(within(card).getByTestId('home-communication-dates').textContent).toBe(
      'From 01/12/2026 to 07/12/2026',
    );
    expect(
      api
        .callsTo('GET', `/api/databases/${brasseries.id}/communications/home`)[0]
        ?.query.get('store_id'),
    ).toBe(store.id);
  });

  it('says when nothing runs, in French too', async () => {
    await i18n.changeLanguage('fr');
    selectDatabase();
    renderHome('admin', {
      [`GET /api/databases/${brasseries.id}/communications/home`]: { body: { items: [] } },
    });
    const panel = await screen.findByTestId('home-communications', {}, pageLoad);
    expect(await within(panel).findByText('Aucune communication en cours.')).toBeTruthy();
  });

  it('is hidden when the API refuses', async () => {
    selectDatabase();
    const { api } = renderHome('admin', {
      [`GET /api/databases/${brasseries.id}/communications/home`]: apiError(
        403,
        'permission/denied',
      ),
    });
    await screen.findByTestId('home-best-stores', {}, pageLoad);
    await waitFor(() =>
      expect(
        api.callsTo('GET', `/api/databases/${brasseries.id}/communications/home`),
      ).toHaveLength(1),
    );
    await waitFor(() => expect(screen.queryByTestId('home-communications')).toBeNull());
  });
});
