import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '../../app/query-client';
import { buildUser } from '../../test/factories';
import { mockApi } from '../../test/mock-api';
import { renderApp } from '../../test/render-app';
import { bootstrapElementId, seedBootstrapData } from './bootstrap';

/** The element as the server writes it (platform/web-app.ts, `<` escaped as \u003c). */
function addBootstrapElement(data: unknown) {
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = bootstrapElementId;
  element.textContent = JSON.stringify(data).replace(/</g, '\\u003c');
  document.head.append(element);
}

describe("the page's bootstrap data", () => {
  afterEach(() => document.getElementById(bootstrapElementId)?.remove());

  it('renders the signed-in layout and the demo banner without asking /api/me or /api/demo', async () => {
    const user = buildUser({ role: 'admin', name: '</script>Nora' });
    addBootstrapElement({ me: { user }, demo: { hasDemoAccounts: true } });
    const api = mockApi({ 'GET /api/home/best-stores': { body: { items: [] } } });
    const queryClient = createQueryClient();

    expect(seedBootstrapData(queryClient, { withUser: true })).toBe(true);
    renderApp('/home', queryClient);

    expect((await screen.findByTestId('page-title')).textContent).toBe('Welcome, </script>Nora');
    expect(screen.getByTestId('navigation-panel')).toBeTruthy();
    expect(screen.getByTestId('demo-banner')).toBeTruthy();
    expect(document.getElementById(bootstrapElementId)).toBeNull();
    const paths = api.calls.map((call) => call.path);
    expect(paths).not.toContain('/api/me');
    expect(paths).not.toContain('/api/demo');
  });

  it('leaves the user to GET /api/me without the element, or while a login token is pending', async () => {
    const queryClient = createQueryClient();
    expect(seedBootstrapData(queryClient, { withUser: true })).toBe(false);

    addBootstrapElement({
      me: { user: buildUser({ role: 'admin' }) },
      demo: { hasDemoAccounts: false },
    });
    expect(seedBootstrapData(queryClient, { withUser: false })).toBe(false);
    expect(queryClient.getQueryData(['me'])).toBeUndefined();
    expect(queryClient.getQueryData(['demo-status'])).toEqual({ hasDemoAccounts: false });
  });
});
