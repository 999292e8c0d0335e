import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser } from '../../test/factories';
import { apiError, mockApi } from '../../test/mock-api';
import { renderApp, renderWithProviders } from '../../test/render-app';
import { changeLanguage } from '../i18n/i18n';
import { DemoBanner } from './demo-banner';

describe('DemoBanner', () => {
  it('warns that the data is demo data while demo accounts exist', async () => {
    await changeLanguage('en');
    mockApi({ 'GET /api/demo': { body: { hasDemoAccounts: true } } });
    renderWithProviders(<DemoBanner />);
    const banner = await screen.findByTestId('demo-banner');
    expect(banner.textContent).toContain('Demo data');
    expect(banner.textContent).toContain('demo1234');
  });

  it('shows nothing once the demo accounts are gone', async () => {
    const api = mockApi({ 'GET /api/demo': { body: { hasDemoAccounts: false } } });
    renderWithProviders(<DemoBanner />);
    await waitFor(() => expect(api.callsTo('GET', '/api/demo')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByTestId('demo-banner')).toBeNull();
  });

  it('is in the layout from its first frame: the layout waits for the demo status (no shift)', async () => {
    await changeLanguage('en');
    mockApi({
      'GET /api/me': { body: { user: buildUser() } },
      'GET /api/demo': async () => {
        await new Promise((resolve) => setTimeout(resolve, 150));
        return { body: { hasDemoAccounts: true } };
      },
    });
    renderApp('/home');
    await screen.findByTestId('navigation-panel');
    expect(screen.getByTestId('demo-banner')).toBeTruthy();
  });

  it('does not hold the layout back when the demo status cannot be read', async () => {
    mockApi({
      'GET /api/me': { body: { user: buildUser() } },
      'GET /api/demo': apiError(500, 'internal'),
    });
    renderApp('/home');
    expect(await screen.findByTestId('navigation-panel')).toBeTruthy();
    expect(screen.queryByTestId('demo-banner')).toBeNull();
  });

  it('is shown in the signed-in layout, in the user language', async () => {
    await changeLanguage('fr');
    mockApi({
      'GET /api/me': { body: { user: buildUser() } },
      'GET /api/demo': { body: { hasDemoAccounts: true } },
    });
    renderApp('/home');
    const banner = await screen.findByTestId('demo-banner');
    expect(banner.textContent).toContain('Données de démonstration');
  });
});
