import type { PunchCards, PunchEntry } from '@mise/shared/people/schemas';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { readPdf } from '../../test/read-pdf';
import { punchCardsPdfTexts, renderPunchCardsPdf } from './punch-cards';

/** The text runs of the first page with the fill colour each is drawn in (PDF.js operators). */
async function colouredRuns(buffer: Buffer) {
  const pdf = await getDocument({
    data: new Uint8Array(buffer),
    disableFontFace: true,
    isEvalSupported: false,
    useSystemFonts: false,
  }).promise;
  const page = await pdf.getPage(1);
  const { fnArray, argsArray } = await page.getOperatorList();
  const runs: { text: string; colour: string }[] = [];
  let colour = '';
  fnArray.forEach((operator, index) => {
    const args = argsArray[index] as unknown[];
    if (operator === OPS.setFillRGBColor) colour = String(args[0]);
    if (operator === OPS.showText) {
      const glyphs = args[0] as ({ unicode?: string } | null)[];
      const text = glyphs.map((glyph) => glyph?.unicode ?? '').join('');
      if (text.trim()) runs.push({ text, colour });
    }
  });
  await pdf.destroy();
  return runs;
}

const generatedAt = new Date('2026-11-22T08:30:00Z');
const zone = 'Europe/Paris';
let counter = 0;

/** An entry at a Paris wall-clock time (November: UTC+1). */
function entry(employeeId: string, day: string, time: string, isIn: boolean): PunchEntry {
  counter += 1;
  const [hour, minute] = time.split(':').map(Number);
  const instant = new Date(`${day}T00:00:00Z`);
  instant.setUTCHours(hour! - 1, minute!);
  return {
    id: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    employee_id: employeeId,
    is_in: isIn,
    timestamp: instant.toISOString(),
    timestamp_modified: null,
    day,
    source: 'device',
    selfie_url: null,
    incoherent: false,
    version: 0,
  };
}

const jeanne = '10000000-0000-4000-8000-000000000001';
const lukasz = '10000000-0000-4000-8000-000000000002';

function cards(start: string, end: string, entries: PunchEntry[]): PunchCards {
  return {
    store: { id: '20000000-0000-4000-8000-000000000001', name: 'Bistro Nord', timezone_name: zone },
    start,
    end,
    employees: [
      { id: jeanne, name: 'Jeanne', surname: 'Martin', role_name: 'Cuisinière' },
      { id: lukasz, name: 'Łukasz', surname: 'Żółć', role_name: null },
    ],
    entries,
    editable: true,
    loaded_at: '2026-11-20T08:00:00.000Z',
  };
}

const week = cards('2026-11-16', '2026-11-22', [
  entry(jeanne, '2026-11-16', '08:00', true),
  entry(jeanne, '2026-11-16', '12:30', false),
  entry(jeanne, '2026-11-16', '13:30', true),
  entry(jeanne, '2026-11-16', '17:00', false),
  entry(jeanne, '2026-11-17', '09:00', true),
  entry(jeanne, '2026-11-17', '11:15', false),
  entry(lukasz, '2026-11-18', '10:00', true),
  entry(lukasz, '2026-11-18', '14:00', false),
]);

describe('renderPunchCardsPdf', () => {
  it('produces an A4 landscape PDF with title, store, period, employees, times and totals', async () => {
    const buffer = await renderPunchCardsPdf(week, { lang: 'fr', generatedAt });
    expect(buffer.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const pages = await readPdf(buffer);
    expect(pages).toHaveLength(1);
    expect(pages[0]!.view).toEqual([0, 0, 841.89, 595.28]);
    const { text, items } = pages[0]!;
    expect(text).toContain('Pointages — Bistro Nord');
    expect(text).toContain('Période : 16/11/2026 – 22/11/2026 (Europe/Paris)');
    expect(text).toContain('Jeanne Martin');
    expect(text).toContain('Cuisinière');
    expect(text).toContain('Łukasz Żółć');
    for (const time of ['08:00', '12:30', '13:30', '17:00', '09:00', '11:15', '10:00', '14:00'])
      expect(text).toContain(time);
    // Jeanne: 4.5 + 3.5 + 2.25 = 10.25 h; Łukasz 4 h; the footer row 14.25 h.
    const rowOf = (name: string) => items.find((item) => item.text === name)!.y;
    const onRow = (name: string) =>
      items.filter((item) => Math.abs(item.y - rowOf(name)) < 2).map((item) => item.text);
    expect(onRow('Jeanne Martin')).toContain('10,25');
    expect(onRow('Łukasz Żółć')).toContain('4,00');
    expect(onRow('Total des heures')).toContain('14,25');
    expect(text).toContain('Page 1 sur 1');
    // The in-time sits left of its paired out-time in the same day column.
    const at = (time: string) => items.find((item) => item.text === time)!;
    expect(at('08:00').x).toBeLessThan(at('12:30').x);
    expect(Math.abs(at('08:00').y - at('12:30').y)).toBeLessThan(1);
  });

  it('sets incoherent entries in red and the others in black', async () => {
    const broken = cards('2026-11-16', '2026-11-16', [
      entry(jeanne, '2026-11-16', '08:00', true),
      entry(jeanne, '2026-11-16', '09:00', true),
      entry(jeanne, '2026-11-16', '12:00', false),
    ]);
    const runs = await colouredRuns(await renderPunchCardsPdf(broken, { lang: 'en', generatedAt }));
    const red = runs.filter((run) => run.colour.toLowerCase() === '#d32f2f').map((run) => run.text);
    // The second entrance breaks the alternation; 08:00 and 12:00 are fine.
    expect(red).toEqual(['09:00']);
    expect(runs.some((run) => run.text === '08:00' && run.colour === '#111111')).toBe(true);
    expect(runs.some((run) => run.text === '12:00' && run.colour === '#111111')).toBe(true);
  });

  it('prints one table per week beyond 14 days, with the period total', async () => {
    const entries = [];
    for (let day = 1; day <= 31; day += 1) {
      const date = `2026-10-${String(day).padStart(2, '0')}`;
      entries.push(entry(jeanne, date, '09:00', true), entry(jeanne, date, '17:00', false));
    }
    const pages = await readPdf(
      await renderPunchCardsPdf(cards('2026-10-01', '2026-10-31', entries), {
        lang: 'en',
        generatedAt,
      }),
    );
    const text = pages.map((page) => page.text).join('\n');
    expect(text).toContain('Week from 01/10/2026 to 07/10/2026');
    expect(text).toContain('Week from 29/10/2026 to 31/10/2026');
    expect(text.match(/Week from/g)).toHaveLength(5);
    // 31 days × 8 h; a full week is 56 h.
    expect(text).toContain('Total hours of the period: 248.00');
    expect(text).toContain('56.00');
    for (const [index, page] of pages.entries())
      expect(page.text).toContain(`Page ${index + 1} of ${pages.length}`);
  });

  it('breaks pages with many employees, repeating the header, each employee once', async () => {
    const many: PunchCards = {
      ...week,
      employees: Array.from({ length: 80 }, (_, index) => ({
        id: `30000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
        name: `Person ${index + 1}`,
        surname: 'Test',
        role_name: 'Plonge',
      })),
      entries: [],
    };
    const pages = await readPdf(await renderPunchCardsPdf(many, { lang: 'de', generatedAt }));
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) expect(page.text).toContain('Mitarbeiter');
    const names = pages.flatMap((page) =>
      page.items.filter((item) => /^Person \d+ Test$/.test(item.text)).map((item) => item.text),
    );
    expect(names).toEqual(Array.from({ length: 80 }, (_, index) => `Person ${index + 1} Test`));
    expect(pages.at(-1)!.text).toContain('Stunden gesamt');
  });

  it('translates its headings (Polish letters through the embedded font)', async () => {
    const [polish] = await readPdf(await renderPunchCardsPdf(week, { lang: 'pl', generatedAt }));
    expect(polish!.text).toContain(punchCardsPdfTexts.pl.title);
    expect(polish!.text).toContain('Suma godzin');
    expect(polish!.text).toContain('Strona 1 z 1');
    const [english] = await readPdf(
      await renderPunchCardsPdf({ ...week, employees: [] }, { lang: 'en', generatedAt }),
    );
    expect(english!.text).toContain(punchCardsPdfTexts.en.noEmployee);
  });
});
