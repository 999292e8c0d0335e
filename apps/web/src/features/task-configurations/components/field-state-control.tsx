import type { TaskConfigurationFieldKey } from '@mise/shared/tasks/constants';
import type { ReactNode } from 'react';
import { InheritanceControl, InheritanceRow } from '../../../shared/ui/inheritance-control';
import { useTaskConfigurationForm } from './task-configuration-form-context';

/** The inheritance control of one field of the task configuration being edited. */
export function FieldStateControl({ field }: { field: TaskConfigurationFieldKey }) {
  const { level, draft, isReadOnly, toggleLock, resetField } = useTaskConfigurationForm();
  return (
    <InheritanceControl
      field={field}
      level={level}
      isLocked={draft.locks[field]}
      state={draft.states[field]}
      isReadOnly={isReadOnly}
      onToggleLock={() => toggleLock(field)}
      onReset={() => resetField(field)}
      namespace="taskConfiguration"
    />
  );
}

/** A field and its inheritance control side by side. */
export function FieldRow({
  field,
  children,
}: {
  field: TaskConfigurationFieldKey;
  children: ReactNode;
}) {
  return <InheritanceRow control={<FieldStateControl field={field} />}>{children}</InheritanceRow>;
}
