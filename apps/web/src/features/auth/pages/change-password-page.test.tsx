import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../../shared/i18n/i18n';
import { buildUser } from '../../../test/factories';
import { apiError, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';
import { staleLoginLogoutDelayMs } from './change-password-page';

describe('forced password change', () => {
  it('asks for the current password before anything is sent', async () => {
    await changeLanguage('en');
    const api = mockApi({
      'GET /api/me': { body: { user: buildUser({ new_password_required: true }) } },
    });
    const { user } = renderApp('/changePassword');

    await user.type(await screen.findByTestId('change-password'), 'a-new-password-1');
    await user.type(screen.getByTestId('change-confirmation'), 'a-new-password-1');
    await user.click(screen.getByTestId('change-submit'));
    expect(screen.getByTestId('change-error').textContent).toBe(
      'Please enter a value for the password.',
    );
    expect(api.callsTo('POST', '/api/auth/password/change')).toHaveLength(0);
  });

  it('shows the server refusal of a wrong current password', async () => {
    await changeLanguage('en');
    mockApi({
      'GET /api/me': { body: { user: buildUser({ new_password_required: true }) } },
      'POST /api/auth/password/change': apiError(400, 'auth/wrong-current-password'),
    });
    const { user } = renderApp('/changePassword');

    await user.type(await screen.findByTestId('change-current-password'), 'not-my-password');
    await user.type(screen.getByTestId('change-password'), 'a-new-password-1');
    await user.type(screen.getByTestId('change-confirmation'), 'a-new-password-1');
    await user.click(screen.getByTestId('change-submit'));
    await waitFor(() =>
      expect(screen.getByTestId('change-error').textContent).toBe(
        'The current password is not correct.',
      ),
    );
  });

  it('checks for a value, then equality, with the spec French messages', async () => {
    await changeLanguage('fr');
    const api = mockApi({
      'GET /api/me': { body: { user: buildUser({ new_password_required: true }) } },
    });
    const { user } = renderApp('/home');

    // The guard sends a user who must renew the password here first.
    await user.type(await screen.findByTestId('change-password'), '   ');
    await user.click(screen.getByTestId('change-submit'));
    expect(screen.getByTestId('change-error').textContent).toBe(
      'Veuillez renseigner une valeur pour le mot de passe.',
    );

    await user.type(screen.getByTestId('change-current-password'), 'current-password-1');
    await user.clear(screen.getByTestId('change-password'));
    await user.type(screen.getByTestId('change-password'), 'first-choice-1');
    await user.type(screen.getByTestId('change-confirmation'), 'second-choice-1');
    await user.click(screen.getByTestId('change-submit'));
    expect(screen.getByTestId('change-error').textContent).toBe(
      'Les deux mot de passes ne correspondent pas.',
    );
    expect(api.callsTo('POST', '/api/auth/password/change')).toHaveLength(0);
  });

  it('changes the password and goes home', async () => {
    const me = buildUser({ new_password_required: true });
    const api = mockApi({
      'GET /api/me': { body: { user: me } },
      'POST /api/auth/password/change': {
        body: { status: 'ok', user: { ...me, new_password_required: false } },
      },
    });
    const { user, router } = renderApp('/changePassword');

    await user.type(await screen.findByTestId('change-current-password'), 'the-old-password-1');
    await user.type(screen.getByTestId('change-password'), 'a-new-password-1');
    await user.type(screen.getByTestId('change-confirmation'), 'a-new-password-1');
    await user.click(screen.getByTestId('change-submit'));

    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(await screen.findByTestId('navigation-panel')).toBeTruthy();
    expect(api.callsTo('POST', '/api/auth/password/change')[0]?.body).toEqual({
      current_password: 'the-old-password-1',
      password: 'a-new-password-1',
      confirmation: 'a-new-password-1',
    });
  });

  it('shows the weak-password message from the server', async () => {
    await changeLanguage('fr');
    mockApi({
      'GET /api/me': { body: { user: buildUser({ new_password_required: true }) } },
      'POST /api/auth/password/change': apiError(400, 'auth/weak-password'),
    });
    const { user } = renderApp('/changePassword');

    await user.type(await screen.findByTestId('change-current-password'), 'the-old-password-1');
    await user.type(screen.getByTestId('change-password'), 'abc');
    await user.type(screen.getByTestId('change-confirmation'), 'abc');
    await user.click(screen.getByTestId('change-submit'));

    await waitFor(() =>
      expect(screen.getByTestId('change-error').textContent).toBe(
        'Votre mot de passe est trop faible. Veuillez choisir un mot de passe plus sécurisé.',
      ),
    );
  });

  it('logs out 5 s after a too-old sign-in', async () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    const api = mockApi({
      'GET /api/me': { body: { user: buildUser({ new_password_required: true }) } },
      'POST /api/auth/password/change': apiError(401, 'auth/requires-recent-login'),
      'POST /api/auth/logout': { body: { status: 'ok' } },
    });
    const { user } = renderApp('/changePassword');
    await user.type(await screen.findByTestId('change-current-password'), 'the-old-password-1');
    await user.type(screen.getByTestId('change-password'), 'a-new-password-1');
    await user.type(screen.getByTestId('change-confirmation'), 'a-new-password-1');

    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(screen.getByTestId('change-submit'));
    await waitFor(() =>
      expect(screen.getByTestId('change-error').textContent).toBe(
        'Too much time has passed since you logged in to change your password. You will be logged out.',
      ),
    );
    expect(api.callsTo('POST', '/api/auth/logout')).toHaveLength(0);

    await act(async () => {
      vi.advanceTimersByTime(staleLoginLogoutDelayMs);
    });
    await waitFor(() => expect(api.callsTo('POST', '/api/auth/logout')).toHaveLength(1));
    await waitFor(() => expect(reload).toHaveBeenCalled());
  });
});
