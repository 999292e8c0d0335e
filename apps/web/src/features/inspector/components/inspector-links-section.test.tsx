import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildId } from '../../../test/factories';
import { mockApi } from '../../../test/mock-api';
import { renderWithProviders } from '../../../test/render-app';
import { buildInspectorLink } from '../test/build-inspection';
import { StoreInspectorLinks } from './inspector-links-section';

const storeId = buildId();
const listPath = `/api/stores/${storeId}/inspector-links`;
const secretUrl = 'http://mise.test/inspect#Qk3m2Yx0_secret-token-of-forty-three-chars';

afterEach(() => vi.useRealTimers());

function renderSection() {
  // Tuesday 24 November 2026: the default period is the week before, 16 to 22 November.
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-24T12:00:00.000Z') });
  const active = buildInspectorLink({ store_id: storeId, label: 'Contrôle DDPP' });
  const revoked = buildInspectorLink({
    store_id: storeId,
    label: '',
    status: 'revoked',
    revoked_at: '2026-11-23T09:30:00.000Z',
    revoked_by: { name: 'Denis Distributeur', email: 'distributor@demo.test' },
    last_used_at: '2026-11-23T09:00:00.000Z',
    use_count: 3,
  });
  let items = [active, revoked];
  const api = mockApi({
    [`GET ${listPath}`]: () => ({ body: { items } }),
    [`POST ${listPath}`]: (call) => {
      const link = buildInspectorLink({
        store_id: storeId,
        ...(call.body as { label: string; period_start: string; period_end: string }),
      });
      items = [link, ...items];
      return { status: 201, body: { link, url: secretUrl } };
    },
    [`DELETE ${listPath}/${active.id}`]: () => {
      const link = { ...active, status: 'revoked' as const, revoked_at: '2026-11-24T12:00:00Z' };
      items = items.map((item) => (item.id === active.id ? link : item));
      return { body: { link } };
    },
  });
  return {
    ...renderWithProviders(<StoreInspectorLinks storeId={storeId} timeZone="Europe/Paris" />),
    api,
    active,
  };
}

describe('store inspector links', () => {
  it('lists the links with their period, status, revocation and uses, on the store clock', async () => {
    renderSection();
    const rows = await screen.findAllByTestId('inspector-link');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByTestId('inspector-link-status').textContent).toBe('Active');
    expect(rows[0]!.textContent).toContain('Period: 16/11/2026 – 22/11/2026');
    expect(rows[0]!.textContent).toContain('Expires on 01/12/2026 10:00');
    expect(within(rows[0]!).getByTestId('inspector-link-uses').textContent).toBe('Never opened');
    expect(within(rows[1]!).getByTestId('inspector-link-status').textContent).toBe('Revoked');
    expect(rows[1]!.textContent).toContain('Revoked on 23/11/2026 10:30 by Denis Distributeur');
    expect(within(rows[1]!).getByTestId('inspector-link-uses').textContent).toBe(
      'Opened 3 times, last on 23/11/2026 10:00',
    );
    // Only an active link can be revoked.
    expect(within(rows[1]!).queryByTestId('inspector-link-revoke')).toBeNull();
  });

  it('creates a link for last week and shows its URL once, with a copy button', async () => {
    const { user, api } = renderSection();
    await screen.findAllByTestId('inspector-link');
    await user.click(screen.getByTestId('inspector-link-new'));
    const dialog = await screen.findByTestId('inspector-link-dialog');
    await user.type(within(dialog).getByLabelText('Label'), 'Visite sanitaire');
    await user.click(screen.getByTestId('inspector-link-submit'));

    const created = await screen.findByTestId('inspector-link-created');
    expect(api.callsTo('POST', listPath)[0]!.body).toEqual({
      label: 'Visite sanitaire',
      period_start: '2026-11-16',
      period_end: '2026-11-22',
      expires_in_days: 7,
    });
    expect(within(created).getByTestId<HTMLInputElement>('inspector-link-url').value).toBe(
      secretUrl,
    );
    expect(created.textContent).toContain('it is shown only this once');
    expect(within(created).getByTestId('inspector-link-copy').textContent).toBe('Copy the link');
    await user.click(within(created).getByTestId('inspector-link-done'));
    await waitFor(() => expect(screen.queryByTestId('inspector-link-created')).toBeNull());
    // The list is read again and the URL is gone for good.
    await waitFor(() => expect(screen.getAllByTestId('inspector-link')).toHaveLength(3));
    expect(document.body.textContent).not.toContain('secret-token');
  });

  it('refuses a period beyond 31 days before asking the server', async () => {
    const { user, api } = renderSection();
    await screen.findAllByTestId('inspector-link');
    await user.click(screen.getByTestId('inspector-link-new'));
    const dialog = await screen.findByTestId('inspector-link-dialog');
    // The range picker (opened on November): 1 October, then 5 November (36 days).
    const direction = (name: 'previous' | 'next') => {
      const control = document.querySelector(`[data-direction="${name}"]`);
      if (!control) throw new Error(`no ${name} control`);
      return control;
    };
    await user.click(within(dialog).getByTestId('inspector-link-period'));
    await user.click(direction('previous'));
    await user.click(await screen.findByRole('button', { name: '1 October 2026' }));
    await user.click(direction('next'));
    await user.click(await screen.findByRole('button', { name: '5 November 2026' }));
    await user.click(screen.getByTestId('inspector-link-submit'));
    expect((await screen.findByTestId('inspector-link-error')).textContent).toBe(
      'The date range is too long.',
    );
    expect(api.callsTo('POST', listPath)).toHaveLength(0);
  });

  it('revokes an active link after confirmation', async () => {
    const { user, api, active } = renderSection();
    const rows = await screen.findAllByTestId('inspector-link');
    await user.click(within(rows[0]!).getByTestId('inspector-link-revoke'));
    expect(await screen.findByText('Revoke this inspector link?')).toBeTruthy();
    await user.click(screen.getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(api.callsTo('DELETE', `${listPath}/${active.id}`)).toHaveLength(1));
    await waitFor(() =>
      expect(
        within(screen.getAllByTestId('inspector-link')[0]!).getByTestId('inspector-link-status')
          .textContent,
      ).toBe('Revoked'),
    );
  });

  it('shows nothing to a viewer the server refuses (a manager without store access)', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-24T12:00:00.000Z') });
    const api = mockApi({
      [`GET ${listPath}`]: {
        status: 403,
        body: { error: { code: 'permission/denied', message: 'denied' } },
      },
    });
    const { container } = renderWithProviders(
      <StoreInspectorLinks storeId={storeId} timeZone="Europe/Paris" />,
    );
    await waitFor(() => expect(api.callsTo('GET', listPath)).toHaveLength(1));
    expect(container.querySelector('[data-testid="inspector-links"]')).toBeNull();
  });
});
