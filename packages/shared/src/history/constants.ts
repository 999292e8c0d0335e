/** Business constants of history, task detail and the home dashboard (spec 002 §2, §4, §5, §9; spec 000 §2, §9). */
import type { TaskModule } from '../tasks/constants';

/** Longest history range, in calendar days, both ends included (spec 002 §5, §9). */
export const maxHistoryRangeDays = 31;
/** How long the 'date-range-too-long' toast stays (spec 002 §9). */
export const historyRangeToastMs = 4000;

/** History filter, single choice; completed is the default (spec 002 §2). */
export const historyFilters = ['completed', 'anomaly', 'all'] as const;
export type HistoryFilter = (typeof historyFilters)[number];
export const defaultHistoryFilter: HistoryFilter = 'completed';

/** History pages: tasks per page by default and at most (newest first, "show more" for the rest). */
export const historyPageSize = 100;
export const historyMaxPageSize = 500;

/** History tabs, in the spec's order (spec 002 §2). */
export const historyTabs = [
  'temperatures',
  'traceability',
  'oils',
  'actions',
  'temperature_control',
] as const satisfies readonly TaskModule[];

/** A temperature control's displayed duration is never under 60 seconds (spec 002 §9). */
export const minimumDisplayedDurationSeconds = 60;

/**
 * Why a task is an anomaly. Result anomalies are decided once, when the result is written
 * (the task row keeps `result_anomaly`); lateness depends on the time and is decided on read.
 */
export const anomalyReasons = [
  'late',
  'temperature-out-of-range',
  'temperature-not-taken',
  'polarity-too-high',
  'temperature-control-failed',
  'action-not-done',
] as const;
export type AnomalyReason = (typeof anomalyReasons)[number];

/** Restaurant score (spec 000 §2): computed over the store's last 30 days, today included. */
export const scoreWindowDays = 30;
/**
 * Credit of one due task: done on time 1, done late 0.5, not done 0; a recorded result with
 * an anomaly (out of range, failed control, action not done, reading not taken) halves it.
 */
export const scoreWeights = {
  onTime: 1,
  late: 0.5,
  missed: 0,
  anomalyFactor: 0.5,
} as const;
/** Best-stores panel: top 5 by score (spec 000 §9). */
export const bestStoresCount = 5;

/** Equipment state of a fridge or delivery element over a day (spec 002 §4). */
export const equipmentStates = ['in-range', 'mixed', 'out-of-range', 'no-data'] as const;
export type EquipmentState = (typeof equipmentStates)[number];
/** Badge colours of the equipment states (spec 000 §2): green, orange, red. */
export const equipmentStateColors: Record<EquipmentState, string> = {
  'in-range': 'green',
  mixed: 'orange',
  'out-of-range': 'red',
  'no-data': 'gray',
};
/** How far back the oils panel looks for the last reading and the last oil change. */
export const oilHistoryDays = 90;
