/*
 * Probe alerts (issue 15): the rules and the episode decision, without zod, so the web app's
 * first screens can read them without the schemas (alerts.ts re-exports them with the API
 * contract).
 */

/** Out of range must last this long before an episode opens (a delivery's open door does not page). */
export const defaultAlertDelayMinutes = 15;
export const alertDelayMinutesRange = { min: 0, max: 240 } as const;
/** A probe silent for this many posting intervals is offline. */
export const offlineIntervals = 2;
/** Battery below this percentage opens a low-battery episode. */
export const lowBatteryPercent = 20;
/** Minutes before an unacknowledged episode goes to the next level (per database). */
export const defaultEscalationMinutes = 30;
export const escalationMinutesRange = { min: 5, max: 1440 } as const;
/** 0 the store's owners, 1 the database's managers, 2 the distributor. */
export const lastEscalationLevel = 2;
export const correctiveActionMaxLength = 2000;

export const alertKinds = ['out_of_range', 'offline', 'low_battery'] as const;
export type AlertKind = (typeof alertKinds)[number];

/** Kinds that climb the escalation ladder; a low battery is told to the owners only. */
export function escalates(kind: AlertKind): boolean {
  return kind !== 'low_battery';
}

export type RangeRule = { minimum: number | null; maximum: number | null; delayMs: number };
export type AlertReading = { time: number; temperature: number };

/** How far a temperature lies outside the range (0 inside, or without bounds). */
export function deviation(temperature: number, rule: Pick<RangeRule, 'minimum' | 'maximum'>) {
  if (rule.maximum !== null && temperature > rule.maximum) return temperature - rule.maximum;
  if (rule.minimum !== null && temperature < rule.minimum) return rule.minimum - temperature;
  return 0;
}

export type RangeDecision =
  | { action: 'none' }
  | { action: 'open'; startedAt: number; worst: number; last: number }
  | { action: 'hold'; worst: number | null; last: number }
  | { action: 'resolve'; resolvedAt: number; last: number };

/**
 * The out-of-range decision for one probe at `now`, from its readings (ascending by time)
 * since at least `now − delay − 2 × interval`. The trailing run is the last readings that are
 * all out of range (or all in range). Without an open episode, one opens when the trailing
 * run is out of range and began at least `delay` ago (started at its first reading). An open
 * episode resolves when the trailing run is in range and began at least `delay` ago (resolved
 * at its first reading); otherwise it holds, whatever the values do meanwhile: flapping values
 * never open or close an episode more than once, and a gap of readings neither opens nor
 * resolves one (the last known state stands; the offline rule speaks for the silence).
 */
export function rangeDecision(
  readings: readonly AlertReading[],
  rule: RangeRule,
  now: number,
  isOpen: boolean,
): RangeDecision {
  const last = readings.at(-1);
  if (!last || (rule.minimum === null && rule.maximum === null)) {
    return isOpen && last
      ? { action: 'resolve', resolvedAt: last.time, last: last.temperature }
      : { action: 'none' };
  }
  const lastIsOut = deviation(last.temperature, rule) > 0;
  let runStart = last.time;
  let worst = lastIsOut ? last.temperature : null;
  for (let index = readings.length - 1; index >= 0; index -= 1) {
    const reading = readings[index] as AlertReading;
    const isOut = deviation(reading.temperature, rule) > 0;
    if (isOut !== lastIsOut) break;
    runStart = reading.time;
    if (
      isOut &&
      deviation(reading.temperature, rule) > deviation(worst ?? reading.temperature, rule)
    )
      worst = reading.temperature;
  }
  const sustained = now - runStart >= rule.delayMs;
  if (!isOpen) {
    return lastIsOut && sustained
      ? {
          action: 'open',
          startedAt: runStart,
          worst: worst ?? last.temperature,
          last: last.temperature,
        }
      : { action: 'none' };
  }
  if (!lastIsOut && sustained) {
    return { action: 'resolve', resolvedAt: runStart, last: last.temperature };
  }
  return { action: 'hold', worst, last: last.temperature };
}

/**
 * Offline: no reading for `offlineIntervals` posting intervals (a probe never heard from counts
 * from its registration). Resolves at the reading that broke the silence.
 */
export function isOffline(
  lastReadingAt: number | null,
  registeredAt: number,
  postingIntervalSeconds: number,
  now: number,
): boolean {
  const since = lastReadingAt ?? registeredAt;
  return now - since >= offlineIntervals * postingIntervalSeconds * 1000;
}

export function isLowBattery(batteryLevel: number | null): boolean {
  return batteryLevel !== null && batteryLevel < lowBatteryPercent;
}

/**
 * When an unacknowledged episode opened at `openedAt` reaches `level` (0 at opening, then one
 * level every `escalationMinutes`); null past the last level or for a kind that does not climb.
 */
export function escalationTime(
  kind: AlertKind,
  openedAt: number,
  level: number,
  escalationMinutes: number,
): number | null {
  if (level === 0) return openedAt;
  if (!escalates(kind) || level > lastEscalationLevel) return null;
  return openedAt + level * escalationMinutes * 60_000;
}
