/** Business constants of tasks (spec 001 §3.6, §3.7, §5, §9; spec 002 §3, §4). */

/** Modules a task configuration can be created with (spec 001 §2.6). */
export const configurationModules = ['temperatures', 'actions', 'oils'] as const;
export type ConfigurationModule = (typeof configurationModules)[number];

/** Modules a task can carry (spec 002 §3). */
export const taskModules = [
  'actions',
  'temperatures',
  'traceability',
  'oils',
  'temperature_control',
] as const;
export type TaskModule = (typeof taskModules)[number];

/** Default colour of a task type (spec 001 §9). */
export const defaultTaskTypeColor = '#454eff';

/**
 * Task configuration fields that inherit from the database (spec 001 §3.6), in lock order.
 * `schedule` stands for the starts and durations lists together.
 */
export const taskConfigurationFieldKeys = [
  'active',
  'configuration',
  'description',
  'schedule',
  'name',
  'recurrence',
  'requires_manager',
  'type_id',
  'notify_late',
] as const;
export type TaskConfigurationFieldKey = (typeof taskConfigurationFieldKeys)[number];
export const defaultTaskConfigurationLocks: Record<TaskConfigurationFieldKey, boolean> =
  Object.fromEntries(taskConfigurationFieldKeys.map((key) => [key, true])) as Record<
    TaskConfigurationFieldKey,
    boolean
  >;

/** Recurrence frequency codes, rrule's own (spec 001 §5): 0 yearly, 1 monthly, 2 weekly, 3 daily. */
export const frequencies = { yearly: 0, monthly: 1, weekly: 2, daily: 3 } as const;
export type Frequency = 0 | 1 | 2 | 3;
/** Monthly positions: first, second, third, fourth, last. */
export const monthPositions = [1, 2, 3, 4, -1] as const;
export type MonthPosition = (typeof monthPositions)[number];
/** Default recurrence: daily, interval 1 (spec 001 §9). */
export const defaultRecurrence = 'FREQ=DAILY;INTERVAL=1';

/** Minutes in a day: schedule windows lie within [0, 1440]. */
export const minutesPerDay = 1440;

/** Task-generation event types (spec 002 §3). */
export const taskGenerationEventTypes = {
  programStarting: 0,
  error: 1,
  warning: 2,
  storeGenerationStarted: 3,
  taskGenerated: 4,
} as const;
export type TaskGenerationEventType = 0 | 1 | 2 | 3 | 4;

/**
 * A task opens for completion this many minutes before its start (the tablet may record a
 * check a little early, e.g. a fridge round begun before the hour), and closes at the end of
 * its store day (the next local midnight of the task's day in the store's zone).
 */
export const taskOpeningToleranceMinutes = 30;

/** Where a task stands against its completion window (device day list, device writes). */
export const taskWindowStates = ['not_open_yet', 'open', 'closed'] as const;
export type TaskWindowState = (typeof taskWindowStates)[number];

/**
 * Calendar days the API accepts for a store's day (a sane range: a day outside it cannot be a
 * task's day, and PostgreSQL's date type refuses year 0).
 */
export const earliestTaskDay = '2000-01-01';
export const latestTaskDay = '2099-12-31';

/** Task statuses (spec 002 §4). */
export const taskStatuses = [
  'done',
  'done-late',
  'late',
  'on-time',
  'postponed',
  'non-finalized',
] as const;
export type TaskStatus = (typeof taskStatuses)[number];

/** Badge colours (spec 002 §4): postponed orange, done and done-late green, late pink, on-time blue. */
export const taskStatusColors: Record<TaskStatus, string> = {
  postponed: 'orange',
  done: 'green',
  'done-late': 'green',
  late: 'pink',
  'on-time': 'blue',
  'non-finalized': 'pink',
};

/** Module badge colours (spec 000 §4, home tasks panel). */
export const taskModuleColors: Record<TaskModule, string> = {
  actions: 'grape',
  temperatures: 'indigo',
  traceability: 'pink',
  oils: 'yellow',
  temperature_control: 'cyan',
};

/** Employee authentication on a tablet (spec 000 §5, §9). */
export const pinLength = 4;
export const patternMinimumPoints = 3;
export const patternPoints = 9;
/** Failed PIN/pattern attempts per employee and device before a lockout, and its length. */
export const employeeAuthMaxFailures = 5;
export const employeeAuthLockoutMinutes = 15;

/** Limits of a configuration. */
export const maxSchedulesPerConfiguration = 24;
export const maxElementsPerConfiguration = 200;
export const maxActionsPerConfiguration = 100;
