import { type ResultLine, resultLines } from '@mise/shared/history/result-lines';
import type { HistoryTask } from '@mise/shared/history/schemas';
import {
  anomalyText,
  type ExportLanguage,
  employeeText,
  statusText,
  type TaskExportTexts,
  type TasksExportInput,
  taskExportTexts,
  zonedClock,
} from '../../platform/pdf/tasks';

/*
 * The task history as CSV (POST /api/csv/tasks): the PDF export's content as a spreadsheet,
 * one row per result line. Written for the spreadsheets of French and European users, like
 * the punch-card CSV: ';' separated, RFC 4180 quoting, CRLF line ends, a UTF-8 byte order
 * mark so Excel reads the accents, numbers with a dot decimal and no unit (units are in the
 * headers). Dates read dd/mm/yyyy and times HH:MM in the store's zone.
 */

/** The columns, in order: the task's, the entry's element or action, then every value. */
export const csvColumns = [
  'store',
  'module',
  'date',
  'time',
  'task',
  'employee',
  'status',
  'anomaly',
  'element',
  'first_temperature',
  'temperature',
  'control_temperature',
  'comment',
  'done',
  'cleaned',
  'oil_changed',
  'oil_filtered',
  'filter_changed',
  'polarity',
  'mode',
  'target_temperature',
  'start_temperature',
  'start_time',
  'end_temperature',
  'end_time',
  'duration_seconds',
  'pictures',
] as const;
export type CsvColumn = (typeof csvColumns)[number];

/** Header line of each language. */
export const csvHeaders: Record<ExportLanguage, Record<CsvColumn, string>> = {
  fr: {
    store: 'Magasin',
    module: 'Module',
    date: 'Date',
    time: 'Heure',
    task: 'Tâche',
    employee: 'Employé',
    status: 'Statut',
    anomaly: 'Anomalie',
    element: 'Élément/Action',
    first_temperature: 'Première température (°C)',
    temperature: 'Température (°C)',
    control_temperature: 'Température de contrôle (°C)',
    comment: 'Commentaire',
    done: 'Effectuée',
    cleaned: 'Nettoyé',
    oil_changed: 'Huile changée',
    oil_filtered: 'Huile filtrée',
    filter_changed: 'Filtre changé',
    polarity: 'Polarité (%)',
    mode: 'Mode',
    target_temperature: 'Cible (°C)',
    start_temperature: 'Température de début (°C)',
    start_time: 'Heure de début',
    end_temperature: 'Température de fin (°C)',
    end_time: 'Heure de fin',
    duration_seconds: 'Durée (s)',
    pictures: 'Photos',
  },
  en: {
    store: 'Store',
    module: 'Module',
    date: 'Date',
    time: 'Time',
    task: 'Task',
    employee: 'Employee',
    status: 'Status',
    anomaly: 'Anomaly',
    element: 'Element/Action',
    first_temperature: 'First temperature (°C)',
    temperature: 'Temperature (°C)',
    control_temperature: 'Control temperature (°C)',
    comment: 'Comment',
    done: 'Done',
    cleaned: 'Cleaned',
    oil_changed: 'Oil changed',
    oil_filtered: 'Oil filtered',
    filter_changed: 'Filter changed',
    polarity: 'Polarity (%)',
    mode: 'Mode',
    target_temperature: 'Target (°C)',
    start_temperature: 'Start temperature (°C)',
    start_time: 'Start time',
    end_temperature: 'End temperature (°C)',
    end_time: 'End time',
    duration_seconds: 'Duration (s)',
    pictures: 'Pictures',
  },
  de: {
    store: 'Filiale',
    module: 'Modul',
    date: 'Datum',
    time: 'Uhrzeit',
    task: 'Aufgabe',
    employee: 'Mitarbeiter',
    status: 'Status',
    anomaly: 'Abweichung',
    element: 'Element/Aktion',
    first_temperature: 'Erste Temperatur (°C)',
    temperature: 'Temperatur (°C)',
    control_temperature: 'Kontrolltemperatur (°C)',
    comment: 'Kommentar',
    done: 'Erledigt',
    cleaned: 'Gereinigt',
    oil_changed: 'Öl gewechselt',
    oil_filtered: 'Öl gefiltert',
    filter_changed: 'Filter gewechselt',
    polarity: 'Polarität (%)',
    mode: 'Modus',
    target_temperature: 'Zielwert (°C)',
    start_temperature: 'Anfangstemperatur (°C)',
    start_time: 'Startzeit',
    end_temperature: 'Endtemperatur (°C)',
    end_time: 'Endzeit',
    duration_seconds: 'Dauer (s)',
    pictures: 'Fotos',
  },
  pl: {
    store: 'Sklep',
    module: 'Moduł',
    date: 'Data',
    time: 'Godzina',
    task: 'Zadanie',
    employee: 'Pracownik',
    status: 'Status',
    anomaly: 'Nieprawidłowość',
    element: 'Element/Czynność',
    first_temperature: 'Pierwsza temperatura (°C)',
    temperature: 'Temperatura (°C)',
    control_temperature: 'Temperatura kontrolna (°C)',
    comment: 'Komentarz',
    done: 'Wykonane',
    cleaned: 'Wyczyszczono',
    oil_changed: 'Wymieniono olej',
    oil_filtered: 'Przefiltrowano olej',
    filter_changed: 'Wymieniono filtr',
    polarity: 'Polarność (%)',
    mode: 'Tryb',
    target_temperature: 'Cel (°C)',
    start_temperature: 'Temperatura początkowa (°C)',
    start_time: 'Godzina rozpoczęcia',
    end_temperature: 'Temperatura końcowa (°C)',
    end_time: 'Godzina zakończenia',
    duration_seconds: 'Czas trwania (s)',
    pictures: 'Zdjęcia',
  },
};

const separator = ';';
const lineEnd = '\r\n';
const byteOrderMark = '\uFEFF';

/** RFC 4180: a field holding the separator, a quote or a line break is quoted, quotes doubled. */
export function csvField(value: string): string {
  return /[;"\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * Text typed by people (names, comments) that a spreadsheet would run as a formula
 * (=, +, -, @, tab, carriage return first) is prefixed with an apostrophe (OWASP CSV injection).
 */
export function spreadsheetSafe(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

type Cells = Partial<Record<CsvColumn, string>>;

/** Numbers with a dot decimal and no unit; absent (not taken) is an empty cell. */
const numberCell = (value: number | null): string => (value === null ? '' : String(value));

function lineCells(
  line: ResultLine,
  texts: TaskExportTexts,
  clock: ReturnType<typeof zonedClock>,
): Cells {
  const yesNo = (value: boolean) => (value ? texts.yes : texts.no);
  const time = (seconds: number | null) => {
    if (seconds === null) return '';
    const parts = clock.seconds(seconds);
    return `${parts.date} ${parts.time}`;
  };
  switch (line.module) {
    case 'temperatures':
      return {
        element: spreadsheetSafe(line.element),
        first_temperature: numberCell(line.first_temperature),
        temperature: numberCell(line.temperature),
        control_temperature: numberCell(line.control_temperature),
        comment: spreadsheetSafe(line.comment),
        pictures: String(line.pictures),
      };
    case 'traceability':
      return { element: spreadsheetSafe(line.element), pictures: String(line.pictures) };
    case 'actions':
      return {
        element: spreadsheetSafe(line.action),
        done: yesNo(line.done),
        pictures: String(line.pictures),
      };
    case 'oils':
      return {
        element: spreadsheetSafe(line.element),
        cleaned: yesNo(line.cleaned),
        oil_changed: yesNo(line.oil_changed),
        oil_filtered: yesNo(line.oil_filtered),
        filter_changed: yesNo(line.filter_changed),
        polarity: numberCell(line.polarity),
        temperature: numberCell(line.temperature),
        pictures: String(line.pictures),
      };
    case 'temperature_control':
      return {
        element: spreadsheetSafe(line.element),
        mode: texts.modes[line.mode],
        target_temperature: numberCell(line.target_temperature),
        start_temperature: numberCell(line.start_temperature),
        start_time: time(line.start_timestamp),
        end_temperature: numberCell(line.end_temperature),
        end_time: time(line.end_timestamp),
        duration_seconds: numberCell(line.duration_seconds),
        comment: spreadsheetSafe(line.comment),
      };
  }
}

/**
 * The history as CSV: a header line, then per section (in the given order) and per task one
 * row per result line; a task without result (late, postponed) gives one row whose result
 * columns are empty. A temperature or a polarity not taken is an empty cell (the Anomaly
 * column says so). An empty section gives no row.
 */
export function renderTasksCsv(input: TasksExportInput): string {
  const texts = taskExportTexts[input.lang];
  const headers = csvHeaders[input.lang];
  const clock = zonedClock(input.store.timezone_name);
  const store = csvField(spreadsheetSafe(input.store.name));
  const rows: string[] = [csvColumns.map((column) => csvField(headers[column])).join(separator)];

  const taskCells = (task: HistoryTask): Cells => {
    const when = clock.instant(task.start);
    return {
      module: texts.modules[task.module] ?? task.module,
      date: when.date,
      time: when.time,
      task: spreadsheetSafe(task.name),
      employee: spreadsheetSafe(employeeText(task)),
      status: statusText(task, texts, clock),
      anomaly: anomalyText(task, texts),
    };
  };
  const row = (cells: Cells) =>
    csvColumns
      .map((column) => (column === 'store' ? store : csvField(cells[column] ?? '')))
      .join(separator);

  for (const section of input.sections) {
    for (const task of section.items) {
      const common = taskCells(task);
      const lines = resultLines(task);
      if (lines.length === 0) rows.push(row(common));
      for (const line of lines) rows.push(row({ ...common, ...lineCells(line, texts, clock) }));
    }
  }
  return byteOrderMark + rows.join(lineEnd) + lineEnd;
}
