import type { TaskModule } from '../tasks/constants';
import { temperatureControlValid, temperatureInRange } from '../tasks/rules';
import { displayedDurationSeconds, readingInRange } from './rules';
import type { HistoryTask } from './schemas';

/*
 * A task's result as the rows of its result table (spec 002 §2 "Result tables by module"):
 * one line per entry (an element, or an action), with the values the history screen, the PDF
 * and the CSV exports show. Pure: the renderers only format what is decided here.
 *
 * Results are read defensively (like resultAnomalies): a value of the wrong type reads as
 * absent, an entry that is not an object is skipped, a result without entries has no line.
 */

/** Every column a result table can show; each module shows some of them (resultColumns). */
export type ResultColumn =
  | 'element'
  | 'action'
  | 'first_temperature'
  | 'temperature'
  | 'control_temperature'
  | 'comment'
  | 'pictures'
  | 'done'
  | 'picture'
  | 'cleaned'
  | 'oil_changed'
  | 'oil_filtered'
  | 'filter_changed'
  | 'polarity'
  | 'mode'
  | 'start_temperature'
  | 'start_timestamp'
  | 'end_temperature'
  | 'end_timestamp'
  | 'target_temperature'
  | 'duration_seconds';

/** The columns of each module's result table, in display order (spec 002 §2). */
export const resultColumnsByModule = {
  temperatures: [
    'element',
    'first_temperature',
    'temperature',
    'control_temperature',
    'comment',
    'pictures',
  ],
  traceability: ['element', 'pictures'],
  actions: ['action', 'done', 'picture'],
  oils: [
    'element',
    'cleaned',
    'oil_changed',
    'oil_filtered',
    'filter_changed',
    'polarity',
    'temperature',
    'pictures',
  ],
  temperature_control: [
    'element',
    'mode',
    'start_temperature',
    'start_timestamp',
    'end_temperature',
    'end_timestamp',
    'target_temperature',
    'duration_seconds',
    'comment',
  ],
} as const satisfies Record<TaskModule, readonly ResultColumn[]>;

/** The column keys of a module's result table, in display order. */
export function resultColumns(module: TaskModule): readonly ResultColumn[] {
  return resultColumnsByModule[module];
}

type LineBase = {
  /** Columns whose value is shown in red (out of range, failed, not done, too high). */
  alertColumns: ResultColumn[];
  /** The line carries an anomaly (what resultAnomalies counts for the task). */
  hasAnomaly: boolean;
};

/** Temperatures: a reading of an element. A null temperature was not taken ('Non prise'). */
export type TemperatureResultLine = LineBase & {
  module: 'temperatures';
  element_id: string;
  element: string;
  first_temperature: number | null;
  temperature: number | null;
  control_temperature: number | null;
  comment: string;
  /** When the reading was taken (seconds since the epoch), when the tablet sent it. */
  timestamp: number | null;
  pictures: number;
  picture_paths: string[];
  minimum_temperature: number | null;
  maximum_temperature: number | null;
  isNotTaken: boolean;
  /** The temperature or the control temperature lies outside the element's bounds. */
  isOutOfRange: boolean;
};

/** Traceability: the pictures taken of an element. */
export type TraceabilityResultLine = LineBase & {
  module: 'traceability';
  element_id: string;
  element: string;
  pictures: number;
  picture_paths: string[];
};

/** Actions: an action of the task, done or not, with its photo when one was taken. */
export type ActionResultLine = LineBase & {
  module: 'actions';
  index: number;
  action: string;
  done: boolean;
  requires_picture: boolean;
  hasPicture: boolean;
  pictures: number;
  picture_paths: string[];
};

/** Oils: a fryer's checks. A null polarity was not taken; the temperature may be absent. */
export type OilResultLine = LineBase & {
  module: 'oils';
  element_id: string;
  element: string;
  cleaned: boolean;
  oil_changed: boolean;
  oil_filtered: boolean;
  filter_changed: boolean;
  /** Polar compounds, percent. */
  polarity: number | null;
  temperature: number | null;
  pictures: number;
  picture_paths: string[];
  maximum_polarity: number | null;
  isPolarityTooHigh: boolean;
};

/** Temperature control: a cooling or a reheating, timestamps in seconds. */
export type TemperatureControlResultLine = LineBase & {
  module: 'temperature_control';
  element_id: string;
  element: string;
  mode: 'cooling' | 'reheating';
  start_temperature: number | null;
  start_timestamp: number | null;
  end_temperature: number | null;
  end_timestamp: number | null;
  target_temperature: number | null;
  comment: string;
  /** Who recorded the start and the end ('' when not recorded). */
  start_employee: string;
  end_employee: string;
  /** End − start, never under 60 s (spec 002 §9); null when a timestamp is missing. */
  duration_seconds: number | null;
  /** Cooling ended above the target or reheating below it: 'Hors plage' (spec 002 §4). */
  isFailed: boolean;
};

export type ResultLine =
  | TemperatureResultLine
  | TraceabilityResultLine
  | ActionResultLine
  | OilResultLine
  | TemperatureControlResultLine;

type Entry = Record<string, unknown>;
type TaskElement = HistoryTask['elements'][number];

const numberOrNull = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const isTrue = (value: unknown): boolean => value === true;

/** 'Name Surname' of an employee object ({ name, surname }), '' when absent. */
function personName(value: unknown): string {
  if (!value || typeof value !== 'object') return '';
  const person = value as { name?: unknown; surname?: unknown };
  return `${text(person.name)} ${text(person.surname)}`.trim();
}

function picturePaths(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const paths: string[] = [];
  for (const picture of value) {
    const path = (picture as { path?: unknown } | null)?.path;
    if (typeof path === 'string') paths.push(path);
  }
  return paths;
}

function temperatureLine(entry: Entry, element: TaskElement | undefined): TemperatureResultLine {
  const minimum = element?.minimum_temperature ?? null;
  const maximum = element?.maximum_temperature ?? null;
  const firstTemperature = numberOrNull(entry.first_temperature);
  const temperature = numberOrNull(entry.temperature);
  const controlTemperature = numberOrNull(entry.control_temperature);
  const isNotTaken = temperature === null;
  const isOutOfRange =
    !isNotTaken &&
    !readingInRange({ temperature, control_temperature: controlTemperature }, element);
  const alertColumns: ResultColumn[] = [];
  if (firstTemperature !== null && !temperatureInRange(firstTemperature, minimum, maximum))
    alertColumns.push('first_temperature');
  if (isNotTaken || !temperatureInRange(temperature, minimum, maximum))
    alertColumns.push('temperature');
  if (!isNotTaken && !temperatureInRange(controlTemperature, minimum, maximum))
    alertColumns.push('control_temperature');
  const paths = picturePaths(entry.pictures);
  return {
    module: 'temperatures',
    element_id: text(entry.element),
    element: element?.name ?? text(entry.element),
    first_temperature: firstTemperature,
    temperature,
    control_temperature: controlTemperature,
    comment: text(entry.comment),
    timestamp: numberOrNull(entry.timestamp),
    pictures: paths.length,
    picture_paths: paths,
    minimum_temperature: minimum,
    maximum_temperature: maximum,
    isNotTaken,
    isOutOfRange,
    alertColumns,
    hasAnomaly: isNotTaken || isOutOfRange,
  };
}

function traceabilityLine(entry: Entry, element: TaskElement | undefined): TraceabilityResultLine {
  const paths = picturePaths(entry.pictures);
  return {
    module: 'traceability',
    element_id: text(entry.element),
    element: element?.name ?? text(entry.element),
    pictures: paths.length,
    picture_paths: paths,
    alertColumns: [],
    hasAnomaly: false,
  };
}

function actionLine(entry: Entry, position: number, task: HistoryTask): ActionResultLine {
  const index = numberOrNull(entry.index) ?? position;
  const configured = task.actions[index];
  const path = (entry.picture as { path?: unknown } | null | undefined)?.path;
  const paths = typeof path === 'string' ? [path] : [];
  // resultAnomalies counts an action as not done only when `done` is false.
  const isNotDone = entry.done === false;
  return {
    module: 'actions',
    index,
    action: text(entry.action) || configured?.name || '',
    done: isTrue(entry.done),
    requires_picture:
      typeof entry.requires_picture === 'boolean'
        ? entry.requires_picture
        : (configured?.requires_picture ?? false),
    hasPicture: paths.length > 0,
    pictures: paths.length,
    picture_paths: paths,
    alertColumns: isNotDone ? ['done'] : [],
    hasAnomaly: isNotDone,
  };
}

function oilLine(entry: Entry, element: TaskElement | undefined): OilResultLine {
  const polarity = numberOrNull(entry.polarity);
  const maximumPolarity = element?.maximum_polarity ?? null;
  const isPolarityTooHigh =
    polarity !== null && maximumPolarity !== null && polarity > maximumPolarity;
  const paths = picturePaths(entry.pictures);
  return {
    module: 'oils',
    element_id: text(entry.element),
    element: element?.name ?? text(entry.element),
    cleaned: isTrue(entry.cleaned),
    oil_changed: isTrue(entry.oil_changed),
    oil_filtered: isTrue(entry.oil_filtered),
    filter_changed: isTrue(entry.filter_changed),
    polarity,
    temperature: numberOrNull(entry.temperature),
    pictures: paths.length,
    picture_paths: paths,
    maximum_polarity: maximumPolarity,
    isPolarityTooHigh,
    alertColumns: isPolarityTooHigh ? ['polarity'] : [],
    hasAnomaly: isPolarityTooHigh,
  };
}

function temperatureControlLine(
  entry: Entry,
  element: TaskElement | undefined,
): TemperatureControlResultLine {
  // Same reading as resultAnomalies: anything but 'reheating' is a cooling.
  const mode = entry.mode === 'reheating' ? 'reheating' : 'cooling';
  const startTimestamp = numberOrNull(entry.start_timestamp);
  const endTimestamp = numberOrNull(entry.end_timestamp);
  const endTemperature = numberOrNull(entry.end_temperature);
  const target = numberOrNull(entry.target_temperature);
  const isFailed = !temperatureControlValid(mode, endTemperature, target);
  return {
    module: 'temperature_control',
    element_id: text(entry.element),
    element: element?.name ?? text(entry.element),
    mode,
    start_temperature: numberOrNull(entry.start_temperature),
    start_timestamp: startTimestamp,
    end_temperature: endTemperature,
    end_timestamp: endTimestamp,
    target_temperature: target,
    comment: text(entry.comment),
    start_employee: personName(entry.start_employee),
    end_employee: personName(entry.end_employee),
    duration_seconds: displayedDurationSeconds(startTimestamp, endTimestamp),
    isFailed,
    alertColumns: isFailed ? ['end_temperature', 'target_temperature'] : [],
    hasAnomaly: isFailed,
  };
}

/**
 * The lines of a task's result table, one per result entry, in the entries' order. A task
 * without a result (late, postponed, non-finalized) has no line.
 */
export function resultLines(task: HistoryTask): ResultLine[] {
  const entries = (task.result as { entries?: unknown } | null | undefined)?.entries;
  if (!Array.isArray(entries)) return [];
  const elements = new Map(task.elements.map((element) => [element.id, element]));
  const lines: ResultLine[] = [];
  entries.forEach((value, position) => {
    if (!value || typeof value !== 'object') return;
    const entry = value as Entry;
    const element = typeof entry.element === 'string' ? elements.get(entry.element) : undefined;
    switch (task.module) {
      case 'temperatures':
        lines.push(temperatureLine(entry, element));
        break;
      case 'traceability':
        lines.push(traceabilityLine(entry, element));
        break;
      case 'actions':
        lines.push(actionLine(entry, position, task));
        break;
      case 'oils':
        lines.push(oilLine(entry, element));
        break;
      case 'temperature_control':
        lines.push(temperatureControlLine(entry, element));
        break;
    }
  });
  return lines;
}
