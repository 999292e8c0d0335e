import type { ElementLockKey } from '@mise/shared/catalogue/constants';
import type { ReactNode } from 'react';
import { InheritanceControl, InheritanceRow } from '../../../shared/ui/inheritance-control';
import { useElementForm } from './element-form-context';

/** Store level: lists without a whole-list "reset to the database value". */
const listFields = new Set<ElementLockKey>(['labels', 'attachments']);

/** The inheritance control of one field of the element being edited. */
export function FieldStateControl({ field }: { field: ElementLockKey }) {
  const { level, draft, isReadOnly, toggleLock, resetField } = useElementForm();
  return (
    <InheritanceControl
      field={field}
      level={level}
      isLocked={draft.locks[field]}
      state={draft.states[field]}
      isReadOnly={isReadOnly}
      // No whole-list reset for labels and attachments (docs/decisions.md): a label edited back
      // to its database values stops being an override, the store's own attachments are deleted.
      canReset={!listFields.has(field)}
      onToggleLock={() => toggleLock(field)}
      onReset={() => resetField(field)}
      namespace="element"
    />
  );
}

/** A field and its inheritance control side by side. */
export function FieldRow({ field, children }: { field: ElementLockKey; children: ReactNode }) {
  return <InheritanceRow control={<FieldStateControl field={field} />}>{children}</InheritanceRow>;
}
