import { type AllergenKey, allergens } from '@mise/shared/catalogue/constants';
import type { AllergenTable } from '@mise/shared/catalogue/schemas';
import { createPdfDocument, renderToBuffer } from './document';
import { exportTexts, fillTemplate } from './export-texts';
import { pdfFonts } from './fonts';

export type PdfLanguage = 'fr' | 'en' | 'de' | 'pl';

type Texts = {
  heading: string;
  element: string;
  withoutType: string;
  empty: string;
  legend: string;
  generatedAt: string;
  page: (number: number, count: number) => string;
  allergens: Record<AllergenKey, string>;
  locale: string;
};

/** The allergens sheet's own words, from the locale files ("exports.allergens"). */
function sheetTexts(lang: PdfLanguage): Texts {
  const words = exportTexts(lang).allergens;
  return { ...words, page: (number, count) => fillTemplate(words.page, { number, count }) };
}

/** The sheet's words in the four interface languages (spec 001 §1). */
export const allergenPdfTexts: Record<PdfLanguage, Texts> = {
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
const nameColumnWidth = 210;
const allergenColumnWidth = (pageWidth - 2 * margin - nameColumnWidth) / allergens.length;
const rowHeight = 17;
const cellPadding = 4;
const borderColour = '#b8bcc6';
const groupFill = '#e8ebf2';
const headerFill = '#2f3a56';

/** Formats the generation instant in the sheet's language; the server speaks UTC. */
function formatGeneratedAt(date: Date, locale: string): string {
  return new Intl.DateTimeFormat(locale, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(date);
}

/**
 * The allergens sheet (spec 001 §2.8): elements grouped by type against the 14 allergen
 * columns, A4 landscape, header repeated on every page, legend, generation date and page
 * numbers in the footer. Text is set in DejaVu Sans Condensed so Polish and French letters
 * (ł, ś, ż, Œ) render.
 */
export async function renderAllergensPdf(
  table: AllergenTable,
  options: { lang: 'fr' | 'en' | 'de' | 'pl'; generatedAt: Date },
): Promise<Buffer> {
  const texts = allergenPdfTexts[options.lang];
  const title = `${table.title} — ${texts.heading}`;
  const doc = createPdfDocument({ title });
  const output = renderToBuffer(doc);

  const columnX = (index: number) => margin + nameColumnWidth + index * allergenColumnWidth;
  const headerNames = allergens.map((allergen) => texts.allergens[allergen.key]);
  doc.font(pdfFonts.regular).fontSize(7);
  const namesHeight = Math.max(
    ...headerNames.map((name) =>
      doc.heightOfString(name, { width: allergenColumnWidth - 2, align: 'center' }),
    ),
  );
  const headerHeight = 14 + namesHeight + 2 * cellPadding;

  let y = margin;

  const drawTitle = () => {
    doc.font(pdfFonts.bold).fontSize(15).fillColor('#111111');
    doc.text(title, margin, y, {
      width: pageWidth - 2 * margin,
      height: 22,
      ellipsis: true,
      lineBreak: false,
    });
    y += 26;
  };

  const drawHeader = () => {
    doc.rect(margin, y, pageWidth - 2 * margin, headerHeight).fill(headerFill);
    doc.fillColor('#ffffff').font(pdfFonts.bold).fontSize(9);
    doc.text(texts.element, margin + cellPadding, y + (headerHeight - 10) / 2, {
      width: nameColumnWidth - 2 * cellPadding,
      lineBreak: false,
    });
    allergens.forEach((allergen, index) => {
      const x = columnX(index);
      doc.font(pdfFonts.bold).fontSize(11);
      doc.text(allergen.letter, x, y + cellPadding, {
        width: allergenColumnWidth,
        align: 'center',
        lineBreak: false,
      });
      doc.font(pdfFonts.regular).fontSize(7);
      doc.text(headerNames[index]!, x + 1, y + cellPadding + 14, {
        width: allergenColumnWidth - 2,
        align: 'center',
      });
    });
    doc.strokeColor(borderColour).lineWidth(0.5);
    for (let index = 0; index <= allergens.length; index++) {
      doc
        .moveTo(columnX(index), y)
        .lineTo(columnX(index), y + headerHeight)
        .stroke();
    }
    y += headerHeight;
  };

  const newPage = () => {
    doc.addPage();
    y = margin;
    drawHeader();
  };

  /** Starts a new page when fewer than `rows` rows fit below the current one. */
  const ensureRoom = (rows: number) => {
    if (y + rows * rowHeight > contentBottom) newPage();
  };

  const drawGroupRow = (label: string) => {
    doc.rect(margin, y, pageWidth - 2 * margin, rowHeight).fill(groupFill);
    doc.fillColor('#1d2433').font(pdfFonts.bold).fontSize(9);
    doc.text(label, margin + cellPadding, y + 4, {
      width: pageWidth - 2 * margin - 2 * cellPadding,
      height: rowHeight,
      ellipsis: true,
      lineBreak: false,
    });
    y += rowHeight;
  };

  const drawElementRow = (element: AllergenTable['groups'][number]['elements'][number]) => {
    const carried = new Set<string>(element.allergens);
    doc.fillColor('#111111').font(pdfFonts.regular).fontSize(8.5);
    doc.text(element.name, margin + cellPadding, y + 4, {
      width: nameColumnWidth - 2 * cellPadding,
      height: rowHeight,
      ellipsis: true,
      lineBreak: false,
    });
    doc.font(pdfFonts.regular).fontSize(9);
    allergens.forEach((allergen, index) => {
      if (!carried.has(allergen.key)) return;
      doc.text('●', columnX(index), y + 3.5, {
        width: allergenColumnWidth,
        align: 'center',
        lineBreak: false,
      });
    });
    doc.strokeColor(borderColour).lineWidth(0.5);
    doc
      .moveTo(margin, y + rowHeight)
      .lineTo(pageWidth - margin, y + rowHeight)
      .stroke();
    doc
      .moveTo(margin, y)
      .lineTo(margin, y + rowHeight)
      .stroke();
    for (let index = 0; index <= allergens.length; index++) {
      doc
        .moveTo(columnX(index), y)
        .lineTo(columnX(index), y + rowHeight)
        .stroke();
    }
    y += rowHeight;
  };

  drawTitle();
  drawHeader();
  const groups = table.groups.filter((group) => group.elements.length > 0);
  if (groups.length === 0) {
    doc.fillColor('#111111').font(pdfFonts.regular).fontSize(10);
    doc.text(texts.empty, margin + cellPadding, y + 8, { lineBreak: false });
  }
  for (const group of groups) {
    const label = group.type_name ?? texts.withoutType;
    // A group row never ends a page alone: it keeps at least its first element with it.
    ensureRoom(2);
    drawGroupRow(label);
    for (const element of group.elements) {
      if (y + rowHeight > contentBottom) {
        newPage();
        // The group continues: its name is repeated under the header.
        drawGroupRow(label);
      }
      drawElementRow(element);
    }
  }

  // Footer on every page, once the page count is known.
  const range = doc.bufferedPageRange();
  const generated = `${texts.generatedAt} ${formatGeneratedAt(options.generatedAt, texts.locale)} (UTC)`;
  for (let index = range.start; index < range.start + range.count; index++) {
    doc.switchToPage(index);
    const footerY = pageHeight - margin - 10;
    doc.strokeColor(borderColour).lineWidth(0.5);
    doc
      .moveTo(margin, footerY - 6)
      .lineTo(pageWidth - margin, footerY - 6)
      .stroke();
    doc.fillColor('#444444').font(pdfFonts.regular).fontSize(8);
    const third = (pageWidth - 2 * margin) / 3;
    doc.text(texts.legend, margin, footerY, { width: third, lineBreak: false });
    doc.text(generated, margin + third, footerY, {
      width: third,
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
