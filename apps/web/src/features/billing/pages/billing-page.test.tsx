import { cleanup, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { buildId, buildUser } from '../../../test/factories';
import { mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';

const fraisId = buildId();
const ouestId = buildId();

const summary = {
  billedStores: {
    'Frais Distribution': [
      {
        id: buildId(),
        name: 'Bistro Opéra',
        cost: 38,
        maximumDevices: 2,
        licencePrice: 19,
        billedMonths: 1,
        licensedDays: 30,
      },
      {
        id: buildId(),
        name: 'Café du Parc',
        cost: 19,
        maximumDevices: 1,
        licencePrice: 19,
        billedMonths: 1,
        licensedDays: 12,
      },
    ],
    'Ouest Hygiène': [
      {
        id: buildId(),
        name: 'Boulangerie du Port',
        cost: 1177.5,
        maximumDevices: 1,
        licencePrice: 22.5,
        billedMonths: 1,
        licensedDays: 30,
      },
    ],
  },
  distributors: [
    { id: fraisId, name: 'Frais Distribution', billing_cycle: 1, cost: 57 },
    { id: ouestId, name: 'Ouest Hygiène', billing_cycle: 60, cost: 1177.5 },
  ],
  total: 1234.5,
};

function mockBilling(response: unknown) {
  return mockApi({
    'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
    'GET /api/distributors': {
      body: {
        items: [
          { id: fraisId, name: 'Frais Distribution', active: true },
          { id: ouestId, name: 'Ouest Hygiène', active: true },
        ],
      },
    },
    'POST /api/billing/summary': { body: response },
  });
}

describe('billing', { timeout: 20_000 }, () => {
  it('asks for the current month, shows the total in euros and a group per distributor', async () => {
    const api = mockBilling(summary);
    const { user } = renderApp('/billing');

    expect((await screen.findByTestId('billing-total')).textContent).toBe('€1,234.50');
    expect(api.callsTo('POST', '/api/billing/summary')[0]?.body).toEqual({
      period: {
        start: dayjs().startOf('month').format('YYYY-MM-DD'),
        end: dayjs().endOf('month').format('YYYY-MM-DD'),
      },
      distributorId: null,
    });

    const groups = screen.getAllByTestId('billing-group');
    expect(
      groups.map((group) => within(group).getByTestId('billing-group-cost').textContent),
    ).toEqual(['€57.00', '€1,177.50']);
    await user.click(within(groups[0] as HTMLElement).getByTestId('billing-group-toggle'));
    const rows = await within(groups[0] as HTMLElement).findAllByTestId('billing-store');
    expect(rows.map((row) => row.textContent)).toEqual([
      'Bistro Opéra2€19.001€38.00',
      'Café du Parc1€19.001€19.00',
    ]);
  });

  it('keeps the applied period and distributor in the address, so a reload shows them (issue 13)', async () => {
    const api = mockBilling(summary);
    const { user, router } = renderApp('/billing');
    await screen.findByTestId('billing-total');

    await user.click(screen.getByTestId('billing-distributor'));
    await user.click(await screen.findByRole('option', { name: 'Ouest Hygiène' }));
    await user.click(screen.getByTestId('billing-apply'));
    await waitFor(() => expect(api.callsTo('POST', '/api/billing/summary')).toHaveLength(2));
    const search = new URLSearchParams(router.state.location.search);
    expect(search.get('distributor')).toBe(ouestId);
    expect(search.get('start')).toBe(dayjs().startOf('month').format('YYYY-MM-DD'));

    // The reload: the same address in a fresh app.
    cleanup();
    const reloaded = mockBilling(summary);
    renderApp(`/billing?start=2026-01-01&end=2026-03-31&distributor=${ouestId}`);
    await screen.findByTestId('billing-total');
    expect(reloaded.callsTo('POST', '/api/billing/summary')[0]?.body).toEqual({
      period: { start: '2026-01-01', end: '2026-03-31' },
      distributorId: ouestId,
    });
    await waitFor(() =>
      expect((screen.getByTestId('billing-distributor') as HTMLInputElement).value).toBe(
        'Ouest Hygiène',
      ),
    );
  });

  it('filters by distributor on Apply, and shows an empty state when nothing is billed', async () => {
    const api = mockBilling({ billedStores: {}, distributors: [], total: 0 });
    const { user } = renderApp('/billing');

    expect(await screen.findByTestId('billing-empty')).toBeTruthy();
    expect(screen.getByTestId('billing-total').textContent).toBe('€0.00');

    await user.click(screen.getByTestId('billing-distributor'));
    await user.click(await screen.findByRole('option', { name: 'Ouest Hygiène' }));
    await user.click(screen.getByTestId('billing-apply'));
    await waitFor(() => expect(api.callsTo('POST', '/api/billing/summary')).toHaveLength(2));
    expect(api.callsTo('POST', '/api/billing/summary')[1]?.body).toMatchObject({
      distributorId: ouestId,
    });
  });
});
