/**
 * What the task-configurations feature offers other features' screens (the bulk task grid):
 * the recurrence and schedule editors, the recurrence in words, the task types.
 */
export { type TaskTypeInput, useSaveTaskType, useTaskTypes } from './api/get-task-types';
export { taskConfigurationsQueryKey } from './api/task-configuration-query-keys';
export { describeRecurrence } from './components/describe-recurrence';
export { RecurrenceEditor } from './components/recurrence-editor';
export { SchedulesEditor } from './components/schedules-editor';
