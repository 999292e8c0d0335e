import type { TaskConfigurationFieldKey } from '@mise/shared/tasks/constants';
import { createContext, useContext } from 'react';
import type { TaskConfigurationLevel } from '../api/task-configuration-query-keys';
import type {
  TaskConfigurationDraft,
  TaskConfigurationValuesDraft,
} from './task-configuration-form';

export type TaskConfigurationFormApi = {
  level: TaskConfigurationLevel;
  draft: TaskConfigurationDraft;
  /** The whole form is read-only (the configuration is not editable by this user). */
  isReadOnly: boolean;
  /** Read-only because of the form or, at store level, a database lock. */
  isFieldReadOnly: (key: TaskConfigurationFieldKey) => boolean;
  setValue: <Key extends keyof TaskConfigurationValuesDraft>(
    key: Key,
    value: TaskConfigurationValuesDraft[Key],
  ) => void;
  toggleLock: (key: TaskConfigurationFieldKey) => void;
  /** Store level: follow the database again (sends null). */
  resetField: (key: TaskConfigurationFieldKey) => void;
};

const TaskConfigurationFormContext = createContext<TaskConfigurationFormApi | null>(null);
export const TaskConfigurationFormProvider = TaskConfigurationFormContext.Provider;

export function useTaskConfigurationForm(): TaskConfigurationFormApi {
  const form = useContext(TaskConfigurationFormContext);
  if (!form) throw new Error('useTaskConfigurationForm outside the configuration editor');
  return form;
}
