import { screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { buildId } from '../../../test/factories';
import { mockApi } from '../../../test/mock-api';
import { renderWithProviders } from '../../../test/render-app';
import { buildProbe } from '../test/build-probe';
import { StoreProbeList } from './store-probe-list';

const now = new Date('2026-11-24T12:00:00.000Z');
const storeId = buildId();
const fridge = buildProbe({
  name: 'Chambre froide',
  storeId,
  lastTemperature: 3.24,
  lastTemperatureTimestamp: '2026-11-24T11:30:00.000Z',
});
const freezer = buildProbe({
  name: 'Congélateur',
  storeId,
  lastTemperature: null,
  lastTemperatureTimestamp: null,
  working: false,
});

function renderList(canOpenProbe: boolean) {
  vi.useFakeTimers({ toFake: ['Date'], now });
  mockApi({ [`GET /api/probes/store/${storeId}`]: { body: { items: [fridge, freezer] } } });
  return renderWithProviders(
    <MemoryRouter>
      <StoreProbeList storeId={storeId} canOpenProbe={canOpenProbe} />
    </MemoryRouter>,
  );
}

describe('store probe list', () => {
  it('lists the probes with their last temperature and working badge, linked for admins', async () => {
    renderList(true);
    const rows = await screen.findAllByTestId('store-probe');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByTestId('probe-last-temperature').textContent).toContain('3.2 °C');
    expect(within(rows[0]!).getByTestId('probe-working').textContent).toBe('Working');
    expect(within(rows[1]!).getByTestId('probe-last-temperature').textContent).toBe('No data');
    expect(within(rows[1]!).getByTestId('probe-working').textContent).toBe('Not working');
    expect(
      within(rows[0]!).getByRole('link', { name: 'Chambre froide' }).getAttribute('href'),
    ).toBe(`/probe?id=${fridge.id}`);
  });

  it('shows the names without links to those who may not open the probes screens', async () => {
    renderList(false);
    const rows = await screen.findAllByTestId('store-probe');
    expect(within(rows[0]!).getByText('Chambre froide')).toBeTruthy();
    expect(screen.queryAllByRole('link')).toHaveLength(0);
  });
});
