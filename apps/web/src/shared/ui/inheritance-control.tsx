import { ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import type { FieldState } from '@mise/shared/catalogue/rules';
import { IconArrowBackUp, IconLock, IconLockOpen } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export type InheritanceControlProps = {
  /** The field's key: the test ids are `lock-`, `locked-`, `inherited-` and `reset-<field>`. */
  field: string;
  level: 'database' | 'store';
  /** Database level: whether stores may not change the field. */
  isLocked: boolean;
  /** Store level: the field's state against its database. */
  state: FieldState | undefined;
  isReadOnly: boolean;
  /** Store level: whether an overridden field offers "reset to the database value". */
  canReset?: boolean;
  onToggleLock: () => void;
  onReset: () => void;
  /** The texts' namespace: `<namespace>.lock.locked`, `.unlocked`, `.lockedByDatabase`… */
  namespace: 'element' | 'taskConfiguration';
};

/**
 * The inheritance control of one field of an element or a task configuration. Database level:
 * a lock toggle (locked fields cannot be changed by stores). Store level: a lock icon when the
 * database locks it, an "inherited" hint, or a "reset to the database value" action once
 * overridden.
 */
export function InheritanceControl({
  field,
  level,
  isLocked,
  state,
  isReadOnly,
  canReset = true,
  onToggleLock,
  onReset,
  namespace,
}: InheritanceControlProps) {
  const { t } = useTranslation();

  if (level === 'database') {
    const label = t(isLocked ? `${namespace}.lock.locked` : `${namespace}.lock.unlocked`);
    return (
      <Tooltip label={label}>
        <ActionIcon
          variant={isLocked ? 'light' : 'subtle'}
          color={isLocked ? 'orange' : 'gray'}
          aria-label={label}
          aria-pressed={isLocked}
          disabled={isReadOnly}
          onClick={onToggleLock}
          data-testid={`lock-${field}`}
        >
          {isLocked ? <IconLock size={16} /> : <IconLockOpen size={16} />}
        </ActionIcon>
      </Tooltip>
    );
  }

  if (state === 'locked') {
    return (
      <Tooltip label={t(`${namespace}.lock.lockedByDatabase`)}>
        <ActionIcon
          variant="transparent"
          color="orange"
          aria-label={t(`${namespace}.lock.lockedByDatabase`)}
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
        {t(`${namespace}.lock.inherited`)}
      </Text>
    );
  }
  if (state === 'overridden' && canReset) {
    return (
      <Tooltip label={t(`${namespace}.lock.reset`)}>
        <ActionIcon
          variant="subtle"
          aria-label={t(`${namespace}.lock.reset`)}
          disabled={isReadOnly}
          onClick={onReset}
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
export function InheritanceRow({ control, children }: { control: ReactNode; children: ReactNode }) {
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <div style={{ flex: 1, minWidth: 0 }}>{children}</div>
      <div style={{ paddingBottom: 6 }}>{control}</div>
    </Group>
  );
}
