import { ActionIcon, Button, Group, Popover, Stack, Text } from '@mantine/core';
import { IconArrowBackUp, IconLock, IconLockOpen, IconPencilBolt } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ValueEditor } from './bulk-cells';
import type { BulkColumn } from './bulk-columns';
import { useBulkGrid } from './bulk-grid-context';

type ColumnHeaderProps = { column: BulkColumn; checkedCount: number };

/**
 * A column's header: its name, the revert button (back to the last saved copy, for the checked
 * rows or all) and "apply this value to the checked rows".
 */
export function ColumnHeader({ column, checkedCount }: ColumnHeaderProps) {
  const { t } = useTranslation();
  const { isReadOnly, handlers } = useBulkGrid();
  const isEditable = column.kind !== 'summary';
  const revertLabel =
    checkedCount > 0
      ? t('bulk.revertChecked', { column: column.label, count: checkedCount })
      : t('bulk.revertAll', { column: column.label });

  return (
    <div className="bulk-grid-head-title">
      <span className="bulk-grid-head-label" title={column.label}>
        {column.label}
      </span>
      {isEditable ? (
        <>
          <ActionIcon
            size="sm"
            variant="subtle"
            aria-label={revertLabel}
            title={revertLabel}
            onClick={() => (isReadOnly ? handlers.onRefuse() : handlers.onRevert(column.field))}
            data-testid={`bulk-revert-${column.field}`}
          >
            <IconArrowBackUp size={14} />
          </ActionIcon>
          <ApplyControl column={column} checkedCount={checkedCount} />
        </>
      ) : null}
    </div>
  );
}

/** "Apply this value to the checked rows": the column's editor in a popover. */
function ApplyControl({ column, checkedCount }: ColumnHeaderProps) {
  const { t } = useTranslation();
  const { level, isReadOnly, handlers } = useBulkGrid();
  const [isOpen, setIsOpen] = useState(false);
  const [value, setValue] = useState<unknown>(column.kind === 'boolean' ? true : null);
  const label = t('bulk.applyTitle', { column: column.label });
  const issue = column.check?.(value) ?? null;
  const isIssueShown = issue !== null && value !== '' && value !== null;

  function handleOpen() {
    if (isReadOnly) {
      handlers.onRefuse();
      return;
    }
    if (column.kind === 'modal') {
      handlers.onOpenModal(column.field, null);
      return;
    }
    setValue(column.kind === 'boolean' ? true : column.kind === 'text' ? '' : null);
    setIsOpen(true);
  }

  function handleApply() {
    if (issue) return;
    handlers.onApply(column.field, value);
    setIsOpen(false);
  }

  function handleLock(isLocked: boolean) {
    handlers.onApplyLock(column.field, isLocked);
    setIsOpen(false);
  }

  return (
    <Popover
      opened={isOpen}
      onChange={setIsOpen}
      trapFocus
      withinPortal
      position="bottom-start"
      shadow="md"
    >
      <Popover.Target>
        <ActionIcon
          size="sm"
          variant="subtle"
          aria-label={label}
          title={checkedCount === 0 ? t('bulk.applyNoneChecked') : label}
          disabled={checkedCount === 0}
          onClick={handleOpen}
          data-testid={`bulk-apply-${column.field}`}
        >
          <IconPencilBolt size={14} />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs" w={240} data-testid="bulk-apply-dropdown">
          <Text size="sm" fw={600}>
            {label}
          </Text>
          <ValueEditor
            column={column}
            value={value}
            onChange={setValue}
            label={column.label}
            testId="bulk-apply-value"
            autoFocus
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                handleApply();
              }
            }}
            error={isIssueShown ? t(`errors.${issue}`) : null}
          />
          <Button
            size="xs"
            onClick={handleApply}
            disabled={issue !== null}
            data-testid="bulk-apply-submit"
          >
            {t('bulk.applyToChecked', { count: checkedCount })}
          </Button>
          {level === 'database' && column.isLockable ? (
            <Group gap="xs" grow>
              <Button
                size="xs"
                variant="default"
                leftSection={<IconLock size={14} />}
                onClick={() => handleLock(true)}
                data-testid="bulk-apply-lock"
              >
                {t('bulk.lockChecked')}
              </Button>
              <Button
                size="xs"
                variant="default"
                leftSection={<IconLockOpen size={14} />}
                onClick={() => handleLock(false)}
                data-testid="bulk-apply-unlock"
              >
                {t('bulk.unlockChecked')}
              </Button>
            </Group>
          ) : null}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
