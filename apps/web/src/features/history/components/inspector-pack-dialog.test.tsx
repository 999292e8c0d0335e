import type { InspectorPack } from '@mise/shared/records/pack';
import { screen, waitFor, within } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildId } from '../../../test/factories';
import { mockApi } from '../../../test/mock-api';
import { renderWithProviders } from '../../../test/render-app';
import { InspectorPackDialog } from './inspector-pack-dialog';

/** A Sunday in March: the default period is February (28 days). */
const now = new Date('2026-03-15T10:00:00.000Z');
const store = { id: buildId(), name: 'Bistro Opéra', timezone_name: 'Europe/Paris' };
const packsPath = `/api/stores/${store.id}/inspector-packs`;

function buildPack(overrides: Partial<InspectorPack> = {}): InspectorPack {
  return {
    id: buildId(),
    store_id: store.id,
    period_start: '2026-02-01',
    period_end: '2026-02-28',
    status: 'queued',
    progress: 0,
    file_size: null,
    error: null,
    created_at: '2026-03-15T10:00:00.000Z',
    finished_at: null,
    created_by: { name: 'Camille Client', email: 'customer@demo.test' },
    manifest: null,
    download_url: null,
    ...overrides,
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('inspector pack dialog', () => {
  it('builds the pack of last month, follows its progress, then offers the ZIP', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now });
    const january = buildPack({
      period_start: '2026-01-01',
      period_end: '2026-01-31',
      status: 'done',
      progress: 100,
      file_size: 1.5 * 1024 * 1024,
      created_at: '2026-02-02T08:30:00.000Z',
      download_url: `${packsPath}/january/download`,
    });
    const pack = buildPack();
    const reads: InspectorPack[] = [
      { ...pack, status: 'running', progress: 40 },
      { ...pack, status: 'done', progress: 100, download_url: `${packsPath}/${pack.id}/download` },
    ];
    const api = mockApi({
      [`GET ${packsPath}`]: { body: { items: [january] } },
      [`POST ${packsPath}`]: { status: 201, body: { pack } },
      [`GET ${packsPath}/${pack.id}`]: () => ({ body: { pack: reads.shift() ?? reads[0] } }),
    });
    const { user } = renderWithProviders(
      <InspectorPackDialog
        opened
        onClose={() => {}}
        store={store}
        shownRange={{ start: '2026-03-09', end: '2026-03-15' }}
      />,
    );

    const dialog = await screen.findByRole('dialog', { name: 'Inspector pack' });
    // The store's earlier pack, with its period, date and size, ready to download.
    const item = await within(dialog).findByTestId('inspector-pack-item');
    expect(item.textContent).toContain('01/01/2026 – 31/01/2026');
    expect(item.textContent).toContain('Built on 02/02/2026 09:30 · 1.5 MB');
    expect(within(item).getByRole('link').getAttribute('href')).toBe(january.download_url);

    // Last calendar month by default.
    expect(within(dialog).getByTestId('inspector-pack-range').textContent).toContain(
      '01/02/2026 – 28/02/2026',
    );
    await user.click(within(dialog).getByTestId('inspector-pack-build'));
    await waitFor(() => expect(api.callsTo('POST', packsPath)).toHaveLength(1));
    expect(api.callsTo('POST', packsPath)[0]!.body).toEqual({
      period_start: '2026-02-01',
      period_end: '2026-02-28',
    });

    const progress = await within(dialog).findByRole('progressbar', {
      name: 'Build progress of the inspector pack',
    });
    expect(progress.getAttribute('aria-valuenow')).toBe('40');
    expect(within(dialog).getByText('Building… 40%')).toBeTruthy();
    expect(within(dialog).getByTestId('inspector-pack-build').hasAttribute('disabled')).toBe(true);

    const results = await axe.run(dialog, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      rules: { 'color-contrast': { enabled: false } },
    });
    expect(results.violations.map((violation) => violation.id)).toEqual([]);

    // Asked again while it builds: done, the ZIP is offered.
    const download = await within(dialog).findByTestId(
      'inspector-pack-download',
      {},
      { timeout: 5000 },
    );
    expect(download.getAttribute('href')).toBe(`${packsPath}/${pack.id}/download`);
    expect(download.hasAttribute('download')).toBe(true);
    expect(within(dialog).getByText('The pack is ready.')).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
    // The list is asked again once the pack is finished.
    await waitFor(() => expect(api.callsTo('GET', packsPath).length).toBeGreaterThanOrEqual(2));
  });

  it('takes the period on screen, and says when a build failed', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now });
    const pack = buildPack({ period_start: '2026-03-09', period_end: '2026-03-15' });
    const api = mockApi({
      [`GET ${packsPath}`]: { body: { items: [] } },
      [`POST ${packsPath}`]: { status: 201, body: { pack } },
      [`GET ${packsPath}/${pack.id}`]: {
        body: { pack: { ...pack, status: 'failed', error: 'inspector-pack/build-failed' } },
      },
    });
    const { user } = renderWithProviders(
      <InspectorPackDialog
        opened
        onClose={() => {}}
        store={store}
        shownRange={{ start: '2026-03-09', end: '2026-03-15' }}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Inspector pack' });
    expect(await within(dialog).findByText('No pack built for this store yet.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Period shown' }));
    await user.click(within(dialog).getByTestId('inspector-pack-build'));
    await waitFor(() =>
      expect(api.callsTo('POST', packsPath)[0]?.body).toEqual({
        period_start: '2026-03-09',
        period_end: '2026-03-15',
      }),
    );
    expect((await within(dialog).findByTestId('inspector-pack-failed')).textContent).toBe(
      'The pack could not be built. Please build it again.',
    );
    // A failed build can be asked for again.
    expect(within(dialog).getByTestId('inspector-pack-build').hasAttribute('disabled')).toBe(false);
  });
});
