import type { StoreSummary } from '@mise/shared/organisation/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildId, buildStore, buildUser } from '../../../test/factories';
import { type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import { expectNoAxeViolations } from '../../communications/test/expect-no-axe-violations';
import { brasseries, buildDatabase, buildTrainingSummary } from '../test/build-training';

const pageLoad = { timeout: 10_000 };

const cafes = buildDatabase('Cafés du Nord');
const hiddenTrainings = buildDatabase('Boulangeries', { hidden_extensions: ['training'] });
const distributorId = buildId();

const storeSummary = (name: string): StoreSummary => {
  const { id, address, postal_code, city, country, active, illustration_url } = buildStore({
    name,
  });
  return {
    id,
    name,
    address,
    postal_code,
    city,
    country,
    active,
    illustration_url,
    distributor: distributorId,
    distributor_name: 'Restauration Sud',
    database: brasseries.id,
    database_name: brasseries.name,
    mise_licence: true,
  };
};
const opera = storeSummary('Bistro Opéra');
const vieuxPort = storeSummary('Le Vieux Port');

const handwashing = buildTrainingSummary({
  name: 'Hygiène des mains',
  required: true,
  category: { id: buildId(), name: 'Hygiène', type: 'database', source: brasseries.id },
});
const allergens = buildTrainingSummary({ name: 'Allergènes', can_edit: false, type: 'global' });
const closing = buildTrainingSummary({ name: 'Fermeture', active: false });

type Role = 'admin' | 'distributor' | 'manager' | 'customer';

function renderList(role: Role, extra: Record<string, MockHandler> = {}, path = '/trainings') {
  const api = mockApi({
    'GET /api/me': {
      body: {
        user: buildUser({ role, distributor: role === 'distributor' ? distributorId : null }),
      },
    },
    'GET /api/databases': { body: { items: [cafes, hiddenTrainings, brasseries] } },
    'GET /api/stores': { body: { items: [vieuxPort, opera], total: 2 } },
    'GET /api/trainings': (call) => ({
      body: {
        items:
          call.query.get('include_inactive') === 'true'
            ? [allergens, closing, handwashing]
            : [allergens, handwashing],
        can_create: true,
      },
    }),
    ...extra,
  });
  return { ...renderApp(path), api };
}

const cardOf = (name: string) =>
  screen.getAllByTestId('training-card').find((card) => card.getAttribute('aria-label') === name)!;

const lastListQuery = (api: ReturnType<typeof mockApi>) =>
  Object.fromEntries(api.callsTo('GET', '/api/trainings').at(-1)?.query ?? []);

describe('trainings list', { timeout: 30_000 }, () => {
  it('shows an admin the global trainings at once: no picker; type, category, required, edit only when allowed', async () => {
    const { api, user, container, router } = renderList('admin');
    await screen.findAllByTestId('training-card', {}, pageLoad);
    expect(screen.getByTestId('page-title').textContent).toBe('Trainings');
    expect(screen.queryByTestId('training-source')).toBeNull();
    expect(lastListQuery(api)).toEqual({ include_inactive: 'false' });

    const card = cardOf('Hygiène des mains');
    expect(within(card).getByTestId('training-card-type').textContent).toBe('Database training');
    expect(within(card).getByTestId('training-card-category').textContent).toBe('Hygiène');
    expect(within(card).getByTestId('training-required').textContent).toBe('Required');
    expect(within(card).getByTestId('training-edit').getAttribute('href')).toBe(
      `/training?id=${handwashing.id}`,
    );
    expect(within(card).getByTestId('training-stats').getAttribute('href')).toBe(
      `/trainingStats?id=${handwashing.id}`,
    );
    const globalCard = cardOf('Allergènes');
    expect(within(globalCard).getByTestId('training-card-type').textContent).toBe(
      'Global training',
    );
    expect(within(globalCard).queryByTestId('training-edit')).toBeNull();
    expect(within(globalCard).getByTestId('training-stats')).toBeTruthy();
    await expectNoAxeViolations(container);

    await user.click(screen.getByTestId('training-new'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/training'));
    expect(router.state.location.search).toBe('?new=1');
  });

  it('shows the inactive ones on demand and searches on the server', async () => {
    const { api, user } = renderList('admin');
    await screen.findAllByTestId('training-card', {}, pageLoad);
    await user.click(screen.getByTestId('trainings-inactive'));
    await waitFor(() => expect(screen.getAllByTestId('training-card')).toHaveLength(3));
    expect(within(cardOf('Fermeture')).getByTestId('training-inactive').textContent).toBe(
      'Inactive',
    );
    await user.type(screen.getByTestId('trainings-search'), 'mains');
    await waitFor(() =>
      expect(lastListQuery(api)).toEqual({ search: 'mains', include_inactive: 'true' }),
    );
  });

  it('has a manager pick a database (hidden training extension left out, sorted by name)', async () => {
    const { api, user, router } = renderList('manager');
    await screen.findAllByTestId('training-card', {}, pageLoad);
    // The first database by name: Brasseries du Sud.
    expect(lastListQuery(api)).toEqual({ database_id: brasseries.id, include_inactive: 'false' });

    await user.click(screen.getByTestId('training-source'));
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'Brasseries du Sud',
      'Cafés du Nord',
    ]);
    await user.click(screen.getByRole('option', { name: 'Cafés du Nord' }));
    await waitFor(() =>
      expect(lastListQuery(api)).toEqual({ database_id: cafes.id, include_inactive: 'false' }),
    );
    expect(router.state.location.search).toBe(`?database=${cafes.id}`);

    await user.click(screen.getByTestId('training-new'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/training'));
    expect(router.state.location.search).toBe(`?new=1&database=${cafes.id}`);
  });

  it('tells a manager without any database to select a training source', async () => {
    const { user, api } = renderList('manager', {
      'GET /api/databases': { body: { items: [hiddenTrainings] } },
    });
    expect(await screen.findByTestId('trainings-no-source', {}, pageLoad)).toBeTruthy();
    await user.click(screen.getByTestId('training-new'));
    expect(await screen.findByText('Please select a training source.')).toBeTruthy();
    expect(api.callsTo('GET', '/api/trainings')).toHaveLength(0);
  });

  it('has a customer pick a store, and creates on it', async () => {
    const { api, user, router } = renderList('customer');
    await screen.findAllByTestId('training-card', {}, pageLoad);
    expect(lastListQuery(api)).toEqual({ store_id: opera.id, include_inactive: 'false' });
    // The first store by name.
    expect((screen.getByTestId('training-source') as HTMLInputElement).value).toBe('Bistro Opéra');
    await user.click(screen.getByTestId('training-new'));
    await waitFor(() => expect(router.state.location.search).toBe(`?new=1&store=${opera.id}`));
  });

  it("shows a distributor their distributor's trainings, or a database's", async () => {
    const { api, user, container } = renderList('distributor');
    await screen.findAllByTestId('training-card', {}, pageLoad);
    expect(lastListQuery(api)).toEqual({ include_inactive: 'false' });
    expect(
      (screen.getByTestId('training-source') as HTMLInputElement).getAttribute('placeholder'),
    ).toBe("Your distributor's trainings");

    await user.click(screen.getByTestId('training-source'));
    await user.click(await screen.findByRole('option', { name: 'Brasseries du Sud' }));
    await waitFor(() =>
      expect(lastListQuery(api)).toEqual({
        database_id: brasseries.id,
        include_inactive: 'false',
      }),
    );
    await expectNoAxeViolations(container);
  });
});
