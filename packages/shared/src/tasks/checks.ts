import { patternMinimumPoints, patternPoints, type TaskStatus } from './constants';

/*
 * The spec's task checks that need no calendar library: the tablet app imports this file
 * (rules.ts, which needs luxon and rrule, re-exports it for the server and the web).
 */

/* ---------- Task status (spec 002 §4) ---------- */

/** End of a task: start plus duration in minutes. */
export function taskEnd(start: Date, durationMinutes: number): Date {
  return new Date(start.getTime() + durationMinutes * 60_000);
}

/**
 * - postponed when the task was postponed;
 * - done when completed at or before start + duration, done-late when after;
 * - late when not completed and the end has passed (now after the end), shown as
 *   non-finalized when the task is of a day other than today;
 * - on-time otherwise.
 */
export function taskStatus(
  task: { start: Date; duration: number; completedAt: Date | null; postponed: boolean },
  now: Date,
  isToday: boolean,
): TaskStatus {
  if (task.postponed) return 'postponed';
  const end = taskEnd(task.start, task.duration);
  if (task.completedAt) return task.completedAt.getTime() <= end.getTime() ? 'done' : 'done-late';
  if (now.getTime() > end.getTime()) return isToday ? 'late' : 'non-finalized';
  return 'on-time';
}

/* ---------- Readings (spec 002 §4) ---------- */

/** In range when the value lies within the element's minimum and maximum (bounds included). */
export function temperatureInRange(
  value: number | null | undefined,
  minimum: number | null,
  maximum: number | null,
): boolean {
  if (value === null || value === undefined) return true;
  if (minimum !== null && value < minimum) return false;
  if (maximum !== null && value > maximum) return false;
  return true;
}

/** Temperature control is invalid when cooling ends above target or reheating ends below it. */
export function temperatureControlValid(
  mode: 'cooling' | 'reheating',
  endTemperature: number | null,
  target: number | null,
): boolean {
  if (endTemperature === null || target === null) return true;
  return mode === 'cooling' ? endTemperature <= target : endTemperature >= target;
}

/* ---------- Employee authentication (spec 000 §5) ---------- */

export function validatePin(pin: string): 'invalid-password' | null {
  return /^\d{4}$/.test(pin) ? null : 'invalid-password';
}

export function validatePattern(
  points: readonly number[],
): 'pattern-too-short' | 'invalid-pattern' | null {
  if (points.some((point) => !Number.isInteger(point) || point < 0 || point >= patternPoints))
    return 'invalid-pattern';
  if (new Set(points).size !== points.length) return 'invalid-pattern';
  if (points.length < patternMinimumPoints) return 'pattern-too-short';
  return null;
}
