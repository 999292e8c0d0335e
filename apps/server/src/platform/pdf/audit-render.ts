import {
  answerItems,
  fileNameOfUrl,
  type ReportQuestion,
  type ReportSection,
  reportScore,
  reportSections,
  zonedDateTime,
} from '@mise/shared/audits/csv';
import type { AuditAnswer, AuditSection } from '@mise/shared/audits/schemas';
import { formatPercent } from '@mise/shared/audits/scoring';
import { auditPdfTexts } from './audit-texts';
import { createPdfDocument, renderToBuffer } from './document';
import type { ExportLanguage } from './export-texts';
import { pdfFonts } from './fonts';

/*
 * An audit result as a PDF (spec 002 §2 'open PDF', §7 POST pdf/audit; issue 16), laid out in
 * the thread that calls it: renderAuditPdf (audit.ts) runs it in a worker thread. A4 portrait:
 * a header (audit, store, auditor, start and end in the store's zone, the score), the score of
 * each section, then per section a table of its questions with the answer as its type reads,
 * the points it earned and its comment. Every line is measured before it is drawn: a row goes
 * to the next page whole when it fits there, and a row taller than a page continues on the
 * next one between two lines, so no text is cut and every answer is printed whole.
 */

export type AuditPdfInput = {
  language: ExportLanguage;
  /** The store's zone: start and end read in it (UTC when luxon does not know it). */
  timeZone: string;
  auditName: string;
  storeName: string;
  databaseName?: string | null;
  auditorName: string;
  /** ISO instants. */
  startDate: string;
  endDate: string | null;
  score: number | null;
  maxScore: number | null;
  /** The structure the result was performed on, archived items included. */
  sections: AuditSection[];
  answers: AuditAnswer[];
  sectionScores: { section_id: string; score: number; max_score: number }[];
  /** Answer files' names by address (default: the address's last segment). */
  fileNames?: Record<string, string>;
};

/* ---------- Layout (A4 portrait, points) ---------- */

const pageWidth = 595.28;
const pageHeight = 841.89;
const margin = 36;
const footerHeight = 22;
const contentWidth = pageWidth - 2 * margin;
const contentBottom = pageHeight - margin - footerHeight;
const cellPadding = 3.5;
/** A row that does not fit is only started on the page when this many lines fit on it. */
const minimumSplitLines = 3;

const colours = {
  text: '#111111',
  muted: '#666666',
  white: '#ffffff',
  border: '#c5c9d3',
  sectionFill: '#2f3a56',
  headerFill: '#e8ebf2',
};

type FontName = 'regular' | 'bold';
type TextStyle = { font: FontName; size: number; colour: string; lineHeight: number };
const styles = {
  kicker: { font: 'regular', size: 9, colour: colours.muted, lineHeight: 12 },
  title: { font: 'bold', size: 16, colour: colours.text, lineHeight: 19.5 },
  infoLabel: { font: 'bold', size: 9.5, colour: colours.text, lineHeight: 13 },
  info: { font: 'regular', size: 9.5, colour: colours.text, lineHeight: 13 },
  heading: { font: 'bold', size: 11, colour: colours.text, lineHeight: 15 },
  section: { font: 'bold', size: 10.5, colour: colours.white, lineHeight: 13 },
  header: { font: 'bold', size: 8, colour: colours.text, lineHeight: 10 },
  cell: { font: 'regular', size: 8.5, colour: colours.text, lineHeight: 10.5 },
  muted: { font: 'regular', size: 8.5, colour: colours.muted, lineHeight: 10.5 },
  footer: { font: 'regular', size: 8, colour: colours.muted, lineHeight: 10 },
} satisfies Record<string, TextStyle>;

/** The question table's columns: question, answer, points, comment (relative widths). */
const columnWeights = [36, 31, 9, 24] as const;
/** The section score table's columns: section, score. */
const scoreColumnWeights = [74, 26] as const;

type Column = { x: number; width: number; align?: 'right' };

function layoutColumns(weights: readonly number[]): Column[] {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let x = margin;
  return weights.map((weight) => {
    const column = { x, width: (contentWidth * weight) / total };
    x += column.width;
    return column;
  });
}

/** A line of a cell, in its style. */
type Line = { text: string; style: TextStyle };

/**
 * Text through pdfkit's public API only (font, fontSize, fillColor, widthOfString, text):
 * `measure` adds each character's advance (asked of widthOfString once per character and
 * font), `put` writes one line at an explicit position without pdfkit's own line breaking.
 */
function createTextWriter(doc: PDFKit.PDFDocument) {
  const fontFiles: Record<FontName, string> = { regular: pdfFonts.regular, bold: pdfFonts.bold };
  let currentFont = '';
  let currentSize = 0;
  let currentColour = '';
  const advances: Record<FontName, Float64Array> = {
    regular: new Float64Array(0x10000).fill(Number.NaN),
    bold: new Float64Array(0x10000).fill(Number.NaN),
  };
  const advanceOf = (character: string, font: FontName) => {
    doc.font(fontFiles[font]).fontSize(1);
    currentFont = font;
    currentSize = 1;
    return doc.widthOfString(character);
  };
  const measure = (value: string, style: TextStyle): number => {
    const table = advances[style.font];
    let width = 0;
    for (let index = 0; index < value.length; index++) {
      const code = value.charCodeAt(index);
      if (code >= 0xd800 && code <= 0xdfff) {
        const character = String.fromCodePoint(value.codePointAt(index) ?? code);
        width += advanceOf(character, style.font);
        index += character.length - 1;
        continue;
      }
      let advance = table[code]!;
      if (Number.isNaN(advance)) {
        advance = advanceOf(value[index]!, style.font);
        table[code] = advance;
      }
      width += advance;
    }
    return width * style.size;
  };
  const put = (value: string, x: number, top: number, style: TextStyle) => {
    if (value === '') return;
    if (currentFont !== style.font) {
      doc.font(fontFiles[style.font]);
      currentFont = style.font;
    }
    if (currentSize !== style.size) {
      doc.fontSize(style.size);
      currentSize = style.size;
    }
    if (currentColour !== style.colour) {
      doc.fillColor(style.colour);
      currentColour = style.colour;
    }
    doc.text(value, x, top, { lineBreak: false });
  };
  /** Drawing and new pages change the fill colour: it is set again before the next text. */
  const forgetColour = () => {
    currentColour = '';
  };
  return { measure, put, forgetColour };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are removed.
const controlCharacters = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Renders the result's PDF in the calling thread (the worker's job; tests call it too). */
export async function renderAuditPdfInThread(input: AuditPdfInput): Promise<Buffer> {
  const texts = auditPdfTexts(input.language);
  const doc = createPdfDocument({ title: input.auditName, layout: 'portrait' });
  const output = renderToBuffer(doc);
  const writer = createTextWriter(doc);
  const { measure, put } = writer;
  const formatInstant = zonedDateTime(input.timeZone);
  const scores = new Intl.NumberFormat(texts.locale, {
    maximumFractionDigits: 2,
    useGrouping: false,
  });
  const values = new Intl.NumberFormat(texts.locale, {
    maximumFractionDigits: 10,
    useGrouping: false,
  });
  const answerNumber = (value: number) => values.format(value);

  /** A text as the lines of `width`: its own line breaks kept, long words cut where they overflow. */
  const wrap = (value: string, style: TextStyle, width: number): Line[] => {
    const lines: Line[] = [];
    const paragraphs = value
      .replace(controlCharacters, '')
      .replace(/\t/g, ' ')
      .split(/\r\n|\r|\n/);
    const space = measure(' ', style);
    for (const paragraph of paragraphs) {
      const text = paragraph.trimEnd();
      if (text === '' || measure(text, style) <= width) {
        lines.push({ text, style });
        continue;
      }
      let current = '';
      let currentWidth = 0;
      for (const word of text.split(/ +/)) {
        if (word === '') continue;
        const wordWidth = measure(word, style);
        if (current !== '' && currentWidth + space + wordWidth <= width) {
          current += ` ${word}`;
          currentWidth += space + wordWidth;
          continue;
        }
        if (current !== '') lines.push({ text: current, style });
        current = '';
        currentWidth = 0;
        if (wordWidth <= width) {
          current = word;
          currentWidth = wordWidth;
          continue;
        }
        for (const character of word) {
          const characterWidth = measure(character, style);
          if (current !== '' && currentWidth + characterWidth > width) {
            lines.push({ text: current, style });
            current = '';
            currentWidth = 0;
          }
          current += character;
          currentWidth += characterWidth;
        }
      }
      if (current !== '') lines.push({ text: current, style });
    }
    while (lines.length > 0 && lines[lines.length - 1]!.text === '') lines.pop();
    while (lines.length > 0 && lines[0]!.text === '') lines.shift();
    return lines;
  };

  /** One line cut to `width` with an ellipsis. */
  const oneLine = (value: string, style: TextStyle, width: number): string => {
    const clean = value.replace(/\s+/g, ' ').trim();
    if (measure(clean, style) <= width) return clean;
    let end = clean.length;
    while (end > 0 && measure(`${clean.slice(0, end)}…`, style) > width) end--;
    return `${clean.slice(0, end).trimEnd()}…`;
  };

  let y = margin;
  const startPage = () => {
    doc.strokeColor(colours.border).lineWidth(0.5);
    writer.forgetColour();
  };
  const fillRect = (x: number, top: number, width: number, height: number, colour: string) => {
    doc.rect(x, top, width, height).fill(colour);
    writer.forgetColour();
  };
  const horizontalLine = (top: number) => {
    doc
      .moveTo(margin, top)
      .lineTo(pageWidth - margin, top)
      .stroke();
  };
  startPage();

  /* ---------- Rows ---------- */

  const linesHeight = (lines: readonly Line[]) =>
    lines.reduce((sum, line) => sum + line.style.lineHeight, 0);
  const rowHeight = (cells: readonly Line[][]) =>
    Math.max(styles.cell.lineHeight, ...cells.map(linesHeight)) + 2 * cellPadding;
  const cellWidth = (column: Column) => column.width - 2 * cellPadding;
  const lineX = (line: Line, column: Column) =>
    column.align === 'right'
      ? column.x + column.width - cellPadding - measure(line.text, line.style)
      : column.x + cellPadding;

  /**
   * Draws a row at y. A row that does not fit goes to a new page (`continuePage` starts it with
   * the table's head again, leaving `capacity` points below it); a row taller than that is
   * drawn line by line from here (or from the next page when fewer than 3 lines fit here),
   * carrying on at the top of the next pages.
   */
  const drawRow = (
    cells: Line[][],
    columns: readonly Column[],
    continuePage: () => void,
    capacity: number,
  ) => {
    const height = rowHeight(cells);
    if (y + height > contentBottom) {
      const isRoomy =
        contentBottom - y - 2 * cellPadding >= minimumSplitLines * styles.cell.lineHeight;
      if (height <= capacity || !isRoomy) continuePage();
    }
    if (y + height <= contentBottom) {
      cells.forEach((lines, index) => {
        const column = columns[index]!;
        let top = y + cellPadding;
        for (const line of lines) {
          put(line.text, lineX(line, column), top, line.style);
          top += line.style.lineHeight;
        }
      });
      y += height;
      horizontalLine(y);
      return;
    }
    const next = cells.map(() => 0);
    for (;;) {
      let bottom = y + cellPadding;
      cells.forEach((lines, index) => {
        const column = columns[index]!;
        let top = y + cellPadding;
        while (
          next[index]! < lines.length &&
          top + lines[next[index]!]!.style.lineHeight <= contentBottom - cellPadding
        ) {
          const line = lines[next[index]!]!;
          put(line.text, lineX(line, column), top, line.style);
          top += line.style.lineHeight;
          next[index]! += 1;
        }
        bottom = Math.max(bottom, top);
      });
      y = bottom + cellPadding;
      if (cells.every((lines, index) => next[index]! >= lines.length)) break;
      continuePage();
    }
    horizontalLine(y);
  };

  const newPage = () => {
    doc.addPage();
    startPage();
    y = margin;
  };

  /* ---------- Header ---------- */

  for (const line of wrap(texts.title, styles.kicker, contentWidth)) {
    put(line.text, margin, y, line.style);
    y += line.style.lineHeight;
  }
  for (const line of wrap(input.auditName, styles.title, contentWidth)) {
    put(line.text, margin, y, line.style);
    y += line.style.lineHeight;
  }
  y += 6;

  const scoreText = (score: number | null, maximum: number | null) => {
    if (score === null || maximum === null) return '—';
    const points = `${scores.format(score)} / ${scores.format(maximum)}`;
    return maximum > 0 ? `${points} (${formatPercent((score / maximum) * 100)} %)` : points;
  };
  const info: [string, string][] = [
    [texts.store, input.storeName],
    ...(input.databaseName ? [[texts.database, input.databaseName] as [string, string]] : []),
    [texts.auditor, input.auditorName],
    [texts.start, formatInstant(input.startDate)],
    [texts.end, input.endDate ? formatInstant(input.endDate) : texts.inProgress],
    [texts.score, scoreText(input.score, input.maxScore)],
  ];
  const labelWidth = Math.max(...info.map(([label]) => measure(label, styles.infoLabel))) + 12;
  for (const [label, value] of info) {
    const lines = wrap(value, styles.info, contentWidth - labelWidth);
    if (y + Math.max(1, lines.length) * styles.info.lineHeight > contentBottom) newPage();
    put(label, margin, y, styles.infoLabel);
    for (const line of lines) {
      put(line.text, margin + labelWidth, y, line.style);
      y += line.style.lineHeight;
    }
    if (lines.length === 0) y += styles.info.lineHeight;
  }
  y += 10;

  const listed = reportSections(input.sections, input.answers);

  /* ---------- Section scores ---------- */

  const sectionScoreById = new Map(input.sectionScores.map((item) => [item.section_id, item]));
  const scoreColumns = layoutColumns(scoreColumnWeights);
  scoreColumns[1]!.align = 'right';
  const scoredSections = listed.filter(({ section }) => sectionScoreById.has(section.id));
  if (scoredSections.length > 0) {
    const headingHeight = styles.heading.lineHeight + 4;
    const drawScoreHeading = () => {
      put(texts.sectionScores, margin, y, styles.heading);
      y += headingHeight;
      horizontalLine(y);
    };
    if (y + headingHeight + 2 * styles.cell.lineHeight > contentBottom) newPage();
    drawScoreHeading();
    const capacity = contentBottom - margin - headingHeight;
    for (const { section } of scoredSections) {
      const item = sectionScoreById.get(section.id)!;
      drawRow(
        [
          wrap(section.title, styles.cell, cellWidth(scoreColumns[0]!)),
          [{ text: scoreText(item.score, item.max_score), style: styles.cell }],
        ],
        scoreColumns,
        () => {
          newPage();
          drawScoreHeading();
        },
        capacity,
      );
    }
    y += 14;
  }

  /* ---------- Sections ---------- */

  const columns = layoutColumns(columnWeights);
  const headerCells: Line[][] = [
    texts.question,
    texts.answer,
    texts.answerScore,
    texts.comment,
  ].map((value, index) => wrap(value, styles.header, cellWidth(columns[index]!)));
  const headerHeight = rowHeight(headerCells);
  const fileName = (url: string) => input.fileNames?.[url] ?? fileNameOfUrl(url);

  const questionCells = (item: ReportQuestion): Line[][] => {
    const { question, answer } = item;
    const questionLines = wrap(question.text, styles.cell, cellWidth(columns[0]!));
    if (item.isArchived) questionLines.push({ text: `(${texts.archived})`, style: styles.muted });
    const items = answerItems(question, answer, {
      yes: texts.yes,
      no: texts.no,
      formatNumber: answerNumber,
      fileName,
    });
    if (question.type === 'rating' && items.length > 0) {
      items[0] = `${items[0]} / ${answerNumber(question.options.max_rating)}`;
    }
    const answerWidth = cellWidth(columns[1]!);
    const answerLines =
      items.length === 0
        ? wrap(texts.answerMissing, styles.muted, answerWidth)
        : items.flatMap((value) => wrap(value, styles.cell, answerWidth));
    const score = reportScore(item);
    const scoreLines =
      score === null || question.score === null
        ? []
        : wrap(
            `${scores.format(score)} / ${scores.format(question.score)}`,
            styles.cell,
            cellWidth(columns[2]!),
          );
    const commentLines = wrap(answer?.comment ?? '', styles.cell, cellWidth(columns[3]!));
    return [questionLines, answerLines, scoreLines, commentLines];
  };

  const sectionScoreText = (section: AuditSection) => {
    const item = sectionScoreById.get(section.id);
    return item ? scoreText(item.score, item.max_score) : '';
  };

  /** A section's name bar: its title's lines beside its score, and its height. */
  const sectionBar = (entry: ReportSection, isContinued: boolean) => {
    const scoreLabel = sectionScoreText(entry.section);
    const scoreWidth = scoreLabel === '' ? 0 : measure(scoreLabel, styles.section) + 12;
    const title = isContinued ? `${entry.section.title} — ${texts.continued}` : entry.section.title;
    const titleLines = wrap(title, styles.section, contentWidth - 2 * cellPadding - scoreWidth);
    const barHeight = Math.max(1, titleLines.length) * styles.section.lineHeight + 2 * cellPadding;
    return { scoreLabel, titleLines, barHeight };
  };

  const drawSectionHead = (entry: ReportSection, isContinued: boolean) => {
    const { scoreLabel, titleLines, barHeight } = sectionBar(entry, isContinued);
    fillRect(margin, y, contentWidth, barHeight, colours.sectionFill);
    let top = y + cellPadding;
    for (const line of titleLines) {
      put(line.text, margin + cellPadding, top, line.style);
      top += line.style.lineHeight;
    }
    if (scoreLabel !== '') {
      const x = pageWidth - margin - cellPadding - measure(scoreLabel, styles.section);
      put(scoreLabel, x, y + cellPadding, styles.section);
    }
    y += barHeight;
    fillRect(margin, y, contentWidth, headerHeight, colours.headerFill);
    headerCells.forEach((lines, index) => {
      let lineTop = y + cellPadding;
      for (const line of lines) {
        put(line.text, columns[index]!.x + cellPadding, lineTop, line.style);
        lineTop += line.style.lineHeight;
      }
    });
    y += headerHeight;
    horizontalLine(y);
  };

  for (const entry of listed) {
    const rows = entry.questions.map(questionCells);
    if (rows.length === 0)
      rows.push([[{ text: texts.sectionEmpty, style: styles.muted }], [], [], []]);
    // The head stays with the first row (or its first lines when the row is taller than a page).
    const headHeight = sectionBar(entry, false).barHeight + headerHeight;
    const capacity = contentBottom - margin - sectionBar(entry, true).barHeight - headerHeight;
    const firstRow = Math.min(
      rowHeight(rows[0]!),
      minimumSplitLines * styles.cell.lineHeight + 2 * cellPadding,
    );
    if (y > margin && y + headHeight + firstRow > contentBottom) newPage();
    drawSectionHead(entry, false);
    const continuePage = () => {
      newPage();
      drawSectionHead(entry, true);
    };
    for (const cells of rows) drawRow(cells, columns, continuePage, capacity);
    y += 12;
  }

  /* ---------- Footers ---------- */

  const range = doc.bufferedPageRange();
  const footerTop = pageHeight - margin - styles.footer.lineHeight;
  const footerLeft = oneLine(
    `${input.auditName} — ${input.storeName}`,
    styles.footer,
    contentWidth * 0.7,
  );
  for (let index = 0; index < range.count; index++) {
    doc.switchToPage(range.start + index);
    writer.forgetColour();
    put(footerLeft, margin, footerTop, styles.footer);
    const page = texts.page(index + 1, range.count);
    put(page, pageWidth - margin - measure(page, styles.footer), footerTop, styles.footer);
  }
  doc.end();
  return output;
}
