import { writeCsv } from '@mise/shared/csv/write-csv';
import { type ResultLine, resultLines } from '@mise/shared/history/result-lines';
import type { HistoryTask } from '@mise/shared/history/schemas';
import {
  anomalyText,
  employeeText,
  statusText,
  type TaskExportTexts,
  type TasksExportInput,
  taskExportTexts,
  type ZonedClock,
  zonedClock,
} from '../../platform/pdf/tasks';
import { escalationText, type ProbeRecords, probeWords } from './history-probes-export';

/*
 * The task history as CSV (POST /api/csv/tasks): the PDF export's content as a spreadsheet,
 * one row per result line. Written for the spreadsheets of French and European users through
 * the product's one CSV writer (like the punch-card CSV): ';' separated, RFC 4180 quoting,
 * CRLF line ends, the formula guard on every cell, and a UTF-8 byte order mark so Excel
 * reads the accents; numbers with a dot decimal and no unit (units are in the headers).
 * Dates read dd/mm/yyyy and times HH:MM in the store's zone. Each task carries its scheduled
 * window (date, time, scheduled end) and its completion; each reading its own time.
 */

/** The columns, in order: the task's, the entry's element or action, then every value. */
export const csvColumns = [
  'store',
  'module',
  'date',
  'time',
  'scheduled_end',
  'completed_at',
  'task',
  'employee',
  'status',
  'anomaly',
  'element',
  'reading_time',
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
  // Probe records (issue 15): an alert episode's or a probe day's own values.
  'probe',
  'alert',
  'alert_end',
  'minimum',
  'maximum',
  'worst_value',
  'escalation',
  'acknowledged_at',
  'acknowledged_by',
  'corrective_action',
  'lowest',
  'highest',
  'readings',
] as const;
export type CsvColumn = (typeof csvColumns)[number];

type Cells = Partial<Record<CsvColumn, string>>;

/** Numbers with a dot decimal and no unit; absent (not taken) is an empty cell. */
const numberCell = (value: number | null): string => (value === null ? '' : String(value));

function lineCells(line: ResultLine, texts: TaskExportTexts, clock: ZonedClock): Cells {
  const yesNo = (value: boolean) => (value ? texts.yes : texts.no);
  const time = (seconds: number | null) => {
    if (seconds === null) return '';
    const parts = clock.seconds(seconds);
    return `${parts.date} ${parts.time}`;
  };
  switch (line.module) {
    case 'temperatures':
      return {
        element: line.element,
        reading_time: time(line.timestamp),
        first_temperature: numberCell(line.first_temperature),
        temperature: numberCell(line.temperature),
        control_temperature: numberCell(line.control_temperature),
        comment: line.comment,
        pictures: String(line.pictures),
      };
    case 'traceability':
      return { element: line.element, pictures: String(line.pictures) };
    case 'actions':
      return { element: line.action, done: yesNo(line.done), pictures: String(line.pictures) };
    case 'oils':
      return {
        element: line.element,
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
        element: line.element,
        mode: texts.modes[line.mode],
        target_temperature: numberCell(line.target_temperature),
        start_temperature: numberCell(line.start_temperature),
        start_time: time(line.start_timestamp),
        end_temperature: numberCell(line.end_temperature),
        end_time: time(line.end_timestamp),
        duration_seconds: numberCell(line.duration_seconds),
        comment: line.comment,
      };
  }
}

/**
 * The probe records' rows: each alert episode of the period (newest first: its start as date
 * and time, its end, thresholds, worst value, escalation, acknowledgement; status resolved or
 * ongoing, anomaly "not acknowledged"), then each bound element's days (oldest first: the
 * element's bounds, lowest, highest, last reading with its time, count).
 */
function probeRows(probes: ProbeRecords, input: TasksExportInput, clock: ZonedClock): Cells[] {
  const words = probeWords(input.lang);
  const instant = (iso: string | null) => {
    if (!iso) return '';
    const parts = clock.instant(iso);
    return `${parts.date} ${parts.time}`;
  };
  const rows: Cells[] = [];
  for (const alert of probes.alerts) {
    const start = clock.instant(alert.startedAt);
    rows.push({
      store: input.store.name,
      module: words.alertsTitle,
      date: start.date,
      time: start.time,
      element: alert.elementName ?? '',
      probe: alert.probeName,
      alert: words.kinds[alert.kind] ?? alert.kind,
      alert_end: instant(alert.resolvedAt),
      status: alert.resolvedAt ? words.resolved : words.open,
      anomaly: alert.acknowledgedAt ? '' : words.notAcknowledged,
      minimum: alert.kind === 'out_of_range' ? numberCell(alert.minimumTemperature) : '',
      maximum: alert.kind === 'out_of_range' ? numberCell(alert.maximumTemperature) : '',
      worst_value: alert.kind === 'offline' ? '' : numberCell(alert.worstValue),
      escalation: escalationText(alert.escalationLevel, words),
      acknowledged_at: instant(alert.acknowledgedAt),
      acknowledged_by: alert.acknowledgedByName ?? '',
      corrective_action: alert.correctiveAction ?? '',
    });
  }
  for (const element of probes.elements) {
    for (const day of element.days) {
      const [year, month, date] = day.day.split('-');
      rows.push({
        store: input.store.name,
        module: words.readingsTitle,
        date: `${date}/${month}/${year}`,
        element: element.name,
        probe: element.probe_name,
        minimum: numberCell(element.minimum_temperature),
        maximum: numberCell(element.maximum_temperature),
        lowest: numberCell(day.minimum),
        highest: numberCell(day.maximum),
        temperature: numberCell(day.last_temperature),
        reading_time: instant(day.last_reading_at),
        readings: String(day.readings),
      });
    }
  }
  return rows;
}

/**
 * The history as CSV: a header line, then per section (in the given order) and per task one
 * row per result line; a task without result (late, postponed) gives one row whose result
 * columns are empty. A temperature or a polarity not taken is an empty cell (the Anomaly
 * column says so). An empty section gives no row. The probe records follow (probeRows).
 */
export function renderTasksCsv(input: TasksExportInput & { probes?: ProbeRecords }): string {
  const texts = taskExportTexts[input.lang];
  const headers = texts.csvHeaders;
  const clock = zonedClock(input.store.timezone_name);
  const rows: string[][] = [csvColumns.map((column) => headers[column])];

  const taskCells = (task: HistoryTask): Cells => {
    const when = clock.instant(task.start);
    const end = clock.seconds(Date.parse(task.start) / 1000 + task.duration * 60);
    const completed = task.completed_timestamp ? clock.instant(task.completed_timestamp) : null;
    return {
      store: input.store.name,
      module: texts.modules[task.module] ?? task.module,
      date: when.date,
      time: when.time,
      scheduled_end: end.date === when.date ? end.time : `${end.date} ${end.time}`,
      completed_at: completed ? `${completed.date} ${completed.time}` : '',
      task: task.name,
      employee: employeeText(task),
      status: statusText(task, texts, clock),
      anomaly: anomalyText(task, texts),
    };
  };
  const row = (cells: Cells) => csvColumns.map((column) => cells[column] ?? '');

  for (const section of input.sections) {
    for (const task of section.items) {
      const common = taskCells(task);
      const lines = resultLines(task);
      if (lines.length === 0) rows.push(row(common));
      for (const line of lines) rows.push(row({ ...common, ...lineCells(line, texts, clock) }));
    }
  }
  if (input.probes) {
    for (const cells of probeRows(input.probes, input, clock)) rows.push(row(cells));
  }
  return writeCsv(rows, { separator: ';', hasByteOrderMark: true });
}
