import type { Distributor } from '@mise/shared/organisation/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../shared/i18n/i18n';
import { buildId, buildUser } from '../../../test/factories';
import { type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';

function buildDistributor(overrides: Partial<Distributor> = {}): Distributor {
  return {
    id: buildId(),
    name: 'Frais Distribution',
    active: true,
    city: 'Lyon',
    countries: ['FR', 'BE'],
    logo: null,
    store_count: 12,
    licensed_store_count: 9,
    address: '3 rue des Halles',
    postal_code: '69002',
    phone: '',
    email: '',
    shop_email: null,
    billing_cycle: 60,
    licence_price: 22,
    contacts: [],
    databases: [],
    sensor_connected: false,
    version: 4,
    ...overrides,
  };
}

function setup(role: 'admin' | 'distributor', extra: Record<string, MockHandler> = {}) {
  return mockApi({ 'GET /api/me': { body: { user: buildUser({ role }) } }, ...extra });
}

describe('distributors', { timeout: 20_000 }, () => {
  it('lists cards with city, countries and store counts; New is for admins only', async () => {
    const distributor = buildDistributor();
    setup('distributor', { 'GET /api/distributors': { body: { items: [distributor] } } });
    renderApp('/distributors');

    const card = await screen.findByTestId('distributor-card');
    expect(within(card).getByText('Lyon · France, Belgium')).toBeTruthy();
    expect(within(card).getByTestId('distributor-card-counts').textContent).toBe(
      '12 stores · 9 with a licence',
    );
    expect(screen.queryByTestId('new-distributor')).toBeNull();
  });

  it('requires every field of a new distributor, then creates it', async () => {
    const created = buildDistributor({ name: 'Ouest Hygiène' });
    const api = setup('admin', {
      'GET /api/distributors': { body: { items: [] } },
      'POST /api/distributors': { body: { distributor: created } },
      [`GET /api/distributors/${created.id}`]: { body: { distributor: created } },
    });
    const { user, router } = renderApp('/distributors');
    await user.click(await screen.findByTestId('new-distributor'));
    const dialog = await screen.findByRole('dialog');

    await user.click(within(dialog).getByTestId('distributor-name'));
    await user.paste('Ouest Hygiène');
    await user.click(within(dialog).getByTestId('new-distributor-submit'));
    expect(within(dialog).getByTestId('new-distributor-error').textContent).toBe(
      'Please fill all fields.',
    );
    expect(api.callsTo('POST', '/api/distributors')).toHaveLength(0);

    for (const [testId, text] of [
      ['distributor-address', '2 quai Est'],
      ['distributor-postal-code', '29200'],
      ['distributor-city', 'Brest'],
    ] as const) {
      await user.click(within(dialog).getByTestId(testId));
      await user.paste(text);
    }
    await user.click(within(dialog).getByTestId('new-distributor-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/distributor'));
    expect(api.callsTo('POST', '/api/distributors')[0]?.body).toEqual({
      name: 'Ouest Hygiène',
      address: '2 quai Est',
      postal_code: '29200',
      city: 'Brest',
      country: 'FR',
    });
  });

  it('shows the billing cycle as "5 ans" and locks the fields for a distributor', async () => {
    await i18n.changeLanguage('fr');
    const distributor = buildDistributor({ licence_price: null });
    setup('distributor', {
      [`GET /api/distributors/${distributor.id}`]: { body: { distributor } },
    });
    renderApp(`/distributor?id=${distributor.id}`);

    const cycle = (await screen.findByTestId('distributor-billing-cycle')) as HTMLInputElement;
    expect(cycle.value).toBe('5 ans');
    expect(cycle.disabled).toBe(true);
    expect((screen.getByTestId('distributor-name') as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByTestId('distributor-licence-price')).toBeNull();
    expect(screen.queryByTestId('save')).toBeNull();
  });

  it('saves an admin edit with the version read', async () => {
    const distributor = buildDistributor({ billing_cycle: 1 });
    const api = setup('admin', {
      [`GET /api/distributors/${distributor.id}`]: { body: { distributor } },
      [`PATCH /api/distributors/${distributor.id}`]: {
        body: { distributor: { ...distributor, version: 5 } },
      },
    });
    const { user } = renderApp(`/distributor?id=${distributor.id}`);

    expect(
      ((await screen.findByTestId('distributor-billing-cycle')) as HTMLInputElement).value,
    ).toBe('1 month');
    await user.click(screen.getByTestId('distributor-add-contact'));
    const contact = screen.getByTestId('distributor-contact');
    await user.click(within(contact).getByLabelText('Name'));
    await user.paste('Inès Morel');
    await user.click(screen.getByTestId('save'));

    await waitFor(() =>
      expect(api.callsTo('PATCH', `/api/distributors/${distributor.id}`)).toHaveLength(1),
    );
    expect(api.callsTo('PATCH', `/api/distributors/${distributor.id}`)[0]?.body).toMatchObject({
      version: 4,
      billing_cycle: 1,
      licence_price: 22,
      contacts: [{ name: 'Inès Morel', role: '', email: '', phone: '' }],
    });
  });
});
