/**
 * What the task-configurations feature offers other features' screens: the Tasks tab of the
 * database and store screens.
 */

export { StoreTasksTab, type StoreTasksTabProps } from './components/store-tasks-tab';
export {
  TaskConfigurationList,
  type TaskConfigurationListProps,
} from './components/task-configuration-list';
