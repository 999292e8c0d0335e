import type { AllergenTable } from '@mise/shared/catalogue/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { changeLanguage } from '../../../shared/i18n/i18n';
import { buildId, buildUser } from '../../../test/factories';
import { apiError, type MockHandler, mockApi } from '../../../test/mock-api';
import { renderApp } from '../../../test/render-app';

const databaseId = buildId();

const table: AllergenTable = {
  title: 'Bistro Group',
  groups: [
    {
      type_id: buildId(),
      type_name: 'Desserts',
      elements: [
        { key: buildId(), name: 'Crème brûlée', allergens: ['egg', 'milkOrLactose'] },
        { key: buildId(), name: 'Sorbet citron', allergens: [] },
      ],
    },
    {
      type_id: null,
      type_name: null,
      elements: [{ key: buildId(), name: 'Pesto', allergens: ['edibleNuts', 'molluscs'] }],
    },
    {
      type_id: buildId(),
      type_name: 'Boissons',
      elements: [{ key: buildId(), name: 'Eau', allergens: [] }],
    },
  ],
};

function renderAllergens(path: string, handlers: Record<string, MockHandler> = {}) {
  const api = mockApi({
    'GET /api/me': { body: { user: buildUser({ role: 'admin' }) } },
    'GET /api/allergens': { body: table },
    ...handlers,
  });
  return { ...renderApp(path), api };
}

/** The letters whose cell holds a check mark, in column order. */
function checkedLetters(row: HTMLElement): string[] {
  return within(row)
    .getAllByRole('cell')
    .filter((cell) => cell.dataset.carried === 'true')
    .map((cell) => (cell.dataset.testid ?? '').replace('allergen-cell-', ''));
}

describe('allergens page', { timeout: 20_000 }, () => {
  it('groups the elements carrying allergens by type and checks their columns', async () => {
    const { api } = renderAllergens(`/allergens?database=${databaseId}`);

    await waitFor(() => expect(screen.getByTestId('page-title').textContent).toBe('Bistro Group'));
    expect(api.callsTo('GET', '/api/allergens')[0]?.query.get('databaseId')).toBe(databaseId);

    const head = screen.getByTestId('allergen-table').querySelector('thead');
    if (!head) throw new Error('the table has a head');
    const headers = within(head)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers).toEqual([
      'Element',
      ...['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'L', 'M', 'N', 'O', 'P', 'R'],
    ]);

    // Groups with no allergen-carrying element are left out, like such elements.
    expect(screen.getAllByTestId('allergen-group').map((row) => row.textContent)).toEqual([
      'Desserts',
      'Without type',
    ]);
    const rows = screen.getAllByTestId('allergen-row');
    expect(rows.map((row) => within(row).getByTestId('allergen-row-name').textContent)).toEqual([
      'Crème brûlée',
      'Pesto',
    ]);
    const [creme, pesto] = rows;
    if (!creme || !pesto) throw new Error('two rows expected');
    expect(checkedLetters(creme)).toEqual(['C', 'G']);
    expect(checkedLetters(pesto)).toEqual(['H', 'R']);
    expect(within(creme).getAllByRole('img')).toHaveLength(2);
    expect(screen.getByTestId('allergen-legend').textContent).toContain('R');
  });

  it('reads a store and shows the empty state when no element carries allergens', async () => {
    const storeId = buildId();
    const { api } = renderAllergens(`/allergens?store=${storeId}`, {
      'GET /api/allergens': {
        body: {
          title: 'Bistro Opéra',
          groups: [
            {
              type_id: null,
              type_name: null,
              elements: [{ key: 'a', name: 'Eau', allergens: [] }],
            },
          ],
        },
      },
    });

    expect((await screen.findByTestId('empty-state')).textContent).toContain(
      'No element carries allergens.',
    );
    await waitFor(() => expect(screen.getByTestId('page-title').textContent).toBe('Bistro Opéra'));
    expect(api.callsTo('GET', '/api/allergens')[0]?.query.get('storeId')).toBe(storeId);
    expect(api.callsTo('GET', '/api/allergens')[0]?.query.has('databaseId')).toBe(false);
  });

  it('asks for a database or a store without one', async () => {
    const { api } = renderAllergens('/allergens');
    expect((await screen.findByTestId('empty-state')).textContent).toContain(
      'No database or store selected.',
    );
    expect(api.callsTo('GET', '/api/allergens')).toHaveLength(0);
  });

  it('downloads the PDF in the interface language, showing that it is being generated', async () => {
    await changeLanguage('fr');
    let release: () => void = () => undefined;
    const { user, api } = renderAllergens(`/allergens?database=${databaseId}`, {
      'GET /api/pdf/allergens': () =>
        new Promise((resolve) => {
          release = () => resolve({ body: '%PDF-1.7' });
        }),
    });
    const createObjectURL = vi.fn(() => 'blob:allergens');
    const revokeObjectURL = vi.fn();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL }));
    const downloads: { href: string; download: string }[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      downloads.push({ href: this.href, download: this.download });
    });
    onTestFinished(() => click.mockRestore());

    const button = await screen.findByTestId('allergens-pdf');
    expect(button.textContent).toBe('Télécharger le PDF');
    await user.click(button);
    expect((await screen.findByTestId('allergens-pdf-progress')).textContent).toBe(
      'Génération du PDF…',
    );
    const call = api.callsTo('GET', '/api/pdf/allergens')[0];
    expect(call?.query.get('lang')).toBe('fr');
    expect(call?.query.get('databaseId')).toBe(databaseId);

    release();
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(downloads[0]).toEqual({ href: 'blob:allergens', download: 'allergens.pdf' });
    await waitFor(() => expect(screen.queryByTestId('allergens-pdf-progress')).toBeNull());
  });

  it('reports a PDF that could not be generated', async () => {
    const { user } = renderAllergens(`/allergens?database=${databaseId}`, {
      'GET /api/pdf/allergens': apiError(403, 'permission/denied'),
    });
    await user.click(await screen.findByTestId('allergens-pdf'));
    expect(
      await screen.findByText('You do not have permission to execute this action.'),
    ).toBeTruthy();
  });

  it('says why a PDF beyond the row cap is refused', async () => {
    const { user } = renderAllergens(`/allergens?database=${databaseId}`, {
      'GET /api/pdf/allergens': {
        status: 400,
        body: {
          error: {
            code: 'validation/invalid-input',
            message: 'Too many elements for one PDF (2001, at most 2000).',
            issues: [{ path: 'elements', message: 'At most 2000 elements.' }],
          },
        },
      },
    });
    await user.click(await screen.findByTestId('allergens-pdf'));
    expect(await screen.findByText('Too many elements for one PDF (at most 2000).')).toBeTruthy();
  });
});
