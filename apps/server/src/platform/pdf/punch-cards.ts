import { flagIncoherences, pairEntries, totalHours } from '@mise/shared/people/rules';
import type { PunchCards, PunchEntry } from '@mise/shared/people/schemas';
import { DateTime } from 'luxon';
import { createPdfDocument, renderToBuffer } from './document';
import { exportTexts, fillTemplate } from './export-texts';
import { pdfFonts } from './fonts';

/*
 * The punch-card sheet (spec 000 §2 Punch cards, §7 POST pdf/punch_cards): one row per active
 * employee, a column per day with the day's paired entrance and exit times, a total column in
 * hours, a footer row with the total hours. Up to 14 days make one table; a longer period is
 * printed one table per week (7 days from the start). Incoherent entries are set in red.
 */

export type PunchCardsPdfLanguage = 'fr' | 'en' | 'de' | 'pl';

type Texts = {
  title: string;
  period: string;
  colon: string;
  employee: string;
  total: string;
  /** The table's footer row. */
  totalRow: string;
  /** Under several tables: the hours of the whole period. */
  periodTotal: string;
  week: (from: string, to: string) => string;
  noEmployee: string;
  legend: string;
  generatedAt: string;
  page: (number: number, count: number) => string;
  locale: string;
};

/** The sheet's own words, from the locale files ("exports.punchCards"). */
function sheetTexts(lang: PunchCardsPdfLanguage): Texts {
  const words = exportTexts(lang).punchCards;
  return {
    ...words,
    week: (from, to) => fillTemplate(words.week, { from, to }),
    page: (number, count) => fillTemplate(words.page, { number, count }),
  };
}

/** The sheet's words in the four interface languages. */
export const punchCardsPdfTexts: Record<PunchCardsPdfLanguage, Texts> = {
  fr: sheetTexts('fr'),
  en: sheetTexts('en'),
  de: sheetTexts('de'),
  pl: sheetTexts('pl'),
};

/* A4 landscape, in points. */
const pageWidth = 841.89;
const pageHeight = 595.28;
const margin = 30;
const footerHeight = 24;
const contentBottom = pageHeight - margin - footerHeight;
const tableWidth = pageWidth - 2 * margin;
const nameColumnWidth = 130;
const totalColumnWidth = 52;
const headerHeight = 26;
const lineHeight = 9;
const cellPadding = 4;
const borderColour = '#b8bcc6';
const headerFill = '#2f3a56';
const footerFill = '#e8ebf2';
const textColour = '#111111';
const mutedColour = '#5b6170';
const incoherentColour = '#d32f2f';

/** One table per 7 days beyond this many days. */
const maxDaysInOneTable = 14;

function daysOf(start: string, end: string): string[] {
  const days: string[] = [];
  let day = DateTime.fromISO(start, { zone: 'utc' });
  const last = DateTime.fromISO(end, { zone: 'utc' });
  while (day <= last && days.length < 400) {
    days.push(day.toISODate()!);
    day = day.plus({ days: 1 });
  }
  return days;
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let index = 0; index < items.length; index += size)
    chunks.push(items.slice(index, index + size));
  return chunks;
}

/**
 * Renders the punch cards of a period (the GET punchCards answer) as an A4 landscape PDF,
 * set in DejaVu Sans Condensed so every language's letters render.
 */
export async function renderPunchCardsPdf(
  cards: PunchCards,
  options: { lang: PunchCardsPdfLanguage; generatedAt: Date },
): Promise<Buffer> {
  const texts = punchCardsPdfTexts[options.lang];
  const zone = cards.store.timezone_name;
  const formatDate = (day: string) =>
    DateTime.fromISO(day, { zone: 'utc' }).setLocale(texts.locale).toFormat('dd/LL/yyyy');
  const formatTime = (entry: PunchEntry) =>
    DateTime.fromISO(entry.timestamp_modified ?? entry.timestamp)
      .setZone(zone)
      .toFormat('HH:mm');
  const hours = new Intl.NumberFormat(texts.locale, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  const title = `${texts.title} — ${cards.store.name}`;
  const doc = createPdfDocument({ title });
  const output = renderToBuffer(doc);

  // Each employee's entries, and which of them break the alternation over the period.
  const entriesOf = new Map<string, PunchEntry[]>();
  for (const entry of cards.entries) {
    const list = entriesOf.get(entry.employee_id) ?? [];
    list.push(entry);
    entriesOf.set(entry.employee_id, list);
  }
  const incoherent = new Set<string>();
  for (const list of entriesOf.values()) {
    for (const item of flagIncoherences(list)) if (item.isIncoherent) incoherent.add(item.entry.id);
  }

  let y = margin;

  const drawTitle = () => {
    doc.font(pdfFonts.bold).fontSize(15).fillColor(textColour);
    doc.text(title, margin, y, { width: tableWidth, height: 22, ellipsis: true, lineBreak: false });
    y += 24;
    doc.font(pdfFonts.regular).fontSize(10).fillColor(mutedColour);
    doc.text(
      `${texts.period}${texts.colon} ${formatDate(cards.start)} – ${formatDate(cards.end)} (${zone})`,
      margin,
      y,
      { width: tableWidth, lineBreak: false },
    );
    y += 20;
  };

  const allDays = daysOf(cards.start, cards.end);
  const tables = allDays.length <= maxDaysInOneTable ? [allDays] : chunk(allDays, 7);
  const isWeekly = tables.length > 1;

  const drawTable = (days: string[]) => {
    const dayWidth = (tableWidth - nameColumnWidth - totalColumnWidth) / days.length;
    const dayX = (index: number) => margin + nameColumnWidth + index * dayWidth;
    const totalX = margin + tableWidth - totalColumnWidth;
    const daySet = new Set(days);

    const drawVerticals = (top: number, height: number) => {
      doc.strokeColor(borderColour).lineWidth(0.5);
      for (const x of [margin, ...days.map((_, index) => dayX(index)), totalX, margin + tableWidth])
        doc
          .moveTo(x, top)
          .lineTo(x, top + height)
          .stroke();
      doc
        .moveTo(margin, top + height)
        .lineTo(margin + tableWidth, top + height)
        .stroke();
    };

    const drawHeader = () => {
      doc.rect(margin, y, tableWidth, headerHeight).fill(headerFill);
      doc.fillColor('#ffffff').font(pdfFonts.bold).fontSize(8.5);
      doc.text(texts.employee, margin + cellPadding, y + 9, {
        width: nameColumnWidth - 2 * cellPadding,
        lineBreak: false,
      });
      days.forEach((day, index) => {
        const date = DateTime.fromISO(day, { zone: 'utc' }).setLocale(texts.locale);
        doc.font(pdfFonts.bold).fontSize(7);
        doc.text(date.toFormat('ccc'), dayX(index), y + 4, {
          width: dayWidth,
          align: 'center',
          lineBreak: false,
        });
        doc.font(pdfFonts.regular).fontSize(7);
        doc.text(date.toFormat('dd/LL'), dayX(index), y + 14, {
          width: dayWidth,
          align: 'center',
          lineBreak: false,
        });
      });
      doc.font(pdfFonts.bold).fontSize(8);
      doc.text(texts.total, totalX, y + 9, {
        width: totalColumnWidth,
        align: 'center',
        lineBreak: false,
      });
      drawVerticals(y, headerHeight);
      y += headerHeight;
    };

    const newPage = () => {
      doc.addPage();
      y = margin;
      drawHeader();
    };

    if (isWeekly) {
      // A week's heading keeps its header and first row with it.
      if (y + 16 + headerHeight + 3 * lineHeight > contentBottom) {
        doc.addPage();
        y = margin;
      }
      doc.font(pdfFonts.bold).fontSize(10).fillColor(textColour);
      doc.text(texts.week(formatDate(days[0]!), formatDate(days.at(-1)!)), margin, y, {
        width: tableWidth,
        lineBreak: false,
      });
      y += 16;
    }
    if (y + headerHeight + 3 * lineHeight > contentBottom) {
      doc.addPage();
      y = margin;
    }
    drawHeader();

    let tableTotal = 0;
    for (const employee of cards.employees) {
      const entries = (entriesOf.get(employee.id) ?? []).filter((entry) => daySet.has(entry.day));
      const cells = days.map((day) => pairEntries(entries.filter((entry) => entry.day === day)));
      const lines = Math.max(2, ...cells.map((pairs) => pairs.length));
      const rowHeight = lines * lineHeight + 2 * cellPadding;
      if (y + rowHeight > contentBottom) newPage();

      doc.fillColor(textColour).font(pdfFonts.regular).fontSize(8);
      doc.text(`${employee.name.trim()} ${employee.surname.trim()}`, margin + cellPadding, y + 4, {
        width: nameColumnWidth - 2 * cellPadding,
        height: lineHeight + 2,
        ellipsis: true,
        lineBreak: false,
      });
      if (employee.role_name) {
        doc.fillColor(mutedColour).fontSize(7);
        doc.text(employee.role_name, margin + cellPadding, y + 4 + lineHeight, {
          width: nameColumnWidth - 2 * cellPadding,
          height: lineHeight,
          ellipsis: true,
          lineBreak: false,
        });
      }

      doc.font(pdfFonts.regular).fontSize(days.length > 7 ? 6.5 : 7.5);
      cells.forEach((pairs, index) => {
        const half = dayWidth / 2;
        pairs.forEach((pair, line) => {
          const top = y + cellPadding + line * lineHeight;
          for (const [entry, x] of [
            [pair.in, dayX(index)],
            [pair.out, dayX(index) + half],
          ] as const) {
            if (!entry) continue;
            doc.fillColor(incoherent.has(entry.id) ? incoherentColour : textColour);
            doc.text(formatTime(entry), x, top, { width: half, align: 'center', lineBreak: false });
          }
        });
      });

      const employeeTotal = totalHours(entries);
      tableTotal += employeeTotal;
      doc.fillColor(textColour).font(pdfFonts.bold).fontSize(8);
      doc.text(hours.format(employeeTotal), totalX, y + 4, {
        width: totalColumnWidth - cellPadding,
        align: 'right',
        lineBreak: false,
      });
      drawVerticals(y, rowHeight);
      y += rowHeight;
    }

    if (cards.employees.length === 0) {
      doc.fillColor(textColour).font(pdfFonts.regular).fontSize(9);
      doc.text(texts.noEmployee, margin + cellPadding, y + 6, { lineBreak: false });
      y += 22;
    }

    // The footer row: the table's total hours.
    const footerRowHeight = lineHeight + 2 * cellPadding + 2;
    if (y + footerRowHeight > contentBottom) newPage();
    doc.rect(margin, y, tableWidth, footerRowHeight).fill(footerFill);
    doc.fillColor(textColour).font(pdfFonts.bold).fontSize(8.5);
    doc.text(texts.totalRow, margin + cellPadding, y + 5, {
      width: nameColumnWidth - 2 * cellPadding,
      lineBreak: false,
    });
    doc.text(hours.format(tableTotal), totalX, y + 5, {
      width: totalColumnWidth - cellPadding,
      align: 'right',
      lineBreak: false,
    });
    drawVerticals(y, footerRowHeight);
    y += footerRowHeight + 14;
  };

  drawTitle();
  for (const days of tables) drawTable(days);

  if (isWeekly) {
    const periodTotal = cards.employees.reduce(
      (sum, employee) => sum + totalHours(entriesOf.get(employee.id) ?? []),
      0,
    );
    if (y + 16 > contentBottom) {
      doc.addPage();
      y = margin;
    }
    doc.fillColor(textColour).font(pdfFonts.bold).fontSize(10);
    doc.text(`${texts.periodTotal}${texts.colon} ${hours.format(periodTotal)}`, margin, y, {
      width: tableWidth,
      lineBreak: false,
    });
  }

  // Footer on every page, once the page count is known.
  const range = doc.bufferedPageRange();
  const generated = `${texts.generatedAt} ${new Intl.DateTimeFormat(texts.locale, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: zone,
  }).format(options.generatedAt)}`;
  for (let index = range.start; index < range.start + range.count; index++) {
    doc.switchToPage(index);
    const footerY = pageHeight - margin - 10;
    doc.strokeColor(borderColour).lineWidth(0.5);
    doc
      .moveTo(margin, footerY - 6)
      .lineTo(pageWidth - margin, footerY - 6)
      .stroke();
    doc.fillColor('#444444').font(pdfFonts.regular).fontSize(7.5);
    const third = tableWidth / 3;
    doc.text(texts.legend, margin, footerY, { width: third + 60, lineBreak: false });
    doc.text(generated, margin + third + 60, footerY, {
      width: third - 60,
      align: 'center',
      lineBreak: false,
    });
    doc.text(texts.page(index - range.start + 1, range.count), margin + 2 * third, footerY, {
      width: third,
      align: 'right',
      lineBreak: false,
    });
  }
  doc.end();
  return output;
}
