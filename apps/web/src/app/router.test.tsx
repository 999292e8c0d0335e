import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../shared/i18n/i18n';
import { buildUser } from '../test/factories';
import { apiError, mockApi } from '../test/mock-api';
import { renderApp } from '../test/render-app';

// The support screen crashes while rendering (as a screen with a bug would).
vi.mock('../features/support/pages/support-page', () => ({
  SupportPage: () => {
    throw new Error('The support screen crashed');
  },
}));

describe('router', () => {
  it('shows a not-found page for an unknown address, with the navigation, and keeps the address', async () => {
    mockApi({ 'GET /api/me': { body: { user: buildUser({ role: 'manager' }) } } });
    const { router, user } = renderApp('/no-such-page?x=1');

    expect((await screen.findByTestId('page-title')).textContent).toBe('Page not found');
    expect(screen.getByTestId('not-found').textContent).toContain(
      'No page has the address /no-such-page.',
    );
    expect(router.state.location.pathname).toBe('/no-such-page');
    expect(screen.getByTestId('navigation-panel')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Page not found · Mise'));

    await user.click(within(screen.getByTestId('not-found')).getByRole('link'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
  });

  it('sends a signed-out visitor of an unknown address to the login screen', async () => {
    mockApi({ 'GET /api/me': apiError(401, 'auth/unauthenticated') });
    const { router } = renderApp('/no-such-page');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('shows a crashed screen inside the layout: header and navigation stay and lead on', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockApi({ 'GET /api/me': { body: { user: buildUser({ role: 'admin', name: 'Nora' }) } } });
    const { router, user } = renderApp('/support');

    expect((await screen.findByTestId('route-error')).textContent).toContain(
      'This page could not be displayed.',
    );
    expect(screen.getByTestId('navigation-panel')).toBeTruthy();
    expect(screen.getByTestId('logout')).toBeTruthy();

    await user.click(screen.getByTestId('nav-home'));
    expect((await screen.findByTestId('page-title')).textContent).toBe('Welcome, Nora');
    expect(screen.queryByTestId('route-error')).toBeNull();
    expect(router.state.location.pathname).toBe('/home');
  });

  it('shows the no-permission page to a non-admin opening /billing, without asking the API', async () => {
    const api = mockApi({ 'GET /api/me': { body: { user: buildUser({ role: 'distributor' }) } } });
    renderApp('/billing');

    expect((await screen.findByTestId('page-title')).textContent).toBe('No permission');
    expect(screen.getByTestId('no-permission').textContent).toContain(
      'Your account cannot open this page.',
    );
    expect(screen.getByTestId('navigation-panel')).toBeTruthy();
    expect(screen.queryByTestId('route-error')).toBeNull();
    expect(api.calls.filter((call) => call.path.startsWith('/api/billing'))).toEqual([]);
    await waitFor(() => expect(document.title).toBe('Billing · Mise'));
  });

  it('opens /billing for an admin', async () => {
    const api = mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
      'GET /api/distributors': { body: { items: [] } },
    });
    renderApp('/billing');

    await waitFor(() =>
      expect(api.calls.some((call) => call.path.startsWith('/api/billing'))).toBe(true),
    );
    expect(screen.queryByTestId('no-permission')).toBeNull();
  });

  it('shows the no-permission page to a customer opening a database screen, with no form', async () => {
    const api = mockApi({ 'GET /api/me': { body: { user: buildUser({ role: 'customer' }) } } });
    renderApp('/database?id=database-1');

    expect((await screen.findByTestId('no-permission')).textContent).toContain(
      'Your account cannot open this page.',
    );
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(api.calls.filter((call) => call.path.startsWith('/api/databases'))).toEqual([]);
  });

  it('opens a database screen for a manager', async () => {
    const api = mockApi({ 'GET /api/me': { body: { user: buildUser({ role: 'manager' }) } } });
    renderApp('/database?id=database-1');

    await waitFor(() =>
      expect(api.callsTo('GET', '/api/databases/database-1').length).toBeGreaterThan(0),
    );
    expect(screen.queryByTestId('no-permission')).toBeNull();
  });

  it('names the tab after the screen, in the chosen language', async () => {
    mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
      'GET /api/stores': { body: { items: [], total: 0 } },
    });
    const { user } = renderApp('/home');
    await waitFor(() => expect(document.title).toBe('Home · Mise'));

    await user.click(await screen.findByTestId('nav-stores'));
    await waitFor(() => expect(document.title).toBe('Stores · Mise'));

    await changeLanguage('fr');
    await waitFor(() => expect(document.title).toBe('Établissements · Mise'));
  });

  it("asks for the home's data once the user is known, before the home screen renders", async () => {
    const titleShownAtRequest: boolean[] = [];
    mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'admin', name: 'Nora' }) } },
      'GET /api/home/best-stores': () => {
        titleShownAtRequest.push(screen.queryByTestId('page-title') !== null);
        return { body: { items: [] } };
      },
    });
    renderApp('/home');

    expect((await screen.findByTestId('page-title')).textContent).toBe('Welcome, Nora');
    await waitFor(() => expect(titleShownAtRequest).toEqual([false]));
  });

  it('offers a skip link to the main content and one h1', async () => {
    mockApi({ 'GET /api/me': { body: { user: buildUser({ role: 'admin', name: 'Nora' }) } } });
    renderApp('/home');

    expect((await screen.findByTestId('page-title')).textContent).toBe('Welcome, Nora');
    const skipLink = screen.getByTestId('skip-link');
    expect(skipLink.getAttribute('href')).toBe('#main-content');
    expect(skipLink.textContent).toBe('Skip to main content');
    expect(document.getElementById('main-content')?.tagName).toBe('MAIN');
    expect(document.querySelectorAll('h1')).toHaveLength(1);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Welcome, Nora');
  });
});
