import { Badge, Button, Group, Text } from '@mantine/core';
import type { BulkLevel } from '@mise/shared/catalogue/bulk-rules';
import {
  IconArrowLeft,
  IconCategory,
  IconCheck,
  IconFileExport,
  IconPlus,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListToolbar } from '../../../shared/ui/list-toolbar';
import { LoadingButton } from '../../../shared/ui/loading-button';
import { PageHeader } from '../../../shared/ui/page-header';
import type { BulkKind } from '../api/bulk-query-keys';
import type { AnyGridRow } from './bulk-row';
import { nameOf } from './bulk-row';

/** The database or store screen's tab a bulk screen returns to. */
function backPath(kind: BulkKind, level: BulkLevel, ownerId: string): string {
  const tab = kind === 'elements' ? 1 : 2;
  return level === 'database'
    ? `/database?id=${encodeURIComponent(ownerId)}&tab=${tab}`
    : `/storeDatabase?id=${encodeURIComponent(ownerId)}&tab=${tab}`;
}

type BulkHeaderProps = {
  kind: BulkKind;
  level: BulkLevel;
  ownerId: string;
  ownerName: string;
  dirtyCount: number;
  isSaving: boolean;
  onNew: () => void;
  onTypes: () => void;
  onExport: () => void;
  onSave: () => void;
};

/** The header: the database or store name, new, types, export and save (spec 001 §2.9). */
export function BulkHeader(props: BulkHeaderProps) {
  const { t } = useTranslation();
  const { kind, level } = props;
  const title =
    kind === 'elements'
      ? t('bulk.titleElements', { name: props.ownerName })
      : t('bulk.titleTasks', { name: props.ownerName });
  return (
    <PageHeader
      title={title}
      subtitle={level === 'database' ? t('bulk.databaseLevel') : t('bulk.storeLevel')}
      actions={
        <>
          <Button
            component={Link}
            to={backPath(kind, level, props.ownerId)}
            variant="subtle"
            leftSection={<IconArrowLeft size={16} />}
            data-testid="bulk-back"
          >
            {t('bulk.back')}
          </Button>
          <Button
            variant="default"
            leftSection={<IconPlus size={16} />}
            onClick={props.onNew}
            data-testid="bulk-new"
          >
            {kind === 'elements' ? t('bulk.newElement') : t('bulk.newTask')}
          </Button>
          <Button
            variant="default"
            leftSection={<IconCategory size={16} />}
            onClick={props.onTypes}
            data-testid="bulk-types"
          >
            {kind === 'elements' ? t('bulk.types.elementTitle') : t('bulk.types.taskTitle')}
          </Button>
          <Button
            variant="default"
            leftSection={<IconFileExport size={16} />}
            onClick={props.onExport}
            data-testid="bulk-export"
          >
            {t('bulk.export.open')}
          </Button>
          <LoadingButton
            onClick={props.onSave}
            loading={props.isSaving}
            rightSection={
              props.dirtyCount > 0 ? (
                <Badge size="sm" color="yellow" variant="filled" data-testid="bulk-dirty-count">
                  {props.dirtyCount}
                </Badge>
              ) : null
            }
            data-testid="bulk-save"
          >
            {t('common.save')}
          </LoadingButton>
        </>
      }
    />
  );
}

type BulkChipsProps = {
  chips: readonly { name: string; label: string }[];
  value: string;
  onChange: (value: string) => void;
  label: string;
};

/**
 * The filter chips (one at a time): toggle buttons shaped as chips, each pressed or not, so a
 * click anywhere on the chip (or Space, Enter) switches.
 */
export function BulkChips({ chips, value, onChange, label }: BulkChipsProps) {
  return (
    <Group gap="xs" mb="sm" role="group" aria-label={label} wrap="wrap">
      {chips.map((chip) => {
        const isSelected = chip.name === value;
        return (
          <Button
            key={chip.name}
            size="compact-sm"
            radius="xl"
            variant={isSelected ? 'filled' : 'default'}
            leftSection={isSelected ? <IconCheck size={14} /> : null}
            aria-pressed={isSelected}
            onClick={() => onChange(chip.name)}
            data-testid={`bulk-chip-${chip.name}`}
          >
            {chip.label}
          </Button>
        );
      })}
    </Group>
  );
}

type BulkFiltersProps = {
  search: string;
  onSearchChange: (value: string) => void;
  isInactiveIncluded: boolean;
  onInactiveChange: (value: boolean) => void;
  shownCount: number;
  checkedCount: number;
  children?: ReactNode;
};

/** Search, inactive toggle and the counts of rows shown and checked. */
export function BulkFilters(props: BulkFiltersProps) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
      <div style={{ flex: 1, minWidth: 240 }}>
        <ListToolbar
          search={props.search}
          onSearchChange={props.onSearchChange}
          isInactiveIncluded={props.isInactiveIncluded}
          onInactiveChange={props.onInactiveChange}
          testIdPrefix="bulk"
        />
      </div>
      <Text size="sm" c="dimmed" mb="md" data-testid="bulk-counts">
        {t('bulk.counts', { shown: props.shownCount, checked: props.checkedCount })}
      </Text>
      {props.children}
    </Group>
  );
}

/** Lower case without accents, for the search box. */
function folded(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

/**
 * The rows shown: matching the search, and active unless inactive rows are included. A row is
 * judged by its saved copy (switching a row inactive does not make it vanish while edited);
 * rows added on this screen always show.
 */
export function visibleRows<R extends AnyGridRow>(
  rows: readonly R[],
  saved: ReadonlyMap<string, R>,
  filter: { search: string; isInactiveIncluded: boolean; extra?: (row: R) => boolean },
): R[] {
  const needle = folded(filter.search.trim());
  return rows.filter((row) => {
    const savedRow = saved.get(row.key);
    if (!savedRow) return true;
    if (filter.extra && !filter.extra(row)) return false;
    const isActive = (savedRow.values as { active?: boolean }).active !== false;
    if (!filter.isInactiveIncluded && !isActive) return false;
    if (needle === '') return true;
    return folded(nameOf(row)).includes(needle) || folded(nameOf(savedRow)).includes(needle);
  });
}
