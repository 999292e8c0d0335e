import { ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import type { ElementLockKey } from '@mise/shared/catalogue/constants';
import { IconArrowBackUp, IconLock, IconLockOpen } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useElementForm } from './element-form-context';

type FieldStateControlProps = { field: ElementLockKey };

/** Store level: lists without a whole-list "reset to the database value". */
const listFields = new Set<ElementLockKey>(['labels', 'attachments']);

/**
 * The inheritance control of one field. Database level: a lock toggle (locked fields cannot be
 * changed by stores). Store level: a lock icon when the database locks it, an "inherited" hint,
 * or a "reset to the database value" action once overridden.
 */
export function FieldStateControl({ field }: FieldStateControlProps) {
  const { t } = useTranslation();
  const { level, draft, isReadOnly, toggleLock, resetField } = useElementForm();

  if (level === 'database') {
    const isLocked = draft.locks[field];
    const label = isLocked ? t('element.lock.locked') : t('element.lock.unlocked');
    return (
      <Tooltip label={label}>
        <ActionIcon
          variant={isLocked ? 'light' : 'subtle'}
          color={isLocked ? 'orange' : 'gray'}
          aria-label={label}
          aria-pressed={isLocked}
          disabled={isReadOnly}
          onClick={() => toggleLock(field)}
          data-testid={`lock-${field}`}
        >
          {isLocked ? <IconLock size={16} /> : <IconLockOpen size={16} />}
        </ActionIcon>
      </Tooltip>
    );
  }

  const state = draft.states[field];
  if (state === 'locked') {
    return (
      <Tooltip label={t('element.lock.lockedByDatabase')}>
        <ActionIcon
          variant="transparent"
          color="orange"
          aria-label={t('element.lock.lockedByDatabase')}
          data-testid={`locked-${field}`}
        >
          <IconLock size={16} />
        </ActionIcon>
      </Tooltip>
    );
  }
  if (state === 'inherited') {
    return (
      <Text size="xs" c="dimmed" data-testid={`inherited-${field}`}>
        {t('element.lock.inherited')}
      </Text>
    );
  }
  // No whole-list reset for labels and attachments (docs/decisions.md): a label edited back
  // to its database values stops being an override, the store's own attachments are deleted.
  if (state === 'overridden' && !listFields.has(field)) {
    return (
      <Tooltip label={t('element.lock.reset')}>
        <ActionIcon
          variant="subtle"
          aria-label={t('element.lock.reset')}
          disabled={isReadOnly}
          onClick={() => resetField(field)}
          data-testid={`reset-${field}`}
        >
          <IconArrowBackUp size={16} />
        </ActionIcon>
      </Tooltip>
    );
  }
  return null;
}

/** A field and its inheritance control side by side. */
export function FieldRow({ field, children }: { field: ElementLockKey; children: ReactNode }) {
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <div style={{ flex: 1, minWidth: 0 }}>{children}</div>
      <div style={{ paddingBottom: 6 }}>
        <FieldStateControl field={field} />
      </div>
    </Group>
  );
}
