import { DateTime } from 'luxon';
import type { RRule as RRuleClass, Weekday } from 'rrule';
import * as rruleModule from 'rrule';
import {
  defaultRecurrence,
  earliestTaskDay,
  type Frequency,
  latestTaskDay,
  type MonthPosition,
  minutesPerDay,
  monthPositions,
  type TaskWindowState,
  taskOpeningToleranceMinutes,
} from './constants';

/**
 * rrule ships CommonJS for Node (no named ESM exports there) and ESM for bundlers (no default
 * export): take the class from whichever shape the runtime gives.
 */
const RRule: typeof RRuleClass =
  (rruleModule as unknown as { default?: { RRule: typeof RRuleClass } }).default?.RRule ??
  (rruleModule as unknown as { RRule: typeof RRuleClass }).RRule;

/* ---------- Recurrence (spec 001 §2.6, §5; rrule strings, RFC 5545) ---------- */

/**
 * What the recurrence editor edits. Weekdays are 0 = Monday … 6 = Sunday (rrule's numbering).
 * Monthly and yearly rules repeat on a day of the month, or on a position (first … last) of a
 * weekday; yearly rules add the month.
 */
export type RecurrenceModel = {
  frequency: Frequency;
  interval: number;
  weekdays: number[];
  monthMode: 'day' | 'position';
  monthDay: number;
  position: MonthPosition;
  positionWeekday: number;
  month: number;
};

export const defaultRecurrenceModel: RecurrenceModel = {
  frequency: 3,
  interval: 1,
  weekdays: [0],
  monthMode: 'day',
  monthDay: 1,
  position: 1,
  positionWeekday: 0,
  month: 1,
};

const dayCodes = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
const frequencyCodes = ['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY'] as const;

const clamp = (value: number, min: number, max: number) =>
  Math.min(max, Math.max(min, Math.trunc(value)));

/**
 * The rule string of an editor model: FREQ and INTERVAL (minimum 1), BYDAY for weekly rules
 * (none chosen → Monday), BYMONTHDAY (1–31) or BYDAY with a position for monthly and yearly
 * rules, BYMONTH for yearly rules. No DTSTART: the anchor is the configuration's (see
 * `occursOn`), and no WKST: the store's week start applies when tasks are generated.
 */
export function buildRecurrence(model: RecurrenceModel): string {
  const parts = [
    `FREQ=${frequencyCodes[model.frequency]}`,
    `INTERVAL=${Math.max(1, Math.trunc(model.interval) || 1)}`,
  ];
  if (model.frequency === 2) {
    const days = [...new Set(model.weekdays.filter((day) => day >= 0 && day <= 6))].sort();
    parts.push(`BYDAY=${(days.length ? days : [0]).map((day) => dayCodes[day]).join(',')}`);
  }
  if (model.frequency === 0) parts.push(`BYMONTH=${clamp(model.month, 1, 12)}`);
  if (model.frequency === 0 || model.frequency === 1) {
    if (model.monthMode === 'day') parts.push(`BYMONTHDAY=${clamp(model.monthDay, 1, 31)}`);
    else {
      const position = monthPositions.includes(model.position) ? model.position : 1;
      parts.push(
        `BYDAY=${position > 0 ? `+${position}` : position}${dayCodes[clamp(model.positionWeekday, 0, 6)]}`,
      );
    }
  }
  return parts.join(';');
}

/** The editor model of a rule string; unknown or missing parts take the defaults. */
export function parseRecurrence(rule: string | null | undefined): RecurrenceModel {
  const model: RecurrenceModel = { ...defaultRecurrenceModel, weekdays: [] };
  const text = (rule || defaultRecurrence).replace(/^RRULE:/i, '');
  for (const part of text.split(';')) {
    const [rawKey, rawValue = ''] = part.split('=');
    const key = rawKey?.trim().toUpperCase();
    const value = rawValue.trim().toUpperCase();
    if (key === 'FREQ') {
      const index = frequencyCodes.indexOf(value as (typeof frequencyCodes)[number]);
      if (index >= 0) model.frequency = index as Frequency;
    } else if (key === 'INTERVAL') {
      model.interval = Math.max(1, Number.parseInt(value, 10) || 1);
    } else if (key === 'BYMONTHDAY') {
      model.monthMode = 'day';
      model.monthDay = clamp(Number.parseInt(value, 10) || 1, 1, 31);
    } else if (key === 'BYMONTH') {
      model.month = clamp(Number.parseInt(value, 10) || 1, 1, 12);
    } else if (key === 'BYDAY') {
      for (const item of value.split(',')) {
        const match = /^([+-]?\d)?(MO|TU|WE|TH|FR|SA|SU)$/.exec(item.trim());
        if (!match) continue;
        const day = dayCodes.indexOf(match[2] as (typeof dayCodes)[number]);
        if (match[1]) {
          const position = Number.parseInt(match[1], 10);
          model.monthMode = 'position';
          model.position = (monthPositions as readonly number[]).includes(position)
            ? (position as MonthPosition)
            : 1;
          model.positionWeekday = day;
        } else {
          model.weekdays.push(day);
        }
      }
    }
  }
  if (model.weekdays.length === 0) model.weekdays = [0];
  model.weekdays = [...new Set(model.weekdays)].sort();
  return model;
}

/** Largest INTERVAL accepted (the editor's field and the server agree). */
export const maximumRecurrenceInterval = 999;

/** Whether a rule string is one the editor can produce (and the server accepts). */
export function isValidRecurrence(rule: string): boolean {
  if (rule.length > 200) return false;
  const model = parseRecurrence(rule);
  if (model.interval > maximumRecurrenceInterval) return false;
  return buildRecurrence(model) === normalizeRecurrence(rule);
}

/** A rule rewritten the way buildRecurrence writes it. */
export function normalizeRecurrence(rule: string): string {
  return rule
    .replace(/^RRULE:/i, '')
    .split(';')
    .map((part) => part.trim().toUpperCase())
    .filter(Boolean)
    .join(';');
}

const weekdayObjects: Weekday[] = [
  RRule.MO,
  RRule.TU,
  RRule.WE,
  RRule.TH,
  RRule.FR,
  RRule.SA,
  RRule.SU,
];

/**
 * A compiled rule that answers whether a calendar day is selected. The anchor (the first
 * day the rule counts from, e.g. the configuration's creation day) decides which weeks,
 * months or years an interval above 1 selects; weekStart (0 = Monday … 6 = Sunday, the
 * store's week_start) decides where a week begins for weekly intervals.
 */
export function compileRecurrence(
  rule: string,
  anchor: string,
  weekStart: number,
): { occursOn(day: string): boolean; daysBetween(first: string, last: string): string[] } {
  const options = RRule.parseString(normalizeRecurrence(rule));
  const compiled = new RRule({
    ...options,
    dtstart: dayToUtc(anchor),
    wkst: weekdayObjects[clamp(weekStart, 0, 6)],
  });
  return {
    occursOn(day) {
      const instant = dayToUtc(day);
      return compiled.between(instant, instant, true).length > 0;
    },
    daysBetween(first, last) {
      return compiled.between(dayToUtc(first), dayToUtc(last), true).map(utcToDay);
    },
  };
}

function dayToUtc(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}
function utcToDay(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/* ---------- Schedules (spec 001 §4, §5, §9) ---------- */

export type ScheduleWindow = { start: number; end: number };

/**
 * 'schedule-incoherent' when the start is after the end; a start is a minute of the day
 * (0–1439), an end at most 1440.
 */
export function validateSchedule(window: ScheduleWindow): 'schedule-incoherent' | null {
  if (
    !Number.isInteger(window.start) ||
    !Number.isInteger(window.end) ||
    window.start < 0 ||
    window.start > minutesPerDay - 1 ||
    window.end > minutesPerDay ||
    window.start > window.end
  )
    return 'schedule-incoherent';
  return null;
}

/** Every window coherent and no two windows starting at the same minute. */
export function validateSchedules(
  windows: readonly ScheduleWindow[],
): 'schedule-incoherent' | null {
  if (windows.some((window) => validateSchedule(window))) return 'schedule-incoherent';
  if (new Set(windows.map((window) => window.start)).size !== windows.length)
    return 'schedule-incoherent';
  return null;
}

/** Stored lists (starts, durations) ↔ windows; duration = end − start. */
export function windowsFromLists(
  starts: readonly number[],
  durations: readonly number[],
): ScheduleWindow[] {
  return starts.map((start, index) => ({ start, end: start + (durations[index] ?? 0) }));
}
export function listsFromWindows(windows: readonly ScheduleWindow[]): {
  starts: number[];
  durations: number[];
} {
  const sorted = [...windows].sort(
    (left, right) => left.start - right.start || left.end - right.end,
  );
  return {
    starts: sorted.map((window) => window.start),
    durations: sorted.map((window) => window.end - window.start),
  };
}

/** Minutes of the day as 24-hour "HH:MM" (1440 → "24:00"). */
export function formatMinutes(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  return `${String(hours).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/**
 * The instant of a wall-clock minute of a calendar day in a time zone (schedules are the
 * store's local time). A minute that does not exist (spring-forward gap) moves forward by
 * the gap; a repeated one (fall-back) takes its first occurrence.
 */
export function localMinuteToInstant(day: string, minute: number, zone: string): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const midnight = DateTime.fromObject({ year, month, day: date }, { zone });
  const local = midnight.plus({ days: Math.floor(minute / minutesPerDay) }).set({
    hour: Math.floor((minute % minutesPerDay) / 60),
    minute: minute % 60,
  });
  return local.toJSDate();
}

/** A calendar day (YYYY-MM-DD) shifted by whole days. */
export function addDays(day: string, count: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + count * 86_400_000).toISOString().slice(0, 10);
}

/** Day formats by zone (null for a zone Intl does not know): built once, they are costly. */
const dayFormats = new Map<string, Intl.DateTimeFormat | null>();

function dayFormatOf(zone: string): Intl.DateTimeFormat | null {
  let format = dayFormats.get(zone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      });
    } catch {
      format = null;
    }
    dayFormats.set(zone, format);
  }
  return format;
}

/**
 * The calendar day (YYYY-MM-DD) of an instant in a time zone; the UTC day for a zone that
 * does not exist. Every request asks it: a cached Intl format instead of a luxon DateTime.
 */
export function dayInZone(instant: Date, zone: string): string {
  const format = dayFormatOf(zone);
  if (!format || Number.isNaN(instant.getTime())) return instant.toISOString().slice(0, 10);
  let year = '';
  let month = '';
  let day = '';
  for (const part of format.formatToParts(instant)) {
    if (part.type === 'year') year = part.value;
    else if (part.type === 'month') month = part.value;
    else if (part.type === 'day') day = part.value;
  }
  return `${year.padStart(4, '0')}-${month}-${day}`;
}

export {
  taskEnd,
  taskStatus,
  temperatureControlValid,
  temperatureInRange,
  validatePattern,
  validatePin,
} from './checks';

/* ---------- Completion window (ARCHITECTURE "The tablet app"; issue 13) ---------- */

/** A calendar day YYYY-MM-DD that exists (2026-02-30 does not) within the accepted range. */
export function isValidTaskDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const milliseconds = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(milliseconds) || !new Date(milliseconds).toISOString().startsWith(day))
    return false;
  return day >= earliestTaskDay && day <= latestTaskDay;
}

export type TaskWindow = {
  /** First instant a result is accepted: start − taskOpeningToleranceMinutes (included). */
  opensAt: Date;
  /** The end of the task's store day, its next local midnight (excluded). */
  closesAt: Date;
};

/**
 * When a task can be completed (or corrected, or postponed): from its start less the
 * documented tolerance until the end of its store day (the store's zone).
 */
export function taskWindow(task: { start: Date; day: string }, zone: string): TaskWindow {
  return {
    opensAt: new Date(task.start.getTime() - taskOpeningToleranceMinutes * 60_000),
    closesAt: localMinuteToInstant(task.day, minutesPerDay, zone),
  };
}

/**
 * How long after its window closed a record made inside it on a tablet (offline, or a network
 * cut) may still reach the server and be kept at the time it was made.
 */
export const lateDeliveryGraceHours = 24;

/**
 * When a tablet made a record, on the server's clock: the time the tablet reported, moved by
 * how far the tablet's clock was from the server's when it sent the record (`now − sentAt`;
 * sentAt is the tablet's clock at sending). A wrong tablet clock thus cancels out; only a clock
 * changed between making and sending could move the time, within the grace. Null without both
 * times, or when it would fall after `now`.
 */
export function madeAtOnServerClock(
  reportedAt: Date | null,
  sentAt: Date | null,
  now: Date,
): Date | null {
  if (!reportedAt || !sentAt) return null;
  const madeAt = new Date(reportedAt.getTime() + (now.getTime() - sentAt.getTime()));
  return madeAt.getTime() <= now.getTime() ? madeAt : null;
}

/**
 * The instant a tablet's write is judged at (issue 13's completion window): `now`, unless the
 * window has closed and the record was made inside it within `lateDeliveryGraceHours` — a
 * reading taken at 23:55 reaching the server at 00:10 after a network cut is kept at 23:55.
 */
export function writeInstant(window: TaskWindow, madeAt: Date | null, now: Date): Date {
  if (taskWindowState(window, now) !== 'closed' || !isWithinLateGrace(madeAt, now)) return now;
  return taskWindowState(window, madeAt) === 'open' ? madeAt : now;
}

/**
 * The instant a tablet's record with no window (a punch, an unscheduled task) is kept at: when
 * it was made, on the server's clock, if it arrives within the grace (`reported` is the
 * tablet's ISO time, `sentAt` its clock at sending); otherwise `now`.
 */
export function madeAtWithinGrace(
  reported: string | undefined,
  sentAt: Date | null,
  now: Date,
): Date {
  const madeAt = madeAtOnServerClock(reported ? new Date(reported) : null, sentAt, now);
  return isWithinLateGrace(madeAt, now) ? madeAt : now;
}

/** Whether a record made at `madeAt` (server clock) arrives within the late-delivery grace. */
export function isWithinLateGrace(madeAt: Date | null, now: Date): madeAt is Date {
  return madeAt !== null && now.getTime() - madeAt.getTime() <= lateDeliveryGraceHours * 3_600_000;
}

/** not_open_yet before opensAt, open from opensAt (included) to closesAt (excluded), then closed. */
export function taskWindowState(window: TaskWindow, now: Date): TaskWindowState {
  if (now.getTime() < window.opensAt.getTime()) return 'not_open_yet';
  if (now.getTime() >= window.closesAt.getTime()) return 'closed';
  return 'open';
}
