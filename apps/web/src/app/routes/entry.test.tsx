import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { captureEntryParameters, getAppSession } from '../../shared/session/app-session';
import { buildUser } from '../../test/factories';
import { apiError, mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render-app';

describe('entry rule and root path', () => {
  it('keeps token, page, store_id and email of the first navigation', () => {
    const found = captureEntryParameters({
      pathname: '/home',
      search: '?token=abc&page=punchCards&store_id=s-1&email=owner%40example.com',
    });
    expect(found).toBe(true);
    expect(getAppSession()).toMatchObject({
      sessionToken: 'abc',
      initialPage: '/punchCards',
      customStoreId: 's-1',
      initialEmail: 'owner@example.com',
      isTokenSignInPending: true,
    });
  });

  it('leaves the session alone without those values, and ignores the reset link token', () => {
    expect(captureEntryParameters({ pathname: '/account', search: '?id=42' })).toBe(false);
    expect(captureEntryParameters({ pathname: '/resetPassword', search: '?token=reset' })).toBe(
      false,
    );
    expect(getAppSession().sessionToken).toBeNull();
  });

  it('keeps the invitation token of an owner invitation link with its e-mail', () => {
    captureEntryParameters({
      pathname: '/',
      search: '?email=new%40example.test&invitation=abc123',
    });
    expect(getAppSession()).toMatchObject({
      initialEmail: 'new@example.test',
      invitationToken: 'abc123',
      initialPage: null,
    });
  });

  it('ignores an initial page that is not a route', () => {
    captureEntryParameters({ pathname: '/', search: '?page=nowhere' });
    expect(getAppSession().initialPage).toBeNull();
  });

  it('signs in with the token and goes to the initial page, navigation hidden', async () => {
    captureEntryParameters({ pathname: '/', search: '?token=good&page=punchCards' });
    const api = mockApi({
      'GET /api/me': apiError(401, 'auth/unauthenticated'),
      'POST /api/auth': { body: { status: 'ok', user: buildUser() } },
    });
    const { router } = renderApp('/');

    await waitFor(() => expect(router.state.location.pathname).toBe('/punchCards'));
    expect(await screen.findByTestId('punch-cards-page', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByTestId('navigation-panel')).toBeNull();
    expect(api.callsTo('POST', '/api/auth')[0]?.body).toEqual({ token: 'good' });
    expect(getAppSession().isTokenSignInPending).toBe(false);
  });

  it('shows the token error dialog and the login screen when the token is refused', async () => {
    captureEntryParameters({ pathname: '/', search: '?token=bad' });
    mockApi({
      'GET /api/me': apiError(401, 'auth/unauthenticated'),
      'POST /api/auth': apiError(401, 'auth/invalid-token'),
    });
    const { router, user } = renderApp('/');

    expect((await screen.findByTestId('token-error')).textContent).toBe(
      'Unable to authentificate using Mise token.',
    );
    expect(screen.getByText('Error')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');

    await user.click(screen.getByTestId('token-error-ok'));
    await waitFor(() => expect(screen.queryByTestId('token-error')).toBeNull());
    expect(getAppSession().hasTokenSignInFailed).toBe(false);
  });

  it('sends the root path to home when signed in, to login otherwise', async () => {
    mockApi({
      'GET /api/me': { body: { user: buildUser({ role: 'distributor', name: 'Nora' }) } },
    });
    const signedIn = renderApp('/');
    await waitFor(() => expect(signedIn.router.state.location.pathname).toBe('/home'));
    expect((await screen.findByTestId('page-title')).textContent).toBe('Welcome, Nora');
    signedIn.unmount();

    mockApi({ 'GET /api/me': apiError(401, 'auth/unauthenticated') });
    const signedOut = renderApp('/');
    await waitFor(() => expect(signedOut.router.state.location.pathname).toBe('/login'));
  });
});
