import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { changeLanguage } from '../../../shared/i18n/i18n';
import { updateAppSession } from '../../../shared/session/app-session';
import { buildUser } from '../../../test/factories';
import { apiError, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';

const signedOut = { 'GET /api/me': apiError(401, 'auth/unauthenticated') };

describe('login screen', () => {
  it('signs in with a lowercased e-mail on Enter and lands on home', async () => {
    const me = buildUser({ role: 'manager' });
    const api = mockApi({
      ...signedOut,
      'POST /api/auth/login': { body: { user: me } },
    });
    const { user, router } = renderApp('/login');

    await user.type(await screen.findByTestId('login-email'), '  Camille.Martin@Example.com ');
    await user.type(screen.getByTestId('login-password'), 'secret-pass1{Enter}');

    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    const [login] = api.callsTo('POST', '/api/auth/login');
    expect(login?.body).toEqual({ email: 'camille.martin@example.com', password: 'secret-pass1' });
    expect(login?.headers.get('x-csrf-token')).toBe('csrf-1');
  });

  it('accepts the invitation of an invitation link by signing in (issue 13)', async () => {
    updateAppSession({ invitationToken: 'invitation-token-1' });
    const api = mockApi({
      ...signedOut,
      'POST /api/auth/login': { body: { user: buildUser({ role: 'customer' }) } },
    });
    const { user, router } = renderApp('/login');

    await user.type(await screen.findByTestId('login-email'), 'owner@example.test');
    await user.type(screen.getByTestId('login-password'), 'secret-pass1{Enter}');

    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(api.callsTo('POST', '/api/auth/login')[0]?.body).toEqual({
      email: 'owner@example.test',
      password: 'secret-pass1',
      invitation: 'invitation-token-1',
    });
  });

  it('shows the spec message in red for wrong credentials (French)', async () => {
    await changeLanguage('fr');
    mockApi({
      ...signedOut,
      'POST /api/auth/login': apiError(401, 'auth/invalid-credentials', 'server text'),
    });
    const { user } = renderApp('/login');

    await user.type(await screen.findByTestId('login-email'), 'a@b.fr');
    await user.type(screen.getByTestId('login-password'), 'wrong');
    await user.click(screen.getByTestId('login-submit'));

    expect((await screen.findByTestId('login-error')).textContent).toBe(
      'Adresse email ou mot de passe incorrect.',
    );
  });

  it('sends a user who must renew the password to changePassword', async () => {
    const me = buildUser({ new_password_required: true });
    mockApi({ ...signedOut, 'POST /api/auth/login': { body: { user: me } } });
    const { user, router } = renderApp('/login');

    await user.type(await screen.findByTestId('login-email'), 'a@b.fr');
    await user.type(screen.getByTestId('login-password'), 'whatever1');
    await user.click(screen.getByTestId('login-submit'));

    expect(await screen.findByTestId('change-password')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/changePassword');
  });

  it('goes to the initial page after login when one was passed', async () => {
    updateAppSession({ initialPage: '/punchCards' });
    mockApi({ ...signedOut, 'POST /api/auth/login': { body: { user: buildUser() } } });
    const { user, router } = renderApp('/login');

    await user.type(await screen.findByTestId('login-email'), 'a@b.fr');
    await user.type(screen.getByTestId('login-password'), 'whatever1{Enter}');

    await waitFor(() => expect(router.state.location.pathname).toBe('/punchCards'));
  });
});

describe('registration', () => {
  async function openRegistration() {
    const rendered = renderApp('/login');
    await rendered.user.click(await screen.findByTestId('link-register'));
    return rendered;
  }

  it('checks legal terms, then matching passwords, then empty fields, in that order', async () => {
    const api = mockApi(signedOut);
    const { user } = await openRegistration();
    const submit = () => user.click(screen.getByTestId('register-submit'));
    const error = () => screen.getByTestId('register-error').textContent;

    // Everything wrong at once: the terms come first.
    await user.type(screen.getByTestId('register-password'), 'one');
    await user.type(screen.getByTestId('register-confirmation'), 'two');
    await submit();
    expect(error()).toBe('Please accept legal terms');

    await user.click(screen.getByTestId('register-terms'));
    await submit();
    expect(error()).toBe('Passwords do not match');

    await user.clear(screen.getByTestId('register-confirmation'));
    await user.type(screen.getByTestId('register-confirmation'), 'one');
    await submit();
    expect(error()).toBe('Please fill all fields.');

    expect(api.callsTo('POST', '/api/auth/signup')).toHaveLength(0);
  });

  it('registers with a lowercased e-mail, signs in with the returned token and lands on home', async () => {
    const me = buildUser({ role: 'customer' });
    const api = mockApi({
      ...signedOut,
      'POST /api/auth/signup': { body: { status: 'ok', token: 'login-token-1' } },
      'POST /api/auth': { body: { status: 'ok', user: me } },
    });
    const { user, router } = await openRegistration();

    await user.type(screen.getByTestId('register-name'), 'Léa');
    await user.type(screen.getByTestId('register-surname'), 'Petit');
    await user.type(screen.getByTestId('register-email'), 'Lea.Petit@Example.COM');
    await user.type(screen.getByTestId('register-phone'), '0601020304');
    await user.type(screen.getByTestId('register-password'), 'long-enough-1');
    await user.type(screen.getByTestId('register-confirmation'), 'long-enough-1');
    await user.click(screen.getByTestId('register-terms'));
    await user.click(screen.getByTestId('register-submit'));

    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(api.callsTo('POST', '/api/auth/signup')[0]?.body).toEqual({
      name: 'Léa',
      surname: 'Petit',
      email: 'lea.petit@example.com',
      phone: '0601020304',
      password: 'long-enough-1',
    });
    expect(api.callsTo('POST', '/api/auth')[0]?.body).toEqual({ token: 'login-token-1' });
  });

  it('shows a refused signup as the message under the form', async () => {
    mockApi({
      ...signedOut,
      'POST /api/auth/signup': apiError(409, 'auth/email-already-in-use'),
    });
    const { user } = await openRegistration();

    for (const [field, value] of [
      ['name', 'Léa'],
      ['surname', 'Petit'],
      ['email', 'lea@example.com'],
      ['phone', '0601020304'],
      ['password', 'long-enough-1'],
      ['confirmation', 'long-enough-1'],
    ]) {
      await user.type(screen.getByTestId(`register-${field}`), value as string);
    }
    await user.click(screen.getByTestId('register-terms'));
    await user.click(screen.getByTestId('register-submit'));

    await waitFor(() =>
      expect(screen.getByTestId('register-error').textContent).toBe(
        'An account already exists for this e-mail address.',
      ),
    );
  });

  it('opens on registration, e-mail prefilled, when the initial e-mail has no account', async () => {
    updateAppSession({ initialEmail: 'new.owner@example.com' });
    const api = mockApi({
      ...signedOut,
      'GET /api/auth/email-exists': { body: { exists: false } },
    });
    renderApp('/login');

    const email = await screen.findByTestId('register-email');
    expect((email as HTMLInputElement).value).toBe('new.owner@example.com');
    expect(api.callsTo('GET', '/api/auth/email-exists')[0]?.query.get('email')).toBe(
      'new.owner@example.com',
    );
  });

  it('stays on login when the e-mail check fails', async () => {
    updateAppSession({ initialEmail: 'someone@example.com' });
    mockApi({ ...signedOut, 'GET /api/auth/email-exists': apiError(500, 'internal') });
    renderApp('/login');

    const email = await screen.findByTestId('login-email');
    expect((email as HTMLInputElement).value).toBe('someone@example.com');
    expect(screen.queryByTestId('register-email')).toBeNull();
  });
});

describe('lost password', () => {
  it('confirms the recovery mail in an information dialog', async () => {
    const api = mockApi({
      ...signedOut,
      'POST /api/auth/password/forgot': { body: { status: 'ok' } },
    });
    const { user } = renderApp('/login');

    await user.click(await screen.findByTestId('link-lost-password'));
    await user.type(screen.getByTestId('lost-email'), 'Owner@Example.com');
    await user.click(screen.getByTestId('lost-submit'));

    expect((await screen.findByTestId('lost-result')).textContent).toBe(
      'A recovery mail was sent to the specified email address.',
    );
    expect(api.callsTo('POST', '/api/auth/password/forgot')[0]?.body).toEqual({
      email: 'owner@example.com',
    });
  });

  it('explains a failure in the dialog', async () => {
    mockApi({
      ...signedOut,
      'POST /api/auth/password/forgot': apiError(400, 'auth/invalid-email'),
    });
    const { user } = renderApp('/login');

    await user.click(await screen.findByTestId('link-lost-password'));
    await user.type(screen.getByTestId('lost-email'), 'not-an-address');
    await user.click(screen.getByTestId('lost-submit'));

    expect((await screen.findByTestId('lost-result')).textContent).toBe(
      'Unable to send a recovery message. Please specify a valid mail address.',
    );
  });
});
