import { allergens } from '@mise/shared/catalogue/constants';
import type { AllergenTable } from '@mise/shared/catalogue/schemas';
import { describe, expect, it } from 'vitest';
import { readPdf } from '../../test/read-pdf';
import { allergenPdfTexts, renderAllergensPdf } from './allergens';

const generatedAt = new Date('2026-11-22T08:30:00Z');

const table: AllergenTable = {
  title: 'Bistro Group',
  groups: [
    {
      type_id: 'type-1',
      type_name: 'Desserts',
      elements: [
        { key: 'e1', name: 'Crème brûlée', allergens: ['egg', 'milkOrLactose'] },
        { key: 'e2', name: 'Tarte aux noix', allergens: ['glutenGrains', 'edibleNuts', 'egg'] },
      ],
    },
    {
      type_id: null,
      type_name: null,
      elements: [{ key: 'e3', name: 'Moules marinières', allergens: ['molluscs'] }],
    },
  ],
};

describe('renderAllergensPdf', () => {
  it('produces a valid A4 landscape PDF', async () => {
    const buffer = await renderAllergensPdf(table, { lang: 'fr', generatedAt });
    expect(buffer.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(buffer.subarray(-6).toString('latin1').trim()).toBe('%%EOF');
    expect(buffer.toString('latin1')).toMatch(/\/MediaBox \[0 0 841\.89 595\.28\]/);
    const pages = await readPdf(buffer);
    expect(pages).toHaveLength(1);
    expect(pages[0]!.view).toEqual([0, 0, 841.89, 595.28]);
  });

  it('shows the title, the 14 allergens in the spec order, groups and elements (French)', async () => {
    const [page] = await readPdf(await renderAllergensPdf(table, { lang: 'fr', generatedAt }));
    const { text, items } = page!;
    expect(text).toContain('Bistro Group — Allergènes');
    const french = [
      'Gluten',
      'Crustacés',
      'Œufs',
      'Poissons',
      'Arachides',
      'Soja',
      'Lait',
      'Fruits à coque',
      'Céleri',
      'Moutarde',
      'Sésame',
      'Sulfites',
      'Lupin',
      'Mollusques',
    ];
    // Header letters left to right, in the spec's order (A B C D E F G H L M N O P R).
    const letters = items
      .filter((item) => /^[A-Z]$/.test(item.text))
      .sort((left, right) => left.x - right.x)
      .map((item) => item.text);
    expect(letters).toEqual(allergens.map((allergen) => allergen.letter));
    // Names may wrap inside their column: compare with the spaces of wrapping removed.
    const compact = text.replace(/\s+/g, '');
    for (const name of french) expect(compact).toContain(name.replace(/\s+/g, ''));
    for (const name of ['Desserts', 'Sans type', 'Crème brûlée', 'Tarte aux noix'])
      expect(text).toContain(name);
    expect(text).toContain('Moules marinières');
    expect(text).toContain('Généré le 22 novembre 2026');
    expect(text).toContain('Page 1 sur 1');
  });

  it('marks each allergen an element carries, in that allergen column', async () => {
    const [page] = await readPdf(await renderAllergensPdf(table, { lang: 'en', generatedAt }));
    const { items } = page!;
    const columnOf = new Map(
      items.filter((item) => /^[A-Z]$/.test(item.text)).map((item) => [item.text, item.x]),
    );
    const rowOf = (name: string) => items.find((item) => item.text === name)!.y;
    const marksOnRow = (name: string) =>
      items
        .filter((item) => item.text === '●' && Math.abs(item.y - rowOf(name)) < 4)
        .map((item) => {
          const [letter] = [...columnOf].sort(
            (left, right) => Math.abs(left[1] - item.x) - Math.abs(right[1] - item.x),
          )[0]!;
          return letter;
        })
        .sort();
    expect(marksOnRow('Crème brûlée')).toEqual(['C', 'G']);
    expect(marksOnRow('Tarte aux noix')).toEqual(['A', 'C', 'H']);
    expect(marksOnRow('Moules marinières')).toEqual(['R']);
    // Six marks in the table, plus the legend's.
    expect(items.filter((item) => item.text.startsWith('●'))).toHaveLength(7);
    expect(page!.text).toContain('Without type');
    expect(page!.text).toContain('Page 1 of 1');
  });

  it('renders Polish and German letters with the embedded font', async () => {
    const [polish] = await readPdf(await renderAllergensPdf(table, { lang: 'pl', generatedAt }));
    const compactPolish = polish!.text.replace(/\s+/g, '');
    for (const name of ['Łubin', 'Mięczaki', 'Skorupiaki', 'Orzeszkiziemne'])
      expect(compactPolish).toContain(name);
    expect(polish!.text).toContain('Bez typu');
    expect(polish!.text).toContain('Strona 1 z 1');
    const [german] = await readPdf(await renderAllergensPdf(table, { lang: 'de', generatedAt }));
    expect(german!.text.replace(/\s+/g, '')).toContain('Erdnüsse');
    expect(german!.text).toContain('Seite 1 von 1');
  });

  it('says so when no element carries an allergen', async () => {
    const empty = { title: 'Empty', groups: [] };
    const [page] = await readPdf(await renderAllergensPdf(empty, { lang: 'pl', generatedAt }));
    expect(page!.text).toContain(allergenPdfTexts.pl.empty);
  });

  it('spreads 120 elements over several pages, repeating the header and numbering pages', async () => {
    const big: AllergenTable = {
      title: 'Large catalogue',
      groups: [0, 1, 2].map((group) => ({
        type_id: `type-${group}`,
        type_name: `Type ${group}`,
        elements: Array.from({ length: 40 }, (_, index) => ({
          key: `e-${group}-${index}`,
          name: `Element ${group * 40 + index + 1}`,
          allergens: [allergens[index % allergens.length]!.key],
        })),
      })),
    };
    const pages = await readPdf(await renderAllergensPdf(big, { lang: 'en', generatedAt }));
    expect(pages.length).toBeGreaterThan(2);
    pages.forEach((page, index) => {
      expect(page.view).toEqual([0, 0, 841.89, 595.28]);
      expect(page.text).toContain('Element\n');
      expect(page.text.replace(/\s+/g, '')).toContain('Molluscs');
      expect(page.text).toContain(`Page ${index + 1} of ${pages.length}`);
    });
    // Every element printed exactly once, in order.
    const names = pages.flatMap((page) =>
      page.items.filter((item) => /^Element \d+$/.test(item.text)).map((item) => item.text),
    );
    expect(names).toEqual(Array.from({ length: 120 }, (_, index) => `Element ${index + 1}`));
    // A page that starts in the middle of a group repeats the group's name under the header.
    for (const page of pages.slice(1)) {
      expect(page.items.some((item) => /^Type \d$/.test(item.text))).toBe(true);
    }
  });
});
