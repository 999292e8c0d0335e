import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../shared/i18n/i18n';
import { selectionStorageKey } from '../../../shared/selection/use-selection';
import { buildId, buildStore, buildUser } from '../../../test/factories';
import { apiError, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import { expectNoAxeViolations } from '../../communications/test/expect-no-axe-violations';
import { brasseries } from '../test/build-training';

const pageLoad = { timeout: 10_000 };

const handwashing = { id: buildId(), name: 'Hygiène des mains', type: 'database', percentage: 85 };
const allergens = { id: buildId(), name: 'Allergènes', type: 'global', percentage: 12 };

function renderHome(role: 'admin' | 'manager' | 'customer', handlers: Record<string, MockHandler>) {
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role }) } },
    'GET /api/home/best-stores': { body: { items: [] } },
    [`GET /api/databases/${brasseries.id}/audits/home`]: apiError(403, 'permission/denied'),
    [`GET /api/databases/${brasseries.id}/communications/home`]: { body: { items: [] } },
    ...handlers,
  });
  return { ...renderApp('/home'), api };
}

function select(kind: 'store' | 'database', id: string, name: string) {
  window.localStorage.setItem(selectionStorageKey, JSON.stringify({ kind, id, name }));
}

describe('home trainings panel', { timeout: 30_000 }, () => {
  it("shows the chosen database's active trainings with their type and share; a card opens its statistics", async () => {
    select('database', brasseries.id, brasseries.name);
    const { user, router, container, api } = renderHome('manager', {
      'GET /api/trainings/home': { body: { items: [handwashing, allergens] } },
    });
    const panel = await screen.findByTestId('home-trainings', {}, pageLoad);
    const cards = await within(panel).findAllByTestId('home-training');
    expect(
      cards.map((card) => [
        within(card).getByTestId('home-training-name').textContent,
        within(card).getByTestId('home-training-type').textContent,
        within(card).getByTestId('home-training-trained').textContent,
      ]),
    ).toEqual([
      ['Hygiène des mains', 'Database training', '85 % trained'],
      ['Allergènes', 'Global training', '12 % trained'],
    ]);
    expect(cards[0]?.getAttribute('aria-label')).toBe(
      'Hygiène des mains (Database training): 85 % trained. Open its statistics',
    );
    const query = api.callsTo('GET', '/api/trainings/home')[0]?.query;
    expect(query?.get('database_id')).toBe(brasseries.id);
    expect(query?.has('store_id')).toBe(false);
    await expectNoAxeViolations(container);

    await user.click(cards[0]!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/trainingStats'));
    expect(router.state.location.search).toBe(`?id=${handwashing.id}`);
  });

  it('with a store chosen: the trainings reaching it, by its database', async () => {
    const store = buildStore({ name: 'Bistro Opéra', database: brasseries.id });
    select('store', store.id, store.name);
    const { api } = renderHome('customer', {
      [`GET /api/stores/${store.id}`]: { body: { store } },
      'GET /api/trainings/home': { body: { items: [allergens] } },
    });
    const card = await screen.findByTestId('home-training', {}, pageLoad);
    expect(within(card).getByTestId('home-training-name').textContent).toBe('Allergènes');
    const query = api.callsTo('GET', '/api/trainings/home')[0]?.query;
    expect(query?.get('database_id')).toBe(brasseries.id);
    expect(query?.get('store_id')).toBe(store.id);
  });

  it('says when no training is active, in French too', async () => {
    await i18n.changeLanguage('fr');
    select('database', brasseries.id, brasseries.name);
    renderHome('admin', { 'GET /api/trainings/home': { body: { items: [] } } });
    const panel = await screen.findByTestId('home-trainings', {}, pageLoad);
    expect(await within(panel).findByText('Aucune formation active.')).toBeTruthy();
    expect(within(panel).getByText('Formations')).toBeTruthy();
  });

  it('is hidden when the API refuses', async () => {
    select('database', brasseries.id, brasseries.name);
    const { api } = renderHome('admin', {
      'GET /api/trainings/home': apiError(403, 'permission/denied'),
    });
    await screen.findByTestId('home-communications', {}, pageLoad);
    await waitFor(() => expect(api.callsTo('GET', '/api/trainings/home')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByTestId('home-trainings')).toBeNull());
  });
});
