import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildId } from '../../../test/factories';
import { mockApi } from '../../../test/mock-api';
import { renderWithProviders } from '../../../test/render-app';
import { StoreRecordsSeal } from './store-records-seal';

const hash = 'a3f1c09be27d4411'.padEnd(64, '0');

describe('store records seal', () => {
  it("shows the latest seal: its day, its entries, the hash's start, when the owners got it", async () => {
    const storeId = buildId();
    mockApi({
      [`GET /api/stores/${storeId}/records-checkpoint`]: {
        body: {
          checkpoint: {
            day: '2026-11-24',
            seq: 1284,
            head_hash: hash,
            created_at: '2026-11-24T23:20:00.000Z',
            published_at: '2026-11-24T23:20:01.000Z',
          },
        },
      },
    });
    renderWithProviders(<StoreRecordsSeal storeId={storeId} />);
    expect((await screen.findByTestId('store-records-seal-day')).textContent).toBe('24/11/2026');
    expect(screen.getByText('Records seal')).toBeTruthy();
    expect(screen.getByTestId('store-records-seal-entries').textContent).toBe('1284');
    expect(screen.getByTestId('store-records-seal-hash').textContent).toBe('a3f1c09be27d4411…');
    expect(screen.getByTestId('store-records-seal-hash').getAttribute('title')).toBe(hash);
    expect(screen.getByTestId('store-records-seal-published').textContent).toMatch(
      /^Sent to the owners on \d{2}\/\d{2}\/2026 \d{2}:\d{2}$/,
    );
  });

  it('says when there is no seal yet', async () => {
    const storeId = buildId();
    mockApi({
      [`GET /api/stores/${storeId}/records-checkpoint`]: { body: { checkpoint: null } },
    });
    renderWithProviders(<StoreRecordsSeal storeId={storeId} />);
    expect((await screen.findByTestId('store-records-seal-none')).textContent).toBe(
      "No seal yet: the first one is made at the end of the store's first day with records.",
    );
  });
});
