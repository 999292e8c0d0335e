import type { TaskElementSnapshot } from '../../db/schema';

/**
 * A store's effective, active task configuration as task generation needs it: the one
 * shape the task-configurations module hands to the tasks module.
 */
export type GenerationConfiguration = {
  /**
   * Stable across overrides: the database configuration id when the configuration comes from
   * the database (overridden or not), else the store configuration id. Part of the tasks'
   * generation key, so overriding a configuration never generates a day twice.
   */
  key: string;
  configuration_id: string | null;
  store_configuration_id: string | null;
  database_id: string | null;
  name: string;
  module: 'temperatures' | 'actions' | 'oils';
  type_name: string | null;
  type_color: string | null;
  recurrence: string;
  /** YYYY-MM-DD the recurrence counts from. */
  recurrence_anchor: string;
  starts: number[];
  durations: number[];
  requires_manager: boolean;
  notify_late: boolean;
  /** Effective values of the configuration's elements as the store sees them (active ones). */
  elements: TaskElementSnapshot[];
  actions: { name: string; requires_picture: boolean }[];
};
