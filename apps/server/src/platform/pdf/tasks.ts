import type { HistoryFilter } from '@mise/shared/history/constants';
import {
  type ResultColumn,
  type ResultLine,
  resultColumns,
  resultLines,
} from '@mise/shared/history/result-lines';
import type { HistoryTask } from '@mise/shared/history/schemas';
import type { TaskModule } from '@mise/shared/tasks/constants';
import { IANAZone } from 'luxon';
import { createPdfDocument, renderToBuffer } from './document';
import { type ExportLanguage, type ExportTexts, exportTexts, fillTemplate } from './export-texts';
import { pdfFonts } from './fonts';

/*
 * The task history export (spec 002 §2 History, §7 POST pdf/tasks): per module, every task of
 * the period with its result table. The same input feeds the CSV export (history-csv.ts),
 * which reuses the words and the formatting below.
 */

export type { ExportLanguage } from './export-texts';

/** A correction of a task's result, as the PDF prints it (task_result_revisions). */
export type ExportRevision = {
  revision: number;
  kind: 'result' | 'postpone';
  author: { name: string; surname: string } | null;
  created_at: string;
  reason: string | null;
  result: unknown;
};

export type TasksExportInput = {
  store: { name: string; timezone_name: string };
  /** Calendar days of the store, YYYY-MM-DD, both included. */
  start: string;
  end: string;
  filter: HistoryFilter;
  generatedAt: Date;
  lang: ExportLanguage;
  /** The modules to print, in this order, each with its tasks in the order to print them. */
  sections: { module: TaskModule; items: HistoryTask[] }[];
  /** Each task's revisions, oldest first (the PDF prints the corrections). */
  revisions?: ReadonlyMap<string, readonly ExportRevision[]>;
  /** Thumbnails (JPEG or PNG bytes) of the result pictures, by storage path. */
  thumbnails?: ReadonlyMap<string, Buffer>;
  /** Tables printed after the module sections (the probe records), in this order. */
  tables?: readonly ExportTable[];
};

/**
 * A plain table section of the history PDF (the probe alerts, the probe readings): a name
 * bar with its count, a header row, then one row per item; an empty table prints its message.
 */
export type ExportTable = {
  heading: string;
  count: string;
  columns: readonly { header: string; weight: number; maxLines?: number }[];
  rows: readonly (readonly { text: string; isAlert?: boolean }[])[];
  emptyText: string;
};

type Words = ExportTexts['tasks'];

export type TaskExportTexts = Omit<
  Words,
  'postponedTo' | 'taskCount' | 'page' | 'revision' | 'reason' | 'previous'
> & {
  postponedTo: (period: string) => string;
  taskCount: (count: number) => string;
  page: (number: number, count: number) => string;
  revision: (values: { revision: number; author: string; time: string }) => string;
  reason: (reason: string) => string;
  previous: (value: string) => string;
  /** The CSV export's header of each column. */
  csvHeaders: ExportTexts['tasksCsv'];
};

/** The export's words, from the locale files ("exports.tasks", "exports.tasksCsv"). */
function exportWords(lang: ExportLanguage): TaskExportTexts {
  const all = exportTexts(lang);
  const words = all.tasks;
  return {
    ...words,
    postponedTo: (period) => fillTemplate(words.postponedTo, { period }),
    taskCount: (count) => fillTemplate(words.taskCount, { count }),
    page: (number, count) => fillTemplate(words.page, { number, count }),
    revision: (values) => fillTemplate(words.revision, values),
    reason: (reason) => fillTemplate(words.reason, { reason }),
    previous: (value) => fillTemplate(words.previous, { value }),
    csvHeaders: all.tasksCsv,
  };
}

/** The export's words in the four interface languages (French words from spec 002 §2). */
export const taskExportTexts: Record<ExportLanguage, TaskExportTexts> = {
  fr: exportWords('fr'),
  en: exportWords('en'),
  de: exportWords('de'),
  pl: exportWords('pl'),
};

/* ---------- Formatting shared with the CSV export ---------- */

/** The store's zone, or UTC when the name is not a zone luxon knows. */
export function exportZone(timezoneName: string): string {
  return IANAZone.isValidZone(timezoneName) ? timezoneName : 'UTC';
}

/** 'YYYY-MM-DD' → 'dd/mm/yyyy' (spec 002 §1). */
export function formatDay(day: string): string {
  const [year, month, date] = day.split('-');
  return year && month && date ? `${date}/${month}/${year}` : day;
}

const twoDigits = (value: number) => (value < 10 ? `0${value}` : String(value));

/**
 * Formats instants in a zone as dd/mm/yyyy and HH:MM, fast: the zone's offset is asked of
 * luxon once per day of time (a day holds at most one offset change, and when it does the
 * offset is asked for each instant of that day), the rest is arithmetic.
 */
export function zonedClock(zoneName: string) {
  const zone = IANAZone.create(exportZone(zoneName));
  const dayOffsets = new Map<number, number | null>();
  const day = 86_400_000;
  const offsetMinutes = (milliseconds: number): number => {
    const key = Math.floor(milliseconds / day);
    let offset = dayOffsets.get(key);
    if (offset === undefined) {
      const first = zone.offset(key * day);
      offset = first === zone.offset((key + 1) * day - 1) ? first : null;
      dayOffsets.set(key, offset);
    }
    return offset ?? zone.offset(milliseconds);
  };
  const parts = (milliseconds: number): { date: string; time: string } => {
    if (!Number.isFinite(milliseconds)) return { date: '', time: '' };
    const local = new Date(milliseconds + offsetMinutes(milliseconds) * 60_000);
    return {
      date: `${twoDigits(local.getUTCDate())}/${twoDigits(local.getUTCMonth() + 1)}/${local.getUTCFullYear()}`,
      time: `${twoDigits(local.getUTCHours())}:${twoDigits(local.getUTCMinutes())}`,
    };
  };
  return {
    /** An ISO instant (with its offset). */
    instant: (iso: string) => parts(Date.parse(iso)),
    /** Seconds since the epoch (result timestamps). */
    seconds: (seconds: number) => parts(seconds * 1000),
    date: (value: Date) => parts(value.getTime()),
  };
}
export type ZonedClock = ReturnType<typeof zonedClock>;

/** A period 'dd/mm/yyyy HH:MM – HH:MM' (the end's date repeated when it is another day). */
export function formatPeriod(startIso: string, endIso: string, clock: ZonedClock): string {
  const start = clock.instant(startIso);
  const end = clock.instant(endIso);
  return end.date === start.date
    ? `${start.date} ${start.time} – ${end.time}`
    : `${start.date} ${start.time} – ${end.date} ${end.time}`;
}

/** The status as the export prints it; a postponed task tells where it went. */
export function statusText(task: HistoryTask, texts: TaskExportTexts, clock: ZonedClock): string {
  if (task.status === 'postponed' && task.postponed_to)
    return texts.postponedTo(formatPeriod(task.postponed_to.start, task.postponed_to.end, clock));
  return texts.statuses[task.status] ?? task.status;
}

export function employeeText(task: HistoryTask): string {
  return task.employee ? `${task.employee.name} ${task.employee.surname}`.trim() : '';
}

/** The translated reasons of an anomalous task, comma separated ('' when none). */
export function anomalyText(task: HistoryTask, texts: TaskExportTexts): string {
  if (!task.is_anomaly && task.anomalies.length === 0) return '';
  if (task.anomalies.length === 0) return texts.anomaly;
  return task.anomalies.map((reason) => texts.anomalies[reason] ?? reason).join(', ');
}

/** A displayed duration: '1 min', '5 min 30 s', '1 h 05 min'. */
export function formatDuration(seconds: number): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = Math.round(seconds % 60);
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, '0')} min`;
  if (minutes > 0)
    return rest > 0 ? `${minutes} min ${String(rest).padStart(2, '0')} s` : `${minutes} min`;
  return `${rest} s`;
}

/* ---------- Layout (A4 landscape, points) ---------- */

const pageWidth = 841.89;
const pageHeight = 595.28;
const margin = 30;
const footerHeight = 24;
const contentWidth = pageWidth - 2 * margin;
const contentBottom = pageHeight - margin - footerHeight;
const cellPadding = 3;
const resultIndent = 14;
/** Picture thumbnails: their box (points) and how many a result line prints at most. */
const thumbnailSize = 42;
const thumbnailGap = 4;
const maxThumbnailsPerLine = 12;

const colours = {
  text: '#111111',
  muted: '#555555',
  alert: '#c92a2a',
  white: '#ffffff',
  border: '#c5c9d3',
  sectionFill: '#2f3a56',
  headerFill: '#e8ebf2',
  taskFill: '#f3f5f9',
};

type FontName = 'regular' | 'bold';
type TextStyle = { font: FontName; size: number; colour: string; lineHeight: number };
const styles = {
  title: { font: 'bold', size: 15, colour: colours.text, lineHeight: 18 },
  subtitle: { font: 'regular', size: 9.5, colour: colours.muted, lineHeight: 12 },
  section: { font: 'bold', size: 10.5, colour: colours.white, lineHeight: 13 },
  header: { font: 'bold', size: 7.5, colour: colours.text, lineHeight: 9 },
  task: { font: 'regular', size: 8.5, colour: colours.text, lineHeight: 10.5 },
  taskName: { font: 'bold', size: 8.5, colour: colours.text, lineHeight: 10.5 },
  taskAlert: { font: 'bold', size: 8.5, colour: colours.alert, lineHeight: 10.5 },
  cell: { font: 'regular', size: 8, colour: colours.text, lineHeight: 9.5 },
  cellAlert: { font: 'bold', size: 8, colour: colours.alert, lineHeight: 9.5 },
  revision: { font: 'regular', size: 7.5, colour: colours.muted, lineHeight: 9 },
  footer: { font: 'regular', size: 8, colour: colours.muted, lineHeight: 10 },
} satisfies Record<string, TextStyle>;

/** Smallest size a header is set in so that each of its words fits its column whole. */
const minimumHeaderSize = 5.5;

/** Task band columns: scheduled window, task, employee, completion, status, anomaly. */
const taskColumnWeights = [125, 180, 110, 85, 190, 140] as const;

/** The PDF's result columns: the shared table's, plus the reading time and the limits. */
type PdfColumn = ResultColumn | 'reading_time' | 'limits' | 'maximum_polarity';

/** Each module's PDF columns, in print order. */
function pdfColumns(module: TaskModule): readonly PdfColumn[] {
  switch (module) {
    case 'temperatures':
      return [
        'element',
        'reading_time',
        'limits',
        'first_temperature',
        'temperature',
        'control_temperature',
        'comment',
        'pictures',
      ];
    case 'oils':
      return [
        'element',
        'cleaned',
        'oil_changed',
        'oil_filtered',
        'filter_changed',
        'polarity',
        'maximum_polarity',
        'temperature',
        'pictures',
      ];
    default:
      return resultColumns(module);
  }
}

/** Relative widths of each result column. */
const resultColumnWeights: Record<PdfColumn, number> = {
  element: 150,
  action: 330,
  reading_time: 60,
  limits: 75,
  first_temperature: 70,
  temperature: 75,
  control_temperature: 75,
  comment: 175,
  pictures: 45,
  done: 70,
  picture: 55,
  cleaned: 60,
  oil_changed: 65,
  oil_filtered: 65,
  filter_changed: 65,
  polarity: 65,
  maximum_polarity: 65,
  mode: 85,
  start_temperature: 70,
  start_timestamp: 80,
  end_temperature: 70,
  end_timestamp: 80,
  target_temperature: 170,
  duration_seconds: 60,
};

/** Lines a cell may take before its text is cut with an ellipsis. */
const maximumLines: Partial<Record<PdfColumn, number>> = {
  comment: 30,
  element: 4,
  action: 4,
  start_timestamp: 3,
  end_timestamp: 3,
};

type Column = { x: number; width: number };

function layoutColumns(left: number, width: number, weights: readonly number[]): Column[] {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let x = left;
  return weights.map((weight) => {
    const column = { x, width: (width * weight) / total };
    x += column.width;
    return column;
  });
}

type Cell = { text: string; style: TextStyle; maxLines: number };
type Row = { cells: Cell[]; lines: string[][]; height: number };

/**
 * Text through pdfkit's public API only (font, fontSize, fillColor, widthOfString, text):
 * `measure` counts a string's width from each character's advance (asked of
 * widthOfString once per character and font), `put` writes a line at an explicit position
 * without pdfkit's own line breaking (the layout breaks lines itself). The font, size and
 * colour are only set when they change.
 */
function createTextWriter(doc: PDFKit.PDFDocument, fontFiles: Record<FontName, string>) {
  let currentFont = '';
  let currentSize = 0;
  let currentColour = '';
  const useFont = (style: TextStyle) => {
    if (currentFont !== style.font) {
      doc.font(fontFiles[style.font]);
      currentFont = style.font;
    }
    if (currentSize !== style.size) {
      doc.fontSize(style.size);
      currentSize = style.size;
    }
  };

  /* Character advances at 1 pt, per font (NaN: not measured yet). */
  const advances: Record<FontName, Float64Array> = {
    regular: new Float64Array(0x10000).fill(Number.NaN),
    bold: new Float64Array(0x10000).fill(Number.NaN),
  };
  const advanceOf = (character: string, style: TextStyle) => {
    doc.font(fontFiles[style.font]).fontSize(1);
    currentFont = style.font;
    currentSize = 1;
    return doc.widthOfString(character);
  };
  const measure = (value: string, style: TextStyle): number => {
    const table = advances[style.font];
    let width = 0;
    for (let index = 0; index < value.length; index++) {
      const code = value.charCodeAt(index);
      if (code >= 0xd800 && code <= 0xdfff) {
        // Outside the basic plane: measured as a whole code point, each time (rare).
        const character = String.fromCodePoint(value.codePointAt(index) ?? code);
        width += advanceOf(character, style);
        index += character.length - 1;
        continue;
      }
      let advance = table[code]!;
      if (Number.isNaN(advance)) {
        advance = advanceOf(value[index]!, style);
        table[code] = advance;
      }
      width += advance;
    }
    return width * style.size;
  };

  const put = (value: string, x: number, top: number, style: TextStyle) => {
    if (value === '') return;
    useFont(style);
    if (currentColour !== style.colour) {
      doc.fillColor(style.colour);
      currentColour = style.colour;
    }
    doc.text(value, x, top, { lineBreak: false });
  };

  /** Drawing (rectangles, images) and new pages change the fill colour: set it again next. */
  const forgetColour = () => {
    currentColour = '';
  };

  return { measure, put, forgetColour };
}

/**
 * The history as a PDF (spec 002 §2, §7): a title with the store, the period, the filter and
 * the generation date; per module section every task (scheduled window and completion time
 * in the store's zone, name, employee, status, anomaly) followed by its result lines (each
 * reading's own time, the element's minimum and maximum, the pictures as thumbnails) and its
 * corrections (revision, author, time, reason, previous value). Text is placed at explicit
 * positions (no automatic flow), rows are measured before they are drawn so none is cut by a
 * page end, and every page ends with "page n of N". pdfkit's public API only.
 */
export async function renderTasksPdf(input: TasksExportInput): Promise<Buffer> {
  const texts = taskExportTexts[input.lang];
  const zone = exportZone(input.store.timezone_name);
  const clock = zonedClock(zone);
  const title = `${texts.title} — ${input.store.name}`;
  const doc = createPdfDocument({ title });
  const output = renderToBuffer(doc);
  const numbers = new Intl.NumberFormat(texts.locale, {
    maximumFractionDigits: 2,
    useGrouping: false,
  });
  const writer = createTextWriter(doc, { regular: pdfFonts.regular, bold: pdfFonts.bold });
  const { measure, put } = writer;
  const thumbnails = input.thumbnails ?? new Map<string, Buffer>();

  const fillRect = (x: number, top: number, width: number, height: number, colour: string) => {
    doc.rect(x, top, width, height).fill(colour);
    writer.forgetColour();
  };
  const horizontalLine = (top: number, from = margin) => {
    doc
      .moveTo(from, top)
      .lineTo(pageWidth - margin, top)
      .stroke();
  };
  /** Line colour and width, set again on each page (a page starts a fresh graphics state). */
  const startPage = () => {
    doc.strokeColor(colours.border).lineWidth(0.5);
    writer.forgetColour();
  };

  /**
   * Splits a text into at most `maxLines` lines of `width`, cutting the last one with an
   * ellipsis when it does not fit. Most cells fit on one line and are measured once.
   */
  const fitLines = (value: string, style: TextStyle, width: number, maxLines: number): string[] => {
    const clean = /\s\s|[\n\r\t]/.test(value) ? value.replace(/\s+/g, ' ').trim() : value;
    if (clean === '') return [];
    if (measure(clean, style) <= width) return [clean];
    const spaceWidth = measure(' ', style);
    const lines: string[] = [];
    let current = '';
    let currentWidth = 0;
    let isCut = false;
    for (const next of clean.split(' ')) {
      let word = next;
      let wordWidth = measure(word, style);
      if (current !== '' && currentWidth + spaceWidth + wordWidth <= width) {
        current += ` ${word}`;
        currentWidth += spaceWidth + wordWidth;
        continue;
      }
      if (current !== '') {
        lines.push(current);
        current = '';
        currentWidth = 0;
      }
      // A word wider than the cell is cut at the character where it overflows.
      while (wordWidth > width && lines.length < maxLines) {
        let end = word.length - 1;
        while (end > 1 && measure(word.slice(0, end), style) > width) end--;
        lines.push(word.slice(0, end));
        word = word.slice(end);
        wordWidth = measure(word, style);
      }
      if (lines.length >= maxLines) {
        isCut = true;
        break;
      }
      current = word;
      currentWidth = wordWidth;
    }
    if (current !== '') {
      if (lines.length < maxLines) lines.push(current);
      else isCut = true;
    }
    if (isCut) {
      let last = lines[maxLines - 1] ?? '';
      while (last.length > 0 && measure(`${last}…`, style) > width) last = last.slice(0, -1);
      lines[maxLines - 1] = `${last.trimEnd()}…`;
    }
    return lines.slice(0, maxLines);
  };

  const measureRow = (cells: Cell[], columns: Column[]): Row => {
    let height = 0;
    let minimum = 0;
    const lines = cells.map((cell, index) => {
      const fitted = fitLines(
        cell.text,
        cell.style,
        columns[index]!.width - 2 * cellPadding,
        cell.maxLines,
      );
      height = Math.max(height, fitted.length * cell.style.lineHeight);
      minimum = Math.max(minimum, cell.style.lineHeight);
      return fitted;
    });
    return { cells, lines, height: Math.max(height, minimum) + 2 * cellPadding };
  };

  const drawRow = (row: Row, columns: Column[], top: number) => {
    row.cells.forEach((cell, index) => {
      const lines = row.lines[index]!;
      const x = columns[index]!.x + cellPadding;
      for (let line = 0; line < lines.length; line++) {
        put(lines[line]!, x, top + cellPadding + line * cell.style.lineHeight, cell.style);
      }
    });
  };

  /**
   * A column header: broken between words only, never inside one. When a word is wider
   * than its column, the header is set smaller until every word fits whole.
   */
  const headerCell = (value: string, column: Column): Cell => {
    const width = column.width - 2 * cellPadding;
    const widest = (style: TextStyle) =>
      Math.max(...value.split(/\s+/).map((word) => measure(word, style)));
    let style: TextStyle = styles.header;
    while (style.size > minimumHeaderSize && widest(style) > width) {
      const size = Math.max(minimumHeaderSize, style.size - 0.5);
      style = { ...style, size, lineHeight: size * 1.2 };
    }
    return { text: value, style, maxLines: 3 };
  };

  /* ---------- Page furniture ---------- */

  const taskColumns = layoutColumns(margin, contentWidth, taskColumnWeights);
  let y = margin;

  const newPage = () => {
    doc.addPage();
    startPage();
    y = margin;
  };

  const drawTitle = () => {
    const [titleLine] = fitLines(title, styles.title, contentWidth, 1);
    put(titleLine ?? '', margin, y, styles.title);
    y += 22;
    const generatedParts = clock.date(input.generatedAt);
    const generated = `${generatedParts.date} ${generatedParts.time}`;
    const subtitle = [
      `${texts.period}${texts.colon} ${formatDay(input.start)} – ${formatDay(input.end)}`,
      `${texts.filterLabel}${texts.colon} ${texts.filters[input.filter] ?? input.filter}`,
      `${texts.generatedAt} ${generated} (${zone})`,
    ].join('     ');
    const [subtitleLine] = fitLines(subtitle, styles.subtitle, contentWidth, 1);
    put(subtitleLine ?? '', margin, y, styles.subtitle);
    y += 20;
  };

  type Section = {
    module: TaskModule;
    heading: string;
    count: string;
    columns: Column[];
    columnKeys: readonly PdfColumn[];
    taskHeader: Row;
    resultHeader: Row;
  };

  const buildSection = (module: TaskModule, taskCount: number): Section => {
    const columnKeys = pdfColumns(module);
    const columns = layoutColumns(
      margin + resultIndent,
      contentWidth - resultIndent,
      columnKeys.map((key) => resultColumnWeights[key]),
    );
    const taskHeaders = [
      texts.headers.scheduled,
      texts.headers.task,
      texts.headers.employee,
      texts.headers.completed,
      texts.headers.status,
      texts.headers.anomaly,
    ];
    return {
      module,
      heading: texts.modules[module] ?? module,
      count: texts.taskCount(taskCount),
      columns,
      columnKeys,
      taskHeader: measureRow(
        taskHeaders.map((value, index) => headerCell(value, taskColumns[index]!)),
        taskColumns,
      ),
      resultHeader: measureRow(
        columnKeys.map((key, index) => headerCell(texts.columns[key], columns[index]!)),
        columns,
      ),
    };
  };

  const sectionBarHeight = 19;
  const sectionHeadHeight = (section: Section) =>
    sectionBarHeight + section.taskHeader.height + section.resultHeader.height;

  /** The section's name bar and its two header rows (tasks, then result columns). */
  const drawSectionHead = (section: Section, isContinued: boolean) => {
    fillRect(margin, y, contentWidth, sectionBarHeight, colours.sectionFill);
    const heading = isContinued ? `${section.heading} — ${texts.continued}` : section.heading;
    put(heading, margin + cellPadding + 1, y + 3, styles.section);
    const countX = pageWidth - margin - cellPadding - 1 - measure(section.count, styles.section);
    put(section.count, countX, y + 3, styles.section);
    y += sectionBarHeight;
    fillRect(margin, y, contentWidth, section.taskHeader.height, colours.headerFill);
    drawRow(section.taskHeader, taskColumns, y);
    y += section.taskHeader.height;
    drawRow(section.resultHeader, section.columns, y);
    y += section.resultHeader.height;
    horizontalLine(y);
  };

  /* ---------- Cells ---------- */

  const formatted = new Map<number, string>();
  const formatNumber = (value: number) => {
    let text = formatted.get(value);
    if (text === undefined) {
      text = numbers.format(value);
      formatted.set(value, text);
    }
    return text;
  };
  const temperature = (value: number | null) =>
    value === null ? '—' : `${formatNumber(value)} °C`;
  const yesNo = (value: boolean) => (value ? texts.yes : texts.no);
  const timeOf = (seconds: number | null, taskDate: string) => {
    if (seconds === null) return '—';
    const value = clock.seconds(seconds);
    return value.date === taskDate ? value.time : `${value.date} ${value.time}`;
  };
  /** A control step's time, with who recorded it when the result says. */
  const stepOf = (seconds: number | null, employee: string, taskDate: string) =>
    employee ? `${timeOf(seconds, taskDate)} · ${employee}` : timeOf(seconds, taskDate);
  const limits = (minimum: number | null, maximum: number | null) =>
    minimum === null && maximum === null
      ? '—'
      : `${minimum === null ? '—' : temperature(minimum)} / ${maximum === null ? '—' : temperature(maximum)}`;

  const cellText = (line: ResultLine, column: PdfColumn, taskDate: string): string => {
    switch (line.module) {
      case 'temperatures':
        if (column === 'temperature' && line.isNotTaken) return texts.notTaken;
        if (column === 'reading_time') return timeOf(line.timestamp, taskDate);
        if (column === 'limits') return limits(line.minimum_temperature, line.maximum_temperature);
        if (column === 'first_temperature') return temperature(line.first_temperature);
        if (column === 'temperature') return temperature(line.temperature);
        if (column === 'control_temperature') return temperature(line.control_temperature);
        if (column === 'comment') return line.comment;
        if (column === 'pictures') return String(line.pictures);
        return line.element;
      case 'traceability':
        return column === 'pictures' ? String(line.pictures) : line.element;
      case 'actions':
        if (column === 'done') return line.done ? texts.done : texts.notDone;
        if (column === 'picture')
          return line.hasPicture ? texts.yes : line.requires_picture ? texts.no : '—';
        return line.action;
      case 'oils':
        switch (column) {
          case 'cleaned':
            return yesNo(line.cleaned);
          case 'oil_changed':
            return yesNo(line.oil_changed);
          case 'oil_filtered':
            return yesNo(line.oil_filtered);
          case 'filter_changed':
            return yesNo(line.filter_changed);
          case 'polarity':
            return line.polarity === null ? texts.notTaken : `${formatNumber(line.polarity)} %`;
          case 'maximum_polarity':
            return line.maximum_polarity === null
              ? '—'
              : `${formatNumber(line.maximum_polarity)} %`;
          case 'temperature':
            return temperature(line.temperature);
          case 'pictures':
            return String(line.pictures);
          default:
            return line.element;
        }
      case 'temperature_control':
        switch (column) {
          case 'mode':
            return texts.modes[line.mode];
          case 'start_temperature':
            return temperature(line.start_temperature);
          case 'start_timestamp':
            return stepOf(line.start_timestamp, line.start_employee, taskDate);
          case 'end_temperature':
            return temperature(line.end_temperature);
          case 'end_timestamp':
            return stepOf(line.end_timestamp, line.end_employee, taskDate);
          case 'target_temperature':
            return line.isFailed
              ? `${temperature(line.target_temperature)} · ${texts.outOfRange}`
              : temperature(line.target_temperature);
          case 'duration_seconds':
            return line.duration_seconds === null ? '—' : formatDuration(line.duration_seconds);
          case 'comment':
            return line.comment;
          default:
            return line.element;
        }
    }
  };

  /** A line's values in one phrase (a correction's previous value). */
  const lineSummary = (line: ResultLine, module: TaskModule, taskDate: string) => {
    const [name, ...values] = pdfColumns(module).filter(
      (column) =>
        column !== 'pictures' &&
        column !== 'limits' &&
        column !== 'maximum_polarity' &&
        column !== 'reading_time',
    );
    const parts = values
      .map((column) => cellText(line, column, taskDate))
      .filter((value) => value !== '' && value !== '—');
    return `${name ? cellText(line, name, taskDate) : ''}${texts.colon} ${parts.join(', ')}`;
  };

  type ResultBlock = { row: Row; pictures: Buffer[]; height: number };

  const resultBlock = (section: Section, line: ResultLine, taskDate: string): ResultBlock => {
    const alerts = line.alertColumns as readonly PdfColumn[];
    const row = measureRow(
      section.columnKeys.map((column) => ({
        text: cellText(line, column, taskDate),
        style: alerts.length > 0 && alerts.includes(column) ? styles.cellAlert : styles.cell,
        maxLines: maximumLines[column] ?? 2,
      })),
      section.columns,
    );
    const paths = line.module === 'temperature_control' ? [] : line.picture_paths;
    const pictures = paths
      .map((path) => thumbnails.get(path))
      .filter((picture): picture is Buffer => picture !== undefined)
      .slice(0, maxThumbnailsPerLine);
    const height = row.height + (pictures.length > 0 ? thumbnailSize + thumbnailGap : 0);
    return { row, pictures, height };
  };

  const taskRow = (task: HistoryTask, isContinued: boolean): Row => {
    const anomaly = anomalyText(task, texts);
    const name = isContinued ? `${task.name} (${texts.continued})` : task.name;
    const end = new Date(Date.parse(task.start) + task.duration * 60_000).toISOString();
    const completed = task.completed_timestamp ? clock.instant(task.completed_timestamp) : null;
    return measureRow(
      [
        { text: formatPeriod(task.start, end, clock), style: styles.task, maxLines: 2 },
        { text: name, style: styles.taskName, maxLines: 2 },
        { text: employeeText(task) || '—', style: styles.task, maxLines: 2 },
        {
          text: completed ? `${completed.date} ${completed.time}` : '—',
          style: styles.task,
          maxLines: 2,
        },
        { text: statusText(task, texts, clock), style: styles.task, maxLines: 2 },
        { text: anomaly ? `⚠ ${anomaly}` : '', style: styles.taskAlert, maxLines: 3 },
      ],
      taskColumns,
    );
  };

  /** The corrections of a task: revision, author, time, reason and the value it replaced. */
  const correctionRows = (task: HistoryTask, taskDate: string): Row[] => {
    const revisions = input.revisions?.get(task.id) ?? [];
    const rows: Row[] = [];
    let previous: unknown = null;
    for (const revision of revisions) {
      if (revision.kind !== 'result') continue;
      if (revision.reason !== null) {
        const when = clock.instant(revision.created_at);
        const author = revision.author
          ? `${revision.author.name} ${revision.author.surname}`.trim()
          : texts.unknownAuthor;
        const previousLines = resultLines({ ...task, result: previous });
        const previousValue =
          previousLines.length > 0
            ? previousLines.map((line) => lineSummary(line, task.module, taskDate)).join(' ; ')
            : texts.none;
        const text = [
          texts.revision({
            revision: revision.revision,
            author,
            time: `${when.date} ${when.time}`,
          }),
          texts.reason(revision.reason || texts.noReason),
          texts.previous(previousValue),
        ].join(' — ');
        rows.push(measureRow([{ text, style: styles.revision, maxLines: 6 }], [correctionColumn]));
      }
      previous = revision.result;
    }
    return rows;
  };
  const correctionColumn: Column = {
    x: margin + resultIndent,
    width: contentWidth - resultIndent,
  };

  const drawTaskRow = (row: Row) => {
    fillRect(margin, y, contentWidth, row.height, colours.taskFill);
    drawRow(row, taskColumns, y);
    y += row.height;
    horizontalLine(y);
  };

  const drawResultBlock = (block: ResultBlock, columns: Column[]) => {
    drawRow(block.row, columns, y);
    y += block.row.height;
    let x = columns[0]!.x + cellPadding;
    for (const picture of block.pictures) {
      try {
        doc.image(picture, x, y, { fit: [thumbnailSize, thumbnailSize] });
      } catch {
        // A file that is not an image pdfkit reads: no thumbnail, the count stays.
      }
      x += thumbnailSize + thumbnailGap;
    }
    if (block.pictures.length > 0) y += thumbnailSize + thumbnailGap;
    horizontalLine(y, margin + resultIndent);
  };

  const drawCorrection = (row: Row) => {
    drawRow(row, [correctionColumn], y);
    y += row.height;
    horizontalLine(y, margin + resultIndent);
  };

  /* ---------- Content ---------- */

  startPage();
  drawTitle();
  for (const { module, items } of input.sections) {
    const section = buildSection(module, items.length);
    const firstTask = items[0];
    // The section's head never ends a page alone: it keeps its first task (and its first
    // result line) or its empty message with it.
    let firstBlock = 20;
    if (firstTask) {
      firstBlock = taskRow(firstTask, false).height;
      const [firstLine] = resultLines(firstTask);
      if (firstLine)
        firstBlock += resultBlock(section, firstLine, clock.instant(firstTask.start).date).height;
    }
    if (y + sectionHeadHeight(section) + firstBlock > contentBottom) newPage();
    drawSectionHead(section, false);
    if (!firstTask) {
      put(texts.noTask, margin + cellPadding, y + 5, styles.task);
      y += 20;
    }
    for (const task of items) {
      const taskDate = clock.instant(task.start).date;
      const header = taskRow(task, false);
      const blocks = resultLines(task).map((line) => resultBlock(section, line, taskDate));
      const corrections = correctionRows(task, taskDate);
      // A task header keeps at least its first result line (or correction) on its page.
      const firstHeight = blocks[0]?.height ?? corrections[0]?.height ?? 0;
      if (y + header.height + firstHeight > contentBottom) {
        newPage();
        drawSectionHead(section, true);
      }
      drawTaskRow(header);
      const continueOnNewPage = (height: number) => {
        if (y + height <= contentBottom) return;
        newPage();
        drawSectionHead(section, true);
        drawTaskRow(taskRow(task, true));
      };
      for (const block of blocks) {
        continueOnNewPage(block.height);
        drawResultBlock(block, section.columns);
      }
      for (const correction of corrections) {
        continueOnNewPage(correction.height);
        drawCorrection(correction);
      }
    }
    y += 10;
  }

  /* ---------- Tables after the sections (probe records) ---------- */

  for (const table of input.tables ?? []) {
    const columns = layoutColumns(
      margin,
      contentWidth,
      table.columns.map((column) => column.weight),
    );
    const header = measureRow(
      table.columns.map((column, index) => headerCell(column.header, columns[index]!)),
      columns,
    );
    const rows = table.rows.map((cells) =>
      measureRow(
        cells.map((cell, index) => ({
          text: cell.text,
          style: cell.isAlert ? styles.cellAlert : styles.cell,
          maxLines: table.columns[index]?.maxLines ?? 3,
        })),
        columns,
      ),
    );
    const drawHead = (isContinued: boolean) => {
      fillRect(margin, y, contentWidth, sectionBarHeight, colours.sectionFill);
      const heading = isContinued ? `${table.heading} — ${texts.continued}` : table.heading;
      put(heading, margin + cellPadding + 1, y + 3, styles.section);
      const countX = pageWidth - margin - cellPadding - 1 - measure(table.count, styles.section);
      put(table.count, countX, y + 3, styles.section);
      y += sectionBarHeight;
      fillRect(margin, y, contentWidth, header.height, colours.headerFill);
      drawRow(header, columns, y);
      y += header.height;
      horizontalLine(y);
    };
    // The head never ends a page alone: it keeps its first row (or its empty message).
    if (y + sectionBarHeight + header.height + (rows[0]?.height ?? 20) > contentBottom) newPage();
    drawHead(false);
    if (rows.length === 0) {
      put(table.emptyText, margin + cellPadding, y + 5, styles.task);
      y += 20;
    }
    for (const row of rows) {
      if (y + row.height > contentBottom) {
        newPage();
        drawHead(true);
      }
      drawRow(row, columns, y);
      y += row.height;
      horizontalLine(y);
    }
    y += 10;
  }

  /* ---------- Footer on every page, once the page count is known ---------- */

  const range = doc.bufferedPageRange();
  const generatedParts = clock.date(input.generatedAt);
  const generated = `${texts.generatedAt} ${generatedParts.date} ${generatedParts.time}`;
  const footerColumns = layoutColumns(margin, contentWidth, [1, 1, 1]);
  const generatedX = margin + (contentWidth - measure(generated, styles.footer)) / 2;
  const [storeName] = fitLines(input.store.name, styles.footer, footerColumns[0]!.width, 1);
  for (let index = range.start; index < range.start + range.count; index++) {
    doc.switchToPage(index);
    const footerY = pageHeight - margin - 10;
    startPage();
    horizontalLine(footerY - 6);
    put(storeName ?? '', margin, footerY, styles.footer);
    put(generated, generatedX, footerY, styles.footer);
    const page = texts.page(index - range.start + 1, range.count);
    put(page, pageWidth - margin - measure(page, styles.footer), footerY, styles.footer);
  }
  doc.end();
  return output;
}
