import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildUser } from '../test/factories';
import { mockApi } from '../test/mock-api';
import { renderApp } from '../test/render-app';

// The support screen's chunk cannot be downloaded (as after a deployment or a lost connection).
vi.mock('../features/support/pages/support-page', () => ({
  get SupportPage() {
    throw new TypeError(
      'Failed to fetch dynamically imported module: http://localhost/assets/support-page-3f2a.js',
    );
  },
}));

describe('a screen whose chunk fails to load (spec 002 §8)', () => {
  it('offers to reload instead of a blank page, inside the layout', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    mockApi({ 'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } } });
    const { user } = renderApp('/support');

    const prompt = await screen.findByTestId('chunk-load-error', {}, { timeout: 10_000 });
    expect(prompt.textContent).toContain('This page could not be loaded');
    expect(prompt.textContent).toContain('Reload the page to continue.');
    expect(screen.getByTestId('navigation-panel')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Reload the page' }));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
  });
});
