import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HistoryTask } from '@mise/shared/history/schemas';
import { buildHistoryTask, taskElement as element } from '@mise/shared/history/test-support';
import type { TaskModule } from '@mise/shared/tasks/constants';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { type PdfTextItem, readPdf } from '../../test/read-pdf';
import { renderTasksPdf, type TasksExportInput, taskExportTexts, zonedClock } from './tasks';

/** The first page's text runs with the fill colour each is painted in. */
async function readColours(buffer: Buffer) {
  const pdf = await getDocument({
    data: new Uint8Array(buffer),
    disableFontFace: true,
    isEvalSupported: false,
    useSystemFonts: false,
  }).promise;
  const page = await pdf.getPage(1);
  const operators = await page.getOperatorList();
  const runs: { text: string; colour: string }[] = [];
  let colour = '';
  operators.fnArray.forEach((operator, index) => {
    const args = operators.argsArray[index] as unknown[];
    if (operator === OPS.setFillRGBColor) colour = String(args[0]);
    if (operator === OPS.showText) {
      const glyphs = args[0] as ({ unicode?: string } | number | null)[];
      const text = glyphs
        .map((glyph) => (typeof glyph === 'object' && glyph?.unicode) || '')
        .join('');
      runs.push({ text, colour });
    }
  });
  await pdf.destroy();
  return runs;
}

let sequence = 0;
function buildTask(module: TaskModule, values: Partial<HistoryTask> = {}): HistoryTask {
  sequence += 1;
  return buildHistoryTask(module, { id: `task-${sequence}`, name: `Task ${sequence}`, ...values });
}

const fridge = element('fridge', 'Chambre froide Łódź', {
  minimum_temperature: 0,
  maximum_temperature: 4,
});
const fryer = element('fryer', 'Friteuse', { maximum_polarity: 24 });
const chicken = element('chicken', 'Poulet rôti');
const picture = (path: string) => ({ path, timestamp: 1_790_000_000 });

/** 22 Nov 2026, 08:00 and 09:00 in Warsaw (UTC+1). */
const controlStart = Date.UTC(2026, 10, 22, 7, 0) / 1000;

function sampleInput(lang: TasksExportInput['lang']): TasksExportInput {
  return {
    store: { name: 'Bistro Łódź', timezone_name: 'Europe/Warsaw' },
    start: '2026-11-01',
    end: '2026-11-30',
    filter: 'all',
    generatedAt: new Date('2026-11-30T17:45:00Z'),
    lang,
    sections: [
      {
        module: 'temperatures',
        items: [
          buildTask('temperatures', {
            name: 'Relevé chambre froide',
            employee: { name: 'Zofia', surname: 'Wójcik' },
            elements: [fridge],
            is_anomaly: true,
            anomalies: ['temperature-out-of-range', 'temperature-not-taken'],
            result: {
              entries: [
                {
                  element: 'fridge',
                  first_temperature: 6,
                  temperature: 5.5,
                  control_temperature: null,
                  comment: 'Crème fraîche déplacée',
                  pictures: [picture('a.jpg'), picture('b.jpg')],
                  timestamp: controlStart,
                },
                {
                  element: 'fridge',
                  first_temperature: null,
                  temperature: null,
                  control_temperature: null,
                  comment: '',
                  pictures: [],
                  timestamp: controlStart,
                },
              ],
            },
          }),
          buildTask('temperatures', {
            name: 'Relevé du soir',
            start: '2026-11-23T16:30:00Z',
            status: 'postponed',
            completed_timestamp: null,
            employee: { name: 'Jean', surname: 'Dupont' },
            postponed_to: { start: '2026-11-24T07:00:00Z', end: '2026-11-24T09:00:00Z' },
          }),
        ],
      },
      { module: 'oils', items: [] },
      {
        module: 'temperature_control',
        items: [
          buildTask('temperature_control', {
            name: 'Refroidissement poulet',
            employee: { name: 'Paweł', surname: 'Kowalczyk' },
            elements: [chicken],
            is_anomaly: true,
            anomalies: ['temperature-control-failed'],
            result: {
              entries: [
                {
                  element: 'chicken',
                  mode: 'cooling',
                  target_temperature: 10,
                  start_temperature: 63,
                  start_timestamp: controlStart,
                  end_temperature: 12,
                  end_timestamp: controlStart + 3600,
                  comment: '',
                },
              ],
            },
          }),
        ],
      },
      {
        module: 'actions',
        items: [
          buildTask('actions', {
            name: 'Nettoyage plan de travail',
            actions: [{ name: 'Désinfecter', requires_picture: true }],
            result: {
              entries: [
                {
                  index: 0,
                  action: 'Désinfecter',
                  done: true,
                  requires_picture: true,
                  picture: picture('plan.jpg'),
                },
              ],
            },
          }),
        ],
      },
    ],
  };
}

/** The row of result cells printed on the same baseline as `text`. */
function rowOf(items: PdfTextItem[], text: string) {
  const anchor = items.find((item) => item.text === text);
  expect(anchor, `"${text}" is printed`).toBeDefined();
  return items
    .filter((item) => Math.abs(item.y - anchor!.y) < 1)
    .sort((left, right) => left.x - right.x)
    .map((item) => item.text);
}

describe('renderTasksPdf', () => {
  it('produces a valid A4 landscape PDF with the store, the period, the filter and the date', async () => {
    const buffer = await renderTasksPdf(sampleInput('fr'));
    expect(buffer.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(buffer.subarray(-6).toString('latin1').trim()).toBe('%%EOF');
    const pages = await readPdf(buffer);
    expect(pages).toHaveLength(1);
    expect(pages[0]!.view).toEqual([0, 0, 841.89, 595.28]);
    const { text } = pages[0]!;
    expect(text).toContain('Historique des tâches — Bistro Łódź');
    expect(text).toContain('Période : 01/11/2026 – 30/11/2026');
    expect(text).toContain('Filtre : Toutes');
    // Generated at 17:45 UTC: 18:45 in Warsaw.
    expect(text).toContain('Généré le 30/11/2026 18:45 (Europe/Warsaw)');
    expect(text).toContain('Page 1 sur 1');
  });

  it('prints each task with its date in the store’s zone, name, employee, status and results (French)', async () => {
    const [page] = await readPdf(await renderTasksPdf(sampleInput('fr')));
    const { text, items } = page!;
    // Sections in the given order, with their task counts.
    const headings = ['Températures', 'Huiles', 'Contrôle de température', 'Actions (nettoyage)'];
    const positions = headings.map((heading) => items.findIndex((item) => item.text === heading));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((left, right) => left - right)).toEqual(positions);
    const counts = items
      .filter((item) => item.text.startsWith('Tâches : '))
      .map((item) => item.text);
    expect(counts).toEqual(['Tâches : 2', 'Tâches : 0', 'Tâches : 1', 'Tâches : 1']);

    // The scheduled window and, apart, when the task was completed.
    expect(rowOf(items, 'Relevé chambre froide')).toEqual([
      '22/11/2026 08:00 – 09:00',
      'Relevé chambre froide',
      'Zofia Wójcik',
      '22/11/2026 08:20',
      'Effectuée',
      // The anomaly marker wraps inside its cell.
      '⚠ Température hors plage,',
    ]);
    expect(text).toContain('⚠ Température hors plage,\nTempérature non prise');
    // Each reading with its own time and the element's minimum and maximum.
    expect(rowOf(items, 'Crème fraîche déplacée')).toEqual([
      'Chambre froide Łódź',
      '08:00',
      '0 °C / 4 °C',
      '6 °C',
      '5,5 °C',
      '—',
      'Crème fraîche déplacée',
      '2',
    ]);
    // The reading not taken.
    expect(items.filter((item) => item.text === 'Non prise')).toHaveLength(1);
    expect(rowOf(items, 'Non prise')).toEqual([
      'Chambre froide Łódź',
      '08:00',
      '0 °C / 4 °C',
      '—',
      'Non prise',
      '—',
      '0',
    ]);

    // A postponed task shows where it went, and its employee.
    expect(rowOf(items, 'Relevé du soir')).toEqual([
      '23/11/2026 17:30 – 18:30',
      'Relevé du soir',
      'Jean Dupont',
      '—',
      'Reportée au 24/11/2026 08:00 – 10:00',
    ]);

    // The failed cooling: red target with 'Hors plage', duration, times in the store's zone.
    expect(rowOf(items, 'Refroidissement')).toEqual([
      'Poulet rôti',
      'Refroidissement',
      '63 °C',
      '08:00',
      '12 °C',
      '09:00',
      '10 °C · Hors plage',
      '1 h 00 min',
    ]);
    expect(text).toContain('Paweł Kowalczyk');
    expect(rowOf(items, 'Désinfecter')).toEqual(['Désinfecter', 'Effectuée', 'Oui']);

    // The empty section says so.
    expect(text).toContain(taskExportTexts.fr.noTask);
  });

  it('paints out-of-range readings, a reading not taken and a failed control in red', async () => {
    const runs = await readColours(await renderTasksPdf(sampleInput('fr')));
    const colourOf = (text: string) => {
      const matching = runs.filter((run) => run.text === text);
      expect(matching, `"${text}" is painted once`).toHaveLength(1);
      return matching[0]!.colour;
    };
    const red = '#c92a2a';
    const black = '#111111';
    // Fridge 0..4 °C: the first temperature 6 and the reading 5.5 are out, 'Non prise' too.
    expect(colourOf('6 °C')).toBe(red);
    expect(colourOf('5,5 °C')).toBe(red);
    expect(colourOf('Non prise')).toBe(red);
    expect(colourOf('Crème fraîche déplacée')).toBe(black);
    // Cooling ending at 12 °C over its 10 °C target.
    expect(colourOf('10 °C · Hors plage')).toBe(red);
    expect(colourOf('12 °C')).toBe(red);
    expect(colourOf('63 °C')).toBe(black);
    expect(colourOf('⚠ Température hors plage,')).toBe(red);
    expect(colourOf('Désinfecter')).toBe(black);
  });

  it('prints oils (polarity not taken, too high) and traceability picture counts', async () => {
    const input = sampleInput('fr');
    const oil = (values: Record<string, unknown>) => ({
      element: 'fryer',
      cleaned: true,
      oil_changed: false,
      oil_filtered: true,
      filter_changed: false,
      polarity: null,
      temperature: null,
      pictures: [],
      ...values,
    });
    input.sections = [
      {
        module: 'oils',
        items: [
          buildTask('oils', {
            name: 'Contrôle des huiles',
            elements: [fryer],
            result: {
              entries: [oil({ polarity: 25, temperature: 172.5 }), oil({ cleaned: false })],
            },
          }),
        ],
      },
      {
        module: 'traceability',
        items: [
          buildTask('traceability', {
            name: 'Étiquettes',
            elements: [element('beef', 'Bœuf haché')],
            result: {
              entries: [{ element: 'beef', pictures: [picture('1.jpg'), picture('2.jpg')] }],
            },
          }),
        ],
      },
    ];
    const buffer = await renderTasksPdf(input);
    const [page] = await readPdf(buffer);
    const rows = page!.items.filter((item) => item.text === 'Friteuse');
    expect(rows).toHaveLength(2);
    const cellsAt = (y: number) =>
      page!.items
        .filter((item) => Math.abs(item.y - y) < 1)
        .sort((left, right) => left.x - right.x)
        .map((item) => item.text);
    expect(cellsAt(rows[0]!.y)).toEqual([
      'Friteuse',
      'Oui',
      'Non',
      'Oui',
      'Non',
      '25 %',
      '24 %',
      '172,5 °C',
      '0',
    ]);
    expect(cellsAt(rows[1]!.y)).toEqual([
      'Friteuse',
      'Non',
      'Non',
      'Oui',
      'Non',
      'Non prise',
      '24 %',
      '—',
      '0',
    ]);
    expect(rowOf(page!.items, 'Bœuf haché')).toEqual(['Bœuf haché', '2']);
    const runs = await readColours(buffer);
    expect(runs.find((run) => run.text === '25 %')?.colour).toBe('#c92a2a');
  });

  it('speaks English, German and Polish', async () => {
    const [english] = await readPdf(await renderTasksPdf(sampleInput('en')));
    expect(english!.text).toContain('Task history — Bistro Łódź');
    expect(english!.text).toContain('Period: 01/11/2026 – 30/11/2026');
    expect(english!.text).toContain('Not taken');
    expect(english!.text).toContain('10 °C · Out of range');
    expect(english!.text).toContain('Postponed to 24/11/2026 08:00 – 10:00');
    expect(english!.text).toContain('No task.');
    expect(english!.text).toContain('5.5 °C');
    expect(english!.text).toContain('Page 1 of 1');

    const [german] = await readPdf(await renderTasksPdf(sampleInput('de')));
    expect(german!.text).toContain('Aufgabenverlauf — Bistro Łódź');
    expect(german!.text).toContain('Nicht gemessen');
    expect(german!.text).toContain('10 °C · Außerhalb des Bereichs');
    expect(german!.text).toContain('Öle\nAufgaben: 0');
    expect(german!.text).toContain('Seite 1 von 1');

    const [polish] = await readPdf(await renderTasksPdf(sampleInput('pl')));
    expect(polish!.text).toContain('Historia zadań — Bistro Łódź');
    expect(polish!.text).toContain('Nie zmierzono');
    expect(polish!.text).toContain('10 °C · Poza zakresem');
    expect(polish!.text).toContain('Przełożone na 24/11/2026 08:00 – 10:00');
    expect(polish!.text).toContain('Schładzanie');
    expect(polish!.text).toContain('5,5 °C');
    expect(polish!.text).toContain('Strona 1 z 1');
  });

  it('wraps a long comment inside its cell instead of cutting it', async () => {
    const comment = Array.from({ length: 40 }, (_, index) => `mot${index}`).join(' ');
    const input = sampleInput('fr');
    input.sections = [
      {
        module: 'temperatures',
        items: [
          buildTask('temperatures', {
            elements: [fridge],
            result: {
              entries: [
                {
                  element: 'fridge',
                  first_temperature: null,
                  temperature: 2,
                  control_temperature: null,
                  comment,
                  pictures: [],
                  timestamp: controlStart,
                },
              ],
            },
          }),
        ],
      },
    ];
    const [page] = await readPdf(await renderTasksPdf(input));
    const printed = page!.items.filter((item) => item.text.startsWith('mot'));
    expect(printed.length).toBeGreaterThan(1);
    expect(printed.map((item) => item.text).join(' ')).toBe(comment);
  });

  it('lays 2,000 tasks of 5 lines over numbered pages, every row inside its page', async () => {
    const elements = Array.from({ length: 5 }, (_, index) =>
      element(`e${index}`, `Frigo ${index + 1}`, {
        minimum_temperature: 0,
        maximum_temperature: 4,
      }),
    );
    const items = Array.from({ length: 2000 }, (_, index) =>
      buildTask('temperatures', {
        name: `Relevé n°${index + 1}`,
        start: new Date(Date.UTC(2026, 10, 1) + index * 20 * 60_000).toISOString(),
        elements,
        result: {
          entries: elements.map((item, position) => ({
            element: item.id,
            first_temperature: null,
            temperature: position === 4 ? null : position + (index % 3),
            control_temperature: null,
            comment: position === 0 ? 'RAS' : '',
            pictures: [],
            timestamp: controlStart,
          })),
        },
      }),
    );
    const input: TasksExportInput = {
      ...sampleInput('en'),
      sections: [{ module: 'temperatures', items }],
    };
    const started = performance.now();
    const buffer = await renderTasksPdf(input);
    const elapsed = performance.now() - started;
    console.log(
      `renderTasksPdf: 2,000 tasks × 5 lines in ${elapsed.toFixed(0)} ms (${(buffer.length / 1024).toFixed(0)} KiB)`,
    );

    const pages = await readPdf(buffer);
    expect(pages.length).toBeGreaterThan(50);
    const footerTop = 54;
    pages.forEach((page, index) => {
      expect(page.view).toEqual([0, 0, 841.89, 595.28]);
      expect(page.text).toContain(`Page ${index + 1} of ${pages.length}`);
      // Every page but the first starts with the section's name and the column headers.
      if (index > 0) expect(page.text).toContain('Temperatures — continued\nTasks: 2000');
      expect(page.text).toContain('First temperature');
      // Nothing but the footer below the content area.
      const low = page.items.filter((item) => item.y < footerTop).map((item) => item.text);
      expect(low.sort()).toEqual(
        [
          'Bistro Łódź',
          'Generated on 30/11/2026 18:45',
          `Page ${index + 1} of ${pages.length}`,
        ].sort(),
      );
    });
    // Every task printed once, in order; a task cut by a page end is repeated as continued.
    const names = pages.flatMap((page) =>
      page.items.filter((item) => /^Relevé n°\d+$/.test(item.text)).map((item) => item.text),
    );
    expect(names).toEqual(items.map((task) => task.name));
    // Some tasks are cut by a page end: their band is repeated, marked as continued.
    const continued = pages.flatMap((page) =>
      page.items.filter((item) => /^Relevé n°\d+ \(continued\)$/.test(item.text)),
    );
    expect(continued.length).toBeGreaterThan(0);
    const readings = pages.flatMap((page) =>
      page.items.filter((item) => /^Frigo \d$/.test(item.text)),
    );
    expect(readings).toHaveLength(10_000);
    const notTaken = pages.flatMap((page) =>
      page.items.filter((item) => item.text === 'Not taken'),
    );
    expect(notTaken).toHaveLength(2000);
  }, 120_000);
});

describe('pdfkit use', () => {
  it('goes through pdfkit’s public API only: no private members, no raw content operators', () => {
    const directory = dirname(fileURLToPath(import.meta.url));
    const sources = readdirSync(directory).filter(
      (name) => name.endsWith('.ts') && !name.endsWith('.test.ts'),
    );
    expect(sources).toContain('tasks.ts');
    for (const name of sources) {
      const source = readFileSync(join(directory, name), 'utf8');
      // pdfkit's private members start with '_' (doc._font, doc._fontSize, page._...).
      expect(source, name).not.toMatch(/\._[a-zA-Z]/);
      expect(source, name).not.toMatch(/addContent\(|page\.fonts|\.encode\(/);
    }
  });
});

describe('zonedClock', () => {
  it('formats instants in the store’s zone across a daylight-saving change', () => {
    const paris = zonedClock('Europe/Paris');
    // 29 March 2026: 02:00 in Paris becomes 03:00 (01:00 UTC).
    expect(paris.instant('2026-03-29T00:30:00Z')).toEqual({ date: '29/03/2026', time: '01:30' });
    expect(paris.instant('2026-03-29T01:30:00Z')).toEqual({ date: '29/03/2026', time: '03:30' });
    expect(paris.instant('2026-03-28T23:30:00Z')).toEqual({ date: '29/03/2026', time: '00:30' });
    expect(paris.seconds(Date.UTC(2026, 9, 25, 0, 59) / 1000)).toEqual({
      date: '25/10/2026',
      time: '02:59',
    });
    expect(paris.seconds(Date.UTC(2026, 9, 25, 1, 0) / 1000)).toEqual({
      date: '25/10/2026',
      time: '02:00',
    });
    expect(zonedClock('Asia/Kolkata').instant('2026-11-22T07:00:00+01:00')).toEqual({
      date: '22/11/2026',
      time: '11:30',
    });
  });

  it('falls back to UTC for a zone it does not know', () => {
    expect(zonedClock('Mars/Olympus').instant('2026-11-22T07:05:00Z')).toEqual({
      date: '22/11/2026',
      time: '07:05',
    });
  });
});
