import type { TaskModule, TaskStatus } from '../tasks/constants';
import { addDays, temperatureControlValid, temperatureInRange } from '../tasks/rules';
import {
  type AnomalyReason,
  type EquipmentState,
  type HistoryFilter,
  maxHistoryRangeDays,
  minimumDisplayedDurationSeconds,
  scoreWeights,
} from './constants';

/*
 * The spec's pure rules of history and the home dashboard (spec 002 §2, §4, §5; spec 000 §2).
 * The server applies them when it writes and reads tasks; the web app shows their outcome.
 */

/* ---------- Range (spec 002 §5) ---------- */

/** Calendar days from start to end, both included (YYYY-MM-DD); negative when end < start. */
export function rangeDays(start: string, end: string): number {
  return Math.round((utcDayMs(end) - utcDayMs(start)) / 86_400_000) + 1;
}

/** A calendar day's UTC midnight in milliseconds; NaN for anything but an existing YYYY-MM-DD. */
function utcDayMs(day: string): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return Number.NaN;
  const milliseconds = Date.parse(`${day}T00:00:00Z`);
  // Date.parse takes 2026-02-30 for 2026-03-02: the day must read back the same.
  return !Number.isNaN(milliseconds) && new Date(milliseconds).toISOString().startsWith(day)
    ? milliseconds
    : Number.NaN;
}

/** 'date-range-too-long' beyond 31 days; 'validation/invalid-input' when end is before start. */
export function validateHistoryRange(
  start: string,
  end: string,
): 'date-range-too-long' | 'validation/invalid-input' | null {
  const days = rangeDays(start, end);
  if (!Number.isFinite(days) || days < 1) return 'validation/invalid-input';
  if (days > maxHistoryRangeDays) return 'date-range-too-long';
  return null;
}

/* ---------- Readings (spec 002 §4) ---------- */

export type ElementBounds = {
  id: string;
  minimum_temperature: number | null;
  maximum_temperature: number | null;
  maximum_polarity?: number | null;
};

/** A temperature reading: in range when the temperature and the control temperature (if any) are. */
export function readingInRange(
  reading: { temperature: number | null; control_temperature?: number | null },
  element: Pick<ElementBounds, 'minimum_temperature' | 'maximum_temperature'> | undefined,
): boolean {
  const minimum = element?.minimum_temperature ?? null;
  const maximum = element?.maximum_temperature ?? null;
  return (
    temperatureInRange(reading.temperature, minimum, maximum) &&
    temperatureInRange(reading.control_temperature ?? null, minimum, maximum)
  );
}

/**
 * A fridge's (or delivery element's) state over a day from its readings: in range when every
 * reading is, out of range when every reading is out, mixed when both happened, no data when
 * it was not read (readings not taken do not count).
 */
export function equipmentState(readingsInRange: readonly boolean[]): EquipmentState {
  const inside = readingsInRange.filter(Boolean).length;
  return equipmentStateOfCounts(inside, readingsInRange.length - inside);
}

/** The same from the counts of readings in and out of range. */
export function equipmentStateOfCounts(inRange: number, outOfRange: number): EquipmentState {
  if (inRange + outOfRange === 0) return 'no-data';
  if (outOfRange === 0) return 'in-range';
  if (inRange === 0) return 'out-of-range';
  return 'mixed';
}

/** Displayed duration of a temperature control: end − start, never under 60 s (spec 002 §9). */
export function displayedDurationSeconds(
  startTimestamp: number | null,
  endTimestamp: number | null,
): number | null {
  if (startTimestamp === null || endTimestamp === null) return null;
  return Math.max(minimumDisplayedDurationSeconds, endTimestamp - startTimestamp);
}

/* ---------- Anomalies ---------- */

type Entry = Record<string, unknown>;
const numberOrNull = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/**
 * What is wrong with a recorded result, by module:
 * - temperatures: a reading outside the element's minimum/maximum (temperature or control
 *   temperature), or a reading not taken ('Non prise');
 * - oils: polarity above the element's maximum polarity;
 * - temperature control: cooling ending above the target or reheating ending below it;
 * - actions: an action not done;
 * - traceability: nothing (pictures only).
 * Unknown shapes answer no reason: a result that cannot be read is not flagged twice.
 */
export function resultAnomalies(
  module: TaskModule,
  elements: readonly ElementBounds[],
  result: unknown,
): AnomalyReason[] {
  const entries = (result as { entries?: unknown } | null)?.entries;
  if (!Array.isArray(entries)) return [];
  const byId = new Map(elements.map((element) => [element.id, element]));
  const reasons = new Set<AnomalyReason>();
  for (const entry of entries as Entry[]) {
    if (!entry || typeof entry !== 'object') continue;
    const element = typeof entry.element === 'string' ? byId.get(entry.element) : undefined;
    switch (module) {
      case 'temperatures': {
        const temperature = numberOrNull(entry.temperature);
        if (temperature === null) reasons.add('temperature-not-taken');
        else if (
          !readingInRange(
            { temperature, control_temperature: numberOrNull(entry.control_temperature) },
            element,
          )
        )
          reasons.add('temperature-out-of-range');
        break;
      }
      case 'oils': {
        const polarity = numberOrNull(entry.polarity);
        const maximum = element?.maximum_polarity ?? null;
        if (polarity !== null && maximum !== null && polarity > maximum)
          reasons.add('polarity-too-high');
        break;
      }
      case 'temperature_control': {
        const mode = entry.mode === 'reheating' ? 'reheating' : 'cooling';
        if (
          !temperatureControlValid(
            mode,
            numberOrNull(entry.end_temperature),
            numberOrNull(entry.target_temperature),
          )
        )
          reasons.add('temperature-control-failed');
        break;
      }
      case 'actions':
        if (entry.done === false) reasons.add('action-not-done');
        break;
      default:
        break;
    }
  }
  return [...reasons];
}

/** Late statuses: completed after the end, or not completed once the end has passed. */
export function isLateStatus(status: TaskStatus): boolean {
  return status === 'done-late' || status === 'late' || status === 'non-finalized';
}

/**
 * A task is an anomaly when it is late (done late, late, non-finalized) or its result has
 * an anomaly. Postponed and on-time tasks are not.
 */
export function taskAnomalies(status: TaskStatus, resultReasons: readonly AnomalyReason[]) {
  if (status === 'postponed' || status === 'on-time') return [];
  return isLateStatus(status)
    ? (['late', ...resultReasons] as AnomalyReason[])
    : [...resultReasons];
}

/**
 * Which tasks a history filter shows (spec 002 §2). On-time tasks never show; completed is
 * done and done-late; anomaly is a task with at least one anomaly; all is every other task.
 */
export function historyIncludes(
  status: TaskStatus,
  isAnomaly: boolean,
  filter: HistoryFilter,
): boolean {
  if (status === 'on-time') return false;
  if (filter === 'completed') return status === 'done' || status === 'done-late';
  if (filter === 'anomaly') return isAnomaly;
  return true;
}

/* ---------- Restaurant score (spec 000 §2) ---------- */

/** Due tasks of the score window, by outcome. */
export type ScoreCounts = {
  onTime: number;
  onTimeWithAnomaly: number;
  late: number;
  lateWithAnomaly: number;
  missed: number;
};

export const emptyScoreCounts: ScoreCounts = {
  onTime: 0,
  onTimeWithAnomaly: 0,
  late: 0,
  lateWithAnomaly: 0,
  missed: 0,
};

export type ScoreClass = keyof ScoreCounts;

/**
 * Which score count a task falls in, or null when it is not due: on-time (not yet due) and
 * postponed tasks do not count (the postponed task's copy counts in their place).
 */
export function scoreClassOf(status: TaskStatus, hasResultAnomaly: boolean): ScoreClass | null {
  switch (status) {
    case 'done':
      return hasResultAnomaly ? 'onTimeWithAnomaly' : 'onTime';
    case 'done-late':
      return hasResultAnomaly ? 'lateWithAnomaly' : 'late';
    case 'late':
    case 'non-finalized':
      return 'missed';
    default:
      return null;
  }
}

/** Due tasks of the window. */
export function dueTaskCount(counts: ScoreCounts): number {
  return (
    counts.onTime + counts.onTimeWithAnomaly + counts.late + counts.lateWithAnomaly + counts.missed
  );
}

/**
 * The store's score out of 100, rounded to a whole number: the average credit of its due
 * tasks — done on time 1, done late 0.5, not done 0, halved when the recorded result has an
 * anomaly. Null (no score) when no task was due.
 */
export function storeScore(counts: ScoreCounts): number | null {
  const due = dueTaskCount(counts);
  if (due === 0) return null;
  const { onTime, late, missed, anomalyFactor } = scoreWeights;
  const credit =
    counts.onTime * onTime +
    counts.onTimeWithAnomaly * onTime * anomalyFactor +
    counts.late * late +
    counts.lateWithAnomaly * late * anomalyFactor +
    counts.missed * missed;
  return Math.round((100 * credit) / due);
}

/** The first day of the score window ending on `today` (both included). */
export function scoreWindowStart(today: string, days: number): string {
  if (Number.isNaN(Date.parse(`${today}T00:00:00Z`))) return today;
  return addDays(today, 1 - days);
}

/* ---------- Probe records (issue 15) ---------- */

/**
 * Whether a day of a bound probe went beyond the element's bounds (its lowest reading under
 * the minimum or its highest over the maximum); a bound left empty does not count.
 */
export function probeDayOutOfRange(
  day: { minimum: number; maximum: number },
  bounds: { minimum_temperature: number | null; maximum_temperature: number | null },
): boolean {
  return (
    (bounds.minimum_temperature !== null && day.minimum < bounds.minimum_temperature) ||
    (bounds.maximum_temperature !== null && day.maximum > bounds.maximum_temperature)
  );
}
