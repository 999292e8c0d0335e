import { Checkbox, NativeSelect, TextInput } from '@mantine/core';
import { IconCopy, IconExternalLink, IconLock, IconLockOpen } from '@tabler/icons-react';
import { type KeyboardEvent, useRef, useState } from 'react';
import { NumericInput } from '../../../shared/ui/numeric-input';
import type { BulkColumn } from './bulk-columns';
import { type GridItem, useBulkGrid, useBulkGridText } from './bulk-grid-context';
import { type AnyGridRow, nameOf, readValue } from './bulk-row';

/* ---------- Value editors (a cell's, and the "apply to the checked rows" one) ---------- */

type ValueEditorProps = {
  column: BulkColumn;
  value: unknown;
  onChange: (value: unknown) => void;
  label: string;
  testId: string;
  autoFocus?: boolean;
  onKeyDown?: (event: KeyboardEvent<HTMLElement>) => void;
  onBlur?: () => void;
  error?: string | null;
};

/**
 * The editor of a value of a column, with the single screen's bounds: numbers through the
 * shared numeric field (the one that keeps a typed minus sign), clamped to the field's range.
 */
export function ValueEditor({
  column,
  value,
  onChange,
  label,
  testId,
  autoFocus = false,
  onKeyDown,
  onBlur,
  error,
}: ValueEditorProps) {
  switch (column.kind) {
    case 'number':
      return (
        <NumericInput
          size="xs"
          aria-label={label}
          value={typeof value === 'number' ? value : null}
          onChange={(next) => onChange(next)}
          min={column.range?.min}
          max={column.range?.max}
          clampBehavior="strict"
          allowDecimal={column.allowDecimal ?? true}
          autoFocus={autoFocus}
          onKeyDown={onKeyDown}
          onBlur={onBlur}
          error={error ?? undefined}
          className="bulk-grid-editor"
          data-testid={testId}
        />
      );
    case 'select':
      return (
        <NativeSelect
          size="xs"
          aria-label={label}
          value={typeof value === 'string' ? value : ''}
          data={[
            { value: '', label: column.emptyLabel ?? '' },
            ...(column.options ?? []).map((option) => ({
              value: option.value,
              label: option.label,
            })),
          ]}
          onChange={(event) => onChange(event.currentTarget.value || null)}
          autoFocus={autoFocus}
          onKeyDown={onKeyDown}
          onBlur={onBlur}
          error={error ?? undefined}
          className="bulk-grid-editor"
          data-testid={testId}
        />
      );
    case 'boolean':
      return (
        <Checkbox
          size="sm"
          aria-label={label}
          label={label}
          checked={value === true}
          onChange={(event) => onChange(event.currentTarget.checked)}
          data-testid={testId}
        />
      );
    default:
      return (
        <TextInput
          size="xs"
          aria-label={label}
          value={typeof value === 'string' ? value : ''}
          maxLength={column.maxLength}
          onChange={(event) => onChange(event.currentTarget.value)}
          autoFocus={autoFocus}
          onKeyDown={onKeyDown}
          onBlur={onBlur}
          error={error ?? undefined}
          className="bulk-grid-editor"
          data-testid={testId}
        />
      );
  }
}

/* ---------- Cells ---------- */

const numberFormats = new Map<string, Intl.NumberFormat>();
function formatNumber(value: number, language: string): string {
  let format = numberFormats.get(language);
  if (!format) {
    format = new Intl.NumberFormat(language, { maximumFractionDigits: 2 });
    numberFormats.set(language, format);
  }
  return format.format(value);
}

/** The text a cell shows for its value. */
export function displayText(column: BulkColumn, row: AnyGridRow, language: string): string {
  if (column.format) return column.format(row);
  const value = readValue(row, column.field);
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'number') return `${formatNumber(value, language)}${column.suffix ?? ''}`;
  return String(value);
}

type FieldCellProps = {
  item: GridItem;
  column: BulkColumn;
  /** The name column stays in view while the grid scrolls sideways. */
  stickyLeft?: number;
};

/**
 * One cell: its value, edited in place (a click or Enter opens the editor, Enter or leaving
 * the field keeps the value, Escape drops it), the lock of the field at database level, or
 * the lock of the origin at store level (then read only).
 */
export function FieldCell({ item, column, stickyLeft }: FieldCellProps) {
  const { t, language } = useBulkGridText();
  const { level, isReadOnly, handlers } = useBulkGrid();
  const [editing, setEditing] = useState<{ value: unknown } | null>(null);
  const isDoneRef = useRef(false);
  const { row } = item;
  const key = row.key;
  const field = column.field;
  const value = readValue(row, field);
  const isLockedAtOrigin = level === 'store' && row.states[field] === 'locked';
  const issue = item.issues?.find((candidate) => candidate.field === field);
  const issueText = issue ? t(`errors.${issue.code}`) : undefined;
  const rowName = nameOf(row) || t('bulk.unnamed');
  const label = t('bulk.cellLabel', { column: column.label, row: rowName });
  const text = displayText(column, row, language);
  const isEditable = column.kind !== 'summary' && !isLockedAtOrigin;

  function startEditing() {
    if (isReadOnly) {
      handlers.onRefuse();
      return;
    }
    if (column.kind === 'modal') {
      handlers.onOpenModal(field, key);
      return;
    }
    isDoneRef.current = false;
    setEditing({ value });
  }

  function finish(isKept: boolean) {
    if (isDoneRef.current || !editing) return;
    isDoneRef.current = true;
    const next = editing.value;
    setEditing(null);
    if (!isKept) return;
    if (next !== value) handlers.onEdit(key, field, next);
  }

  function handleKeyDown(event: KeyboardEvent<HTMLElement>) {
    if (event.key === 'Enter') {
      event.preventDefault();
      finish(true);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      finish(false);
    }
  }

  let content: React.ReactNode;
  if (column.kind === 'boolean' && isEditable) {
    // Native controls in the rows: thousands of them scroll by, each must cost little.
    content = (
      <input
        type="checkbox"
        className="bulk-grid-check"
        aria-label={label}
        checked={value === true}
        onChange={(event) => {
          if (isReadOnly) handlers.onRefuse();
          else handlers.onEdit(key, field, event.currentTarget.checked);
        }}
        data-testid={`bulk-input-${key}-${field}`}
      />
    );
  } else if (editing && isEditable) {
    content = (
      <ValueEditor
        column={column}
        value={editing.value}
        onChange={(next) => {
          setEditing({ value: next });
          // A choice in a list is made at once.
          if (column.kind === 'select') {
            isDoneRef.current = true;
            setEditing(null);
            if (next !== value) handlers.onEdit(key, field, next);
          }
        }}
        label={label}
        testId={`bulk-input-${key}-${field}`}
        autoFocus
        onKeyDown={handleKeyDown}
        onBlur={() => finish(true)}
      />
    );
  } else if (column.kind === 'boolean') {
    content = (
      <span className="bulk-grid-value">{value === true ? t('bulk.yes') : t('bulk.no')}</span>
    );
  } else if (!isEditable) {
    content = (
      <span className="bulk-grid-value" data-empty={text === ''} title={text || undefined}>
        {text || '—'}
      </span>
    );
  } else {
    const color = column.colorOf?.(row) ?? null;
    content = (
      <button
        type="button"
        className="bulk-grid-value"
        data-empty={text === ''}
        aria-label={`${label}: ${text || t('bulk.empty')}${issueText ? ` (${issueText})` : ''}`}
        title={issueText ?? (text || undefined)}
        onClick={startEditing}
        data-testid={`bulk-value-${key}-${field}`}
      >
        {color ? <span className="bulk-grid-swatch" style={{ background: color }} /> : null}
        {text || '—'}
      </button>
    );
  }

  return (
    <td
      className="bulk-grid-cell"
      data-sticky={stickyLeft === undefined ? undefined : true}
      style={{ width: column.width, left: stickyLeft }}
      data-changed={item.changed?.has(field) === true}
      data-invalid={issue !== undefined}
      title={issueText}
      data-testid={`bulk-cell-${key}-${field}`}
    >
      {content}
      {column.isLockable ? (
        <LockControl item={item} field={field} columnLabel={column.label} />
      ) : null}
    </td>
  );
}

type LockControlProps = { item: GridItem; field: string; columnLabel: string };

/** Database level: the field's lock (stores cannot change a locked field). Store level: the origin's. */
function LockControl({ item, field, columnLabel }: LockControlProps) {
  const { t } = useBulkGridText();
  const { level, isReadOnly, handlers } = useBulkGrid();
  const { row } = item;
  if (level === 'store') {
    if (row.states[field] !== 'locked') return null;
    return (
      <IconLock
        size={14}
        color="var(--mantine-color-orange-8)"
        aria-label={t('bulk.lockedByDatabase', { column: columnLabel })}
        role="img"
        data-testid={`bulk-locked-${row.key}-${field}`}
      />
    );
  }
  const isLocked = row.locks[field] === true;
  const label = isLocked
    ? t('bulk.lock.locked', { column: columnLabel, row: nameOf(row) })
    : t('bulk.lock.unlocked', { column: columnLabel, row: nameOf(row) });
  return (
    <button
      type="button"
      className="bulk-grid-icon"
      data-tone={isLocked ? 'locked' : undefined}
      aria-label={label}
      aria-pressed={isLocked}
      title={label}
      onClick={() => (isReadOnly ? handlers.onRefuse() : handlers.onToggleLock(row.key, field))}
      data-testid={`bulk-lock-${row.key}-${field}`}
    >
      {isLocked ? <IconLock size={14} /> : <IconLockOpen size={14} />}
    </button>
  );
}

/** The row's checkbox (sticky, first). */
export function CheckCell({ item }: { item: GridItem }) {
  const { t } = useBulkGridText();
  const { handlers } = useBulkGrid();
  return (
    <input
      type="checkbox"
      className="bulk-grid-check"
      aria-label={t('bulk.checkRow', { row: nameOf(item.row) || t('bulk.unnamed') })}
      checked={item.isChecked}
      onChange={(event) => handlers.onCheck(item.row.key, event.currentTarget.checked)}
      data-testid={`bulk-check-${item.row.key}`}
    />
  );
}

/** Per-row actions: open the single screen, duplicate; marks of a new or conflicted row. */
export function RowActionsCell({ item }: { item: GridItem }) {
  const { t } = useBulkGridText();
  const { isReadOnly, handlers } = useBulkGrid();
  const { row } = item;
  const name = nameOf(row) || t('bulk.unnamed');
  const isSavedRow = row.id !== null || row.origin_id !== null;
  const openLabel = t('bulk.openRow', { row: name });
  const duplicateLabel = t('bulk.duplicateRow', { row: name });
  return (
    <>
      <button
        type="button"
        className="bulk-grid-icon"
        aria-label={openLabel}
        title={openLabel}
        disabled={!isSavedRow || item.isNew}
        onClick={() => handlers.onOpen(row)}
        data-testid={`bulk-open-${row.key}`}
      >
        <IconExternalLink size={14} />
      </button>
      <button
        type="button"
        className="bulk-grid-icon"
        aria-label={duplicateLabel}
        title={duplicateLabel}
        onClick={() => (isReadOnly ? handlers.onRefuse() : handlers.onDuplicate(row))}
        data-testid={`bulk-duplicate-${row.key}`}
      >
        <IconCopy size={14} />
      </button>
      {item.isConflicted ? (
        <span
          className="bulk-grid-badge"
          data-tone="conflict"
          data-testid={`bulk-conflict-${row.key}`}
        >
          {t('bulk.conflict')}
        </span>
      ) : item.isNew ? (
        <span className="bulk-grid-badge" data-tone="new" data-testid={`bulk-new-${row.key}`}>
          {t('bulk.newRow')}
        </span>
      ) : null}
    </>
  );
}
