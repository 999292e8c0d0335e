import type { AnomalyReason, HistoryFilter } from '@mise/shared/history/constants';
import {
  type ResultColumn,
  type ResultLine,
  resultColumns,
  resultLines,
} from '@mise/shared/history/result-lines';
import type { HistoryTask } from '@mise/shared/history/schemas';
import type { TaskModule, TaskStatus } from '@mise/shared/tasks/constants';
import { IANAZone } from 'luxon';
import { createPdfDocument, renderToBuffer } from './document';
import { pdfFonts } from './fonts';

/*
 * The task history export (spec 002 §2 History, §7 POST pdf/tasks): per module, every task of
 * the period with its result table. The same input feeds the CSV export (history-csv.ts),
 * which reuses the words and the formatting below.
 */

export type ExportLanguage = 'fr' | 'en' | 'de' | 'pl';

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
};

export type TaskExportTexts = {
  title: string;
  period: string;
  filterLabel: string;
  /** What follows a label: ' :' in French typography, ':' elsewhere. */
  colon: string;
  generatedAt: string;
  filters: Record<HistoryFilter, string>;
  modules: Record<TaskModule, string>;
  statuses: Record<TaskStatus, string>;
  postponedTo: (period: string) => string;
  anomaly: string;
  anomalies: Record<AnomalyReason, string>;
  noTask: string;
  continued: string;
  taskCount: (count: number) => string;
  headers: { date: string; task: string; employee: string; status: string; anomaly: string };
  columns: Record<ResultColumn, string>;
  /** A temperature or a polarity not taken (spec 002 §2 'Non prise'). */
  notTaken: string;
  /** A temperature control that fails its target (spec 002 §2 'Hors plage'). */
  outOfRange: string;
  yes: string;
  no: string;
  done: string;
  notDone: string;
  modes: Record<'cooling' | 'reheating', string>;
  page: (number: number, count: number) => string;
  locale: string;
};

/** The export's own words in the four interface languages (French words from spec 002 §2). */
export const taskExportTexts: Record<ExportLanguage, TaskExportTexts> = {
  fr: {
    title: 'Historique des tâches',
    period: 'Période',
    filterLabel: 'Filtre',
    colon: ' :',
    generatedAt: 'Généré le',
    filters: { completed: 'Effectuées', anomaly: 'Anomalies', all: 'Toutes' },
    modules: {
      temperatures: 'Températures',
      traceability: 'Traçabilité',
      actions: 'Actions (nettoyage)',
      oils: 'Huiles',
      temperature_control: 'Contrôle de température',
    },
    statuses: {
      done: 'Effectuée',
      'done-late': 'Effectuée en retard',
      late: 'En retard',
      'on-time': 'À l’heure',
      postponed: 'Reportée',
      'non-finalized': 'Non finalisée',
    },
    postponedTo: (period) => `Reportée au ${period}`,
    anomaly: 'Anomalie',
    anomalies: {
      late: 'En retard',
      'temperature-out-of-range': 'Température hors plage',
      'temperature-not-taken': 'Température non prise',
      'polarity-too-high': 'Polarité trop élevée',
      'temperature-control-failed': 'Contrôle de température échoué',
      'action-not-done': 'Action non effectuée',
    },
    noTask: 'Aucune tâche.',
    continued: 'suite',
    taskCount: (count) => `Tâches : ${count}`,
    headers: {
      date: 'Date',
      task: 'Tâche',
      employee: 'Employé',
      status: 'Statut',
      anomaly: 'Anomalie',
    },
    columns: {
      element: 'Élément',
      action: 'Action',
      first_temperature: 'Première température',
      temperature: 'Température',
      control_temperature: 'Température de contrôle',
      comment: 'Commentaire',
      pictures: 'Photos',
      done: 'Effectuée',
      picture: 'Photo',
      cleaned: 'Nettoyé',
      oil_changed: 'Huile changée',
      oil_filtered: 'Huile filtrée',
      filter_changed: 'Filtre changé',
      polarity: 'Polarité',
      mode: 'Mode',
      start_temperature: 'Température de début',
      start_timestamp: 'Heure de début',
      end_temperature: 'Température de fin',
      end_timestamp: 'Heure de fin',
      target_temperature: 'Cible',
      duration_seconds: 'Durée',
    },
    notTaken: 'Non prise',
    outOfRange: 'Hors plage',
    yes: 'Oui',
    no: 'Non',
    done: 'Effectuée',
    notDone: 'Non effectuée',
    modes: { cooling: 'Refroidissement', reheating: 'Remise en température' },
    page: (number, count) => `Page ${number} sur ${count}`,
    locale: 'fr-FR',
  },
  en: {
    title: 'Task history',
    period: 'Period',
    filterLabel: 'Filter',
    colon: ':',
    generatedAt: 'Generated on',
    filters: { completed: 'Completed', anomaly: 'Anomaly', all: 'All' },
    modules: {
      temperatures: 'Temperatures',
      traceability: 'Traceability',
      actions: 'Actions (cleaning)',
      oils: 'Oils',
      temperature_control: 'Temperature control',
    },
    statuses: {
      done: 'Done',
      'done-late': 'Done late',
      late: 'Late',
      'on-time': 'On time',
      postponed: 'Postponed',
      'non-finalized': 'Not finalised',
    },
    postponedTo: (period) => `Postponed to ${period}`,
    anomaly: 'Anomaly',
    anomalies: {
      late: 'Late',
      'temperature-out-of-range': 'Temperature out of range',
      'temperature-not-taken': 'Temperature not taken',
      'polarity-too-high': 'Polarity too high',
      'temperature-control-failed': 'Temperature control failed',
      'action-not-done': 'Action not done',
    },
    noTask: 'No task.',
    continued: 'continued',
    taskCount: (count) => `Tasks: ${count}`,
    headers: {
      date: 'Date',
      task: 'Task',
      employee: 'Employee',
      status: 'Status',
      anomaly: 'Anomaly',
    },
    columns: {
      element: 'Element',
      action: 'Action',
      first_temperature: 'First temperature',
      temperature: 'Temperature',
      control_temperature: 'Control temperature',
      comment: 'Comment',
      pictures: 'Pictures',
      done: 'Done',
      picture: 'Photo',
      cleaned: 'Cleaned',
      oil_changed: 'Oil changed',
      oil_filtered: 'Oil filtered',
      filter_changed: 'Filter changed',
      polarity: 'Polarity',
      mode: 'Mode',
      start_temperature: 'Start temperature',
      start_timestamp: 'Start time',
      end_temperature: 'End temperature',
      end_timestamp: 'End time',
      target_temperature: 'Target',
      duration_seconds: 'Duration',
    },
    notTaken: 'Not taken',
    outOfRange: 'Out of range',
    yes: 'Yes',
    no: 'No',
    done: 'Done',
    notDone: 'Not done',
    modes: { cooling: 'Cooling', reheating: 'Reheating' },
    page: (number, count) => `Page ${number} of ${count}`,
    locale: 'en-GB',
  },
  de: {
    title: 'Aufgabenverlauf',
    period: 'Zeitraum',
    filterLabel: 'Filter',
    colon: ':',
    generatedAt: 'Erstellt am',
    filters: { completed: 'Erledigt', anomaly: 'Abweichungen', all: 'Alle' },
    modules: {
      temperatures: 'Temperaturen',
      traceability: 'Rückverfolgbarkeit',
      actions: 'Aktionen (Reinigung)',
      oils: 'Öle',
      temperature_control: 'Temperaturkontrolle',
    },
    statuses: {
      done: 'Erledigt',
      'done-late': 'Verspätet erledigt',
      late: 'Verspätet',
      'on-time': 'Pünktlich',
      postponed: 'Verschoben',
      'non-finalized': 'Nicht abgeschlossen',
    },
    postponedTo: (period) => `Verschoben auf ${period}`,
    anomaly: 'Abweichung',
    anomalies: {
      late: 'Verspätet',
      'temperature-out-of-range': 'Temperatur außerhalb des Bereichs',
      'temperature-not-taken': 'Temperatur nicht gemessen',
      'polarity-too-high': 'Polarität zu hoch',
      'temperature-control-failed': 'Temperaturkontrolle fehlgeschlagen',
      'action-not-done': 'Aktion nicht erledigt',
    },
    noTask: 'Keine Aufgabe.',
    continued: 'Fortsetzung',
    taskCount: (count) => `Aufgaben: ${count}`,
    headers: {
      date: 'Datum',
      task: 'Aufgabe',
      employee: 'Mitarbeiter',
      status: 'Status',
      anomaly: 'Abweichung',
    },
    columns: {
      element: 'Element',
      action: 'Aktion',
      first_temperature: 'Erste Temperatur',
      temperature: 'Temperatur',
      control_temperature: 'Kontrolltemperatur',
      comment: 'Kommentar',
      pictures: 'Fotos',
      done: 'Erledigt',
      picture: 'Foto',
      cleaned: 'Gereinigt',
      oil_changed: 'Öl gewechselt',
      oil_filtered: 'Öl gefiltert',
      filter_changed: 'Filter gewechselt',
      polarity: 'Polarität',
      mode: 'Modus',
      start_temperature: 'Anfangstemperatur',
      start_timestamp: 'Startzeit',
      end_temperature: 'Endtemperatur',
      end_timestamp: 'Endzeit',
      target_temperature: 'Zielwert',
      duration_seconds: 'Dauer',
    },
    notTaken: 'Nicht gemessen',
    outOfRange: 'Außerhalb des Bereichs',
    yes: 'Ja',
    no: 'Nein',
    done: 'Erledigt',
    notDone: 'Nicht erledigt',
    modes: { cooling: 'Abkühlen', reheating: 'Wiedererwärmen' },
    page: (number, count) => `Seite ${number} von ${count}`,
    locale: 'de-DE',
  },
  pl: {
    title: 'Historia zadań',
    period: 'Okres',
    filterLabel: 'Filtr',
    colon: ':',
    generatedAt: 'Wygenerowano',
    filters: { completed: 'Wykonane', anomaly: 'Nieprawidłowości', all: 'Wszystkie' },
    modules: {
      temperatures: 'Temperatury',
      traceability: 'Identyfikowalność',
      actions: 'Czynności (sprzątanie)',
      oils: 'Oleje',
      temperature_control: 'Kontrola temperatury',
    },
    statuses: {
      done: 'Wykonane',
      'done-late': 'Wykonane z opóźnieniem',
      late: 'Opóźnione',
      'on-time': 'Na czas',
      postponed: 'Przełożone',
      'non-finalized': 'Niezakończone',
    },
    postponedTo: (period) => `Przełożone na ${period}`,
    anomaly: 'Nieprawidłowość',
    anomalies: {
      late: 'Opóźnione',
      'temperature-out-of-range': 'Temperatura poza zakresem',
      'temperature-not-taken': 'Nie zmierzono temperatury',
      'polarity-too-high': 'Zbyt wysoka polarność',
      'temperature-control-failed': 'Kontrola temperatury nieudana',
      'action-not-done': 'Czynność niewykonana',
    },
    noTask: 'Brak zadań.',
    continued: 'cd.',
    taskCount: (count) => `Zadania: ${count}`,
    headers: {
      date: 'Data',
      task: 'Zadanie',
      employee: 'Pracownik',
      status: 'Status',
      anomaly: 'Nieprawidłowość',
    },
    columns: {
      element: 'Element',
      action: 'Czynność',
      first_temperature: 'Pierwsza temperatura',
      temperature: 'Temperatura',
      control_temperature: 'Temperatura kontrolna',
      comment: 'Komentarz',
      pictures: 'Zdjęcia',
      done: 'Wykonane',
      picture: 'Zdjęcie',
      cleaned: 'Wyczyszczono',
      oil_changed: 'Wymieniono olej',
      oil_filtered: 'Przefiltrowano olej',
      filter_changed: 'Wymieniono filtr',
      polarity: 'Polarność',
      mode: 'Tryb',
      start_temperature: 'Temperatura początkowa',
      start_timestamp: 'Godzina rozpoczęcia',
      end_temperature: 'Temperatura końcowa',
      end_timestamp: 'Godzina zakończenia',
      target_temperature: 'Cel',
      duration_seconds: 'Czas trwania',
    },
    notTaken: 'Nie zmierzono',
    outOfRange: 'Poza zakresem',
    yes: 'Tak',
    no: 'Nie',
    done: 'Wykonane',
    notDone: 'Niewykonane',
    modes: { cooling: 'Schładzanie', reheating: 'Podgrzewanie' },
    page: (number, count) => `Strona ${number} z ${count}`,
    locale: 'pl-PL',
  },
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
  footer: { font: 'regular', size: 8, colour: colours.muted, lineHeight: 10 },
} satisfies Record<string, TextStyle>;

/** Task band columns: date, task, employee, status, anomaly (relative widths). */
const taskColumnWeights = [80, 230, 130, 190, 152] as const;

/** Relative widths of each result column. */
const resultColumnWeights: Record<ResultColumn, number> = {
  element: 150,
  action: 330,
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
  mode: 85,
  start_temperature: 55,
  start_timestamp: 65,
  end_temperature: 55,
  end_timestamp: 65,
  target_temperature: 170,
  duration_seconds: 60,
};

/** Lines a cell may take before its text is cut with an ellipsis. */
const maximumLines: Partial<Record<ResultColumn, number>> = {
  comment: 30,
  element: 4,
  action: 4,
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

/** pdfkit 0.20's embedded font, as far as the fast text path uses it (not public API). */
type EmbeddedFont = {
  id: string;
  ascender: number;
  encode: (text: string) => [string[], unknown];
  ref: () => unknown;
};

/** '#rrggbb' as the PDF operator setting that fill colour. */
function rgbOperator(colour: string): string {
  const value = Number.parseInt(colour.slice(1), 16);
  const channel = (shift: number) => (((value >> shift) & 0xff) / 255).toFixed(3);
  return `${channel(16)} ${channel(8)} ${channel(0)} rg`;
}
const rgbOperators = new Map<string, string>();

const coordinate = (value: number) => (Math.round(value * 100) / 100).toString();

/**
 * Writes the text of the document: `measure` and `put` at explicit positions, `flush` before
 * any other drawing and before a page changes.
 *
 * pdfkit's doc.text() wraps each call in save/transform/restore, measures the string twice
 * and copies its options; at tens of thousands of cells that is most of the export's time.
 * The fast path writes one text object per batch of cells instead, through the embedded
 * font's own encoder (which adds the glyphs to the font subset and its ToUnicode map, so the
 * text stays selectable and searchable) and a text matrix per cell. Glyphs are placed at
 * their advance widths, without kerning, which is also how `measure` counts. It relies on
 * pdfkit internals (`_font`, `page.fonts`): when they are not there, doc.text() is used.
 */
function createTextWriter(
  doc: PDFKit.PDFDocument,
  fontFiles: Record<FontName, string>,
  isFastTextAllowed: boolean,
) {
  const openFont = (file: string): EmbeddedFont | null => {
    doc.font(file);
    const font = (doc as unknown as { _font?: Partial<EmbeddedFont> })._font;
    return font &&
      typeof font.id === 'string' &&
      typeof font.ascender === 'number' &&
      typeof font.encode === 'function' &&
      typeof font.ref === 'function'
      ? (font as EmbeddedFont)
      : null;
  };
  const pageFonts = () =>
    (doc.page as unknown as { fonts?: Record<string, unknown> } | undefined)?.fonts;
  const regular = openFont(fontFiles.regular);
  const bold = openFont(fontFiles.bold);
  const fonts =
    isFastTextAllowed && regular && bold && typeof pageFonts() === 'object'
      ? { regular, bold }
      : null;

  /* Character advances at 1 pt, per font, measured once through the public API (NaN: not yet). */
  const advances: Record<FontName, Float64Array> = {
    regular: new Float64Array(0x10000).fill(Number.NaN),
    bold: new Float64Array(0x10000).fill(Number.NaN),
  };
  const advanceOf = (character: string, style: TextStyle) =>
    doc.font(fontFiles[style.font]).fontSize(1).widthOfString(character);
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

  let pending: string[] = [];
  let pendingFont = '';
  let pendingSize = 0;
  let pendingColour = '';
  let registeredPage: unknown = null;
  const registered = new Set<string>();
  const encoded: Record<FontName, Map<string, string>> = { regular: new Map(), bold: new Map() };

  const flush = () => {
    if (pending.length === 0) return;
    doc.addContent(`BT\n${pending.join('\n')}\nET`);
    pending = [];
    pendingFont = '';
    pendingSize = 0;
    pendingColour = '';
  };

  const put = (value: string, x: number, top: number, style: TextStyle) => {
    if (value === '') return;
    if (!fonts) {
      doc
        .font(fontFiles[style.font])
        .fontSize(style.size)
        .fillColor(style.colour)
        .text(value, x, top, { lineBreak: false });
      return;
    }
    const font = fonts[style.font];
    if (registeredPage !== doc.page) {
      registeredPage = doc.page;
      registered.clear();
    }
    if (!registered.has(font.id)) {
      const resources = pageFonts();
      if (resources) resources[font.id] = font.ref();
      registered.add(font.id);
    }
    if (font.id !== pendingFont || style.size !== pendingSize) {
      pending.push(`/${font.id} ${style.size} Tf`);
      pendingFont = font.id;
      pendingSize = style.size;
    }
    if (style.colour !== pendingColour) {
      let operator = rgbOperators.get(style.colour);
      if (operator === undefined) {
        operator = rgbOperator(style.colour);
        rgbOperators.set(style.colour, operator);
      }
      pending.push(operator);
      pendingColour = style.colour;
    }
    // The same text always encodes to the same glyphs: encoded once per font.
    const cache = encoded[style.font];
    let glyphs = cache.get(value);
    if (glyphs === undefined) {
      glyphs = font.encode(value)[0].join('');
      cache.set(value, glyphs);
    }
    // pdfkit's page space runs top-down: the matrix flips the glyphs back upright.
    const baseline = top + (font.ascender / 1000) * style.size;
    pending.push(`1 0 0 -1 ${coordinate(x)} ${coordinate(baseline)} Tm [<${glyphs}>] TJ`);
  };

  return { measure, put, flush, isFast: fonts !== null };
}

/**
 * The history as a PDF (spec 002 §2, §7): a title with the store, the period, the filter and
 * the generation date; per module section every task (date and time in the store's zone,
 * name, employee, status, anomaly) followed by its result lines. Text is placed at explicit
 * positions (no automatic flow), rows are measured before they are drawn so none is cut by a
 * page end, and every page ends with "page n of N".
 * `options.isFastTextAllowed` (default true) exists for the tests of the doc.text() path.
 */
export async function renderTasksPdf(
  input: TasksExportInput,
  options: { isFastTextAllowed?: boolean } = {},
): Promise<Buffer> {
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
  const writer = createTextWriter(
    doc,
    { regular: pdfFonts.regular, bold: pdfFonts.bold },
    options.isFastTextAllowed ?? true,
  );
  const { measure, put } = writer;

  const fillRect = (x: number, top: number, width: number, height: number, colour: string) => {
    writer.flush();
    doc.rect(x, top, width, height).fill(colour);
  };
  const horizontalLine = (top: number, from = margin) => {
    writer.flush();
    doc
      .moveTo(from, top)
      .lineTo(pageWidth - margin, top)
      .stroke();
  };
  /** Line colour and width, set again on each page (a page starts a fresh graphics state). */
  const startPage = () => {
    doc.strokeColor(colours.border).lineWidth(0.5);
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

  /* ---------- Page furniture ---------- */

  const taskColumns = layoutColumns(margin, contentWidth, taskColumnWeights);
  let y = margin;

  const newPage = () => {
    writer.flush();
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
    columnKeys: readonly ResultColumn[];
    taskHeader: Row;
    resultHeader: Row;
  };

  const buildSection = (module: TaskModule, taskCount: number): Section => {
    const columnKeys = resultColumns(module);
    const columns = layoutColumns(
      margin + resultIndent,
      contentWidth - resultIndent,
      columnKeys.map((key) => resultColumnWeights[key]),
    );
    const header = (value: string): Cell => ({ text: value, style: styles.header, maxLines: 2 });
    return {
      module,
      heading: texts.modules[module] ?? module,
      count: texts.taskCount(taskCount),
      columns,
      columnKeys,
      taskHeader: measureRow(
        [
          header(texts.headers.date),
          header(texts.headers.task),
          header(texts.headers.employee),
          header(texts.headers.status),
          header(texts.headers.anomaly),
        ],
        taskColumns,
      ),
      resultHeader: measureRow(
        columnKeys.map((key) => header(texts.columns[key])),
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

  const cellText = (line: ResultLine, column: ResultColumn, taskDate: string): string => {
    switch (line.module) {
      case 'temperatures':
        if (column === 'temperature' && line.isNotTaken) return texts.notTaken;
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
            return timeOf(line.start_timestamp, taskDate);
          case 'end_temperature':
            return temperature(line.end_temperature);
          case 'end_timestamp':
            return timeOf(line.end_timestamp, taskDate);
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

  const resultRow = (section: Section, line: ResultLine, taskDate: string): Row => {
    const alerts = line.alertColumns;
    return measureRow(
      section.columnKeys.map((column) => ({
        text: cellText(line, column, taskDate),
        style: alerts.length > 0 && alerts.includes(column) ? styles.cellAlert : styles.cell,
        maxLines: maximumLines[column] ?? 2,
      })),
      section.columns,
    );
  };

  const taskRow = (task: HistoryTask, isContinued: boolean): Row => {
    const when = clock.instant(task.start);
    const anomaly = anomalyText(task, texts);
    const name = isContinued ? `${task.name} (${texts.continued})` : task.name;
    return measureRow(
      [
        { text: `${when.date} ${when.time}`, style: styles.task, maxLines: 2 },
        { text: name, style: styles.taskName, maxLines: 2 },
        { text: employeeText(task) || '—', style: styles.task, maxLines: 2 },
        { text: statusText(task, texts, clock), style: styles.task, maxLines: 2 },
        { text: anomaly ? `⚠ ${anomaly}` : '', style: styles.taskAlert, maxLines: 3 },
      ],
      taskColumns,
    );
  };

  const drawTaskRow = (row: Row) => {
    fillRect(margin, y, contentWidth, row.height, colours.taskFill);
    drawRow(row, taskColumns, y);
    y += row.height;
    horizontalLine(y);
  };

  const drawResultRow = (row: Row, columns: Column[]) => {
    drawRow(row, columns, y);
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
        firstBlock += resultRow(section, firstLine, clock.instant(firstTask.start).date).height;
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
      const lines = resultLines(task).map((line) => resultRow(section, line, taskDate));
      // A task header keeps at least its first result line on its page.
      if (y + header.height + (lines[0]?.height ?? 0) > contentBottom) {
        newPage();
        drawSectionHead(section, true);
      }
      drawTaskRow(header);
      for (const line of lines) {
        if (y + line.height > contentBottom) {
          newPage();
          drawSectionHead(section, true);
          drawTaskRow(taskRow(task, true));
        }
        drawResultRow(line, section.columns);
      }
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
  writer.flush();
  for (let index = range.start; index < range.start + range.count; index++) {
    doc.switchToPage(index);
    const footerY = pageHeight - margin - 10;
    startPage();
    horizontalLine(footerY - 6);
    put(storeName ?? '', margin, footerY, styles.footer);
    put(generated, generatedX, footerY, styles.footer);
    const page = texts.page(index - range.start + 1, range.count);
    put(page, pageWidth - margin - measure(page, styles.footer), footerY, styles.footer);
    writer.flush();
  }
  doc.end();
  return output;
}
