import { Checkbox } from '@mantine/core';
import { changedFields, changedLocks } from '@mise/shared/catalogue/bulk-rules';
import {
  type ColumnDef,
  columnSizingFeature,
  type Row,
  tableFeatures,
  useTable,
} from '@tanstack/react-table';
import { observeElementRect, useVirtualizer } from '@tanstack/react-virtual';
import { Fragment, memo, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckCell, FieldCell, RowActionsCell } from './bulk-cells';
import type { BulkColumn } from './bulk-columns';
import {
  BulkGridContext,
  type BulkGridSettings,
  type BulkGridText,
  BulkGridTextContext,
  type GridItem,
  useBulkGrid,
} from './bulk-grid-context';
import { ColumnHeader } from './bulk-header';
import type { AnyGridRow, RowIssue } from './bulk-row';
import './bulk-grid.css';

const rowHeight = 44;
const checkWidth = 44;
const actionsWidth = 150;
/** Rows drawn beyond the visible ones on each side: fast scrolling shows no blank band. */
const overscan = 10;
/**
 * The grid box's height as bulk-grid.css sets it (`max(360px, 100dvh - 300px)`): the first
 * render draws the rows in view at once, and measuring the box does not draw them again. Also
 * the height assumed while the box has none (hidden, or a test DOM).
 */
function expectedHeight(): number {
  return Math.max(360, (typeof window === 'undefined' ? 900 : window.innerHeight) - 300);
}

const features = tableFeatures({ columnSizingFeature });
type Features = typeof features;

type BulkGridProps = {
  /** The rows shown (filtered), in order. */
  rows: readonly AnyGridRow[];
  saved: ReadonlyMap<string, AnyGridRow>;
  checked: ReadonlySet<string>;
  conflicted: ReadonlySet<string>;
  issues: ReadonlyMap<string, readonly RowIssue[]>;
  /** Data columns, the name first. */
  columns: readonly BulkColumn[];
  settings: BulkGridSettings;
  /** How many rows are checked in all (hidden ones included). */
  checkedCount: number;
  /** The table's accessible name. */
  label: string;
};

/** The fields whose value or lock differs from the saved copy (undefined: none, or a new row). */
function changedOf(
  row: AnyGridRow,
  saved: AnyGridRow | undefined,
): ReadonlySet<string> | undefined {
  if (!saved || saved === row) return undefined;
  const fields = [...changedFields(row, saved), ...changedLocks(row, saved)];
  return fields.length > 0 ? new Set(fields) : undefined;
}

/**
 * The items of the rows shown. An item keeps its identity while nothing about its row changed,
 * so a memoised row redraws only when it must (a 2,000-row grid edits and scrolls smoothly).
 */
function useGridItems(props: BulkGridProps): GridItem[] {
  const cache = useRef(new Map<string, GridItem>());
  return useMemo(() => {
    const previous = cache.current;
    const next = new Map<string, GridItem>();
    const items = props.rows.map((row) => {
      const saved = props.saved.get(row.key);
      const isChecked = props.checked.has(row.key);
      const isConflicted = props.conflicted.has(row.key);
      const issues = props.issues.get(row.key);
      const old = previous.get(row.key);
      const item: GridItem =
        old &&
        old.row === row &&
        old.isNew === !saved &&
        old.isChecked === isChecked &&
        old.isConflicted === isConflicted &&
        old.issues === issues
          ? old
          : {
              row,
              isNew: !saved,
              isChecked,
              isConflicted,
              issues,
              changed: changedOf(row, saved),
            };
      next.set(row.key, item);
      return item;
    });
    cache.current = next;
    return items;
  }, [props.rows, props.saved, props.checked, props.conflicted, props.issues]);
}

/**
 * The bulk grid (spec 001 §2.9): TanStack Table for the columns, TanStack Virtual for the
 * rows (only those in view, plus a margin, are in the page). Checkbox and name columns stay in
 * view while the grid scrolls sideways.
 */
export function BulkGrid(props: BulkGridProps) {
  const { columns, settings, checkedCount } = props;
  const items = useGridItems(props);
  const scrollRef = useRef<HTMLDivElement>(null);
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const text = useMemo<BulkGridText>(() => ({ t, language }), [t, language]);

  const tableColumns = useMemo<ColumnDef<Features, GridItem>[]>(
    () => [
      {
        id: 'check',
        size: checkWidth,
        cell: ({ row }) => <CheckCell item={row.original} />,
      },
      ...columns.map(
        (column, index): ColumnDef<Features, GridItem> => ({
          id: column.field,
          size: column.width,
          cell: ({ row }) => (
            <FieldCell
              item={row.original}
              column={column}
              stickyLeft={index === 0 ? checkWidth : undefined}
            />
          ),
        }),
      ),
      {
        id: 'actions',
        size: actionsWidth,
        cell: ({ row }) => <RowActionsCell item={row.original} />,
      },
    ],
    [columns],
  );

  const table = useTable({
    features,
    columns: tableColumns,
    data: items,
    getRowId: (item) => item.row.key,
  });
  const tableRows = table.getRowModel().rows;
  const totalWidth = table.getTotalSize();

  const virtualizer = useVirtualizer({
    count: tableRows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    getItemKey: (index) => tableRows[index]?.id ?? index,
    overscan,
    initialRect: { width: 0, height: expectedHeight() },
    // A box not laid out yet (no size: hidden, or a test DOM) still draws its first screenful.
    observeElementRect: (instance, callback) =>
      observeElementRect(instance, (rect) =>
        callback(rect.height > 0 ? rect : { width: rect.width, height: expectedHeight() }),
      ),
  });

  const shownChecked = items.filter((item) => item.isChecked).length;
  const isAllChecked = items.length > 0 && shownChecked === items.length;

  return (
    <BulkGridContext.Provider value={settings}>
      <BulkGridTextContext.Provider value={text}>
        <div
          ref={scrollRef}
          className="bulk-grid"
          data-testid="bulk-grid"
          data-row-count={items.length}
        >
          <table
            className="bulk-grid-table"
            aria-label={props.label}
            aria-rowcount={items.length + 1}
            style={{ width: totalWidth }}
          >
            <GridHeader
              columns={columns}
              checkedCount={checkedCount}
              isAllChecked={isAllChecked}
              isSomeChecked={shownChecked > 0 && !isAllChecked}
            />
            <tbody className="bulk-grid-body" style={{ height: virtualizer.getTotalSize() }}>
              {virtualizer.getVirtualItems().map((virtualRow) => {
                const tableRow = tableRows[virtualRow.index];
                if (!tableRow) return null;
                return (
                  <GridRowView
                    key={tableRow.id}
                    item={tableRow.original}
                    tableRow={tableRow}
                    index={virtualRow.index}
                    start={virtualRow.start}
                    width={totalWidth}
                    columnsKey={tableColumns}
                  />
                );
              })}
            </tbody>
          </table>
        </div>
      </BulkGridTextContext.Provider>
    </BulkGridContext.Provider>
  );
}

type GridHeaderProps = {
  columns: readonly BulkColumn[];
  checkedCount: number;
  isAllChecked: boolean;
  isSomeChecked: boolean;
};

/** The header row (sticky): redrawn when the columns or the checks change, never on scroll. */
const GridHeader = memo(function GridHeader({
  columns,
  checkedCount,
  isAllChecked,
  isSomeChecked,
}: GridHeaderProps) {
  const { t } = useTranslation();
  const { handlers } = useBulkGrid();
  return (
    <thead className="bulk-grid-header">
      <tr aria-rowindex={1} className="bulk-grid-head-row">
        <th
          scope="col"
          className="bulk-grid-head"
          data-sticky
          style={{ width: checkWidth, left: 0 }}
        >
          <Checkbox
            size="sm"
            aria-label={t('bulk.checkAll')}
            checked={isAllChecked}
            indeterminate={isSomeChecked}
            onChange={() => handlers.onCheckAll(!isAllChecked)}
            data-testid="bulk-check-all"
          />
        </th>
        {columns.map((column, index) => (
          <th
            key={column.field}
            scope="col"
            className="bulk-grid-head"
            data-sticky={index === 0 ? true : undefined}
            style={{ width: column.width, left: index === 0 ? checkWidth : undefined }}
            data-testid={`bulk-head-${column.field}`}
          >
            <ColumnHeader column={column} checkedCount={checkedCount} />
          </th>
        ))}
        <th scope="col" className="bulk-grid-head" style={{ width: actionsWidth }}>
          {t('bulk.columns.actions')}
        </th>
      </tr>
    </thead>
  );
});

type GridRowViewProps = {
  item: GridItem;
  tableRow: Row<Features, GridItem>;
  index: number;
  start: number;
  width: number;
  /** The column definitions: a change redraws the row. */
  columnsKey: unknown;
};

/** One row, redrawn only when its item, place or columns change. */
const GridRowView = memo(
  function GridRowView({ item, tableRow, index, start, width }: GridRowViewProps) {
    return (
      <tr
        aria-rowindex={index + 2}
        className="bulk-grid-row"
        style={{ transform: `translateY(${start}px)`, width }}
        data-checked={item.isChecked}
        data-conflicted={item.isConflicted}
        data-testid={`bulk-row-${item.row.key}`}
      >
        {tableRow.getAllCells().map((cell, cellIndex) => {
          // The templates are called, not mounted as components (flexRender would): a new set
          // of column definitions (types loaded, another chip) keeps the cells and their editors.
          const template = cell.column.columnDef.cell;
          const rendered = typeof template === 'function' ? template(cell.getContext()) : null;
          // Field cells draw their own box (with their state); the others get one here.
          if (cell.column.id !== 'check' && cell.column.id !== 'actions')
            return <Fragment key={cell.id}>{rendered}</Fragment>;
          return (
            <td
              key={cell.id}
              className="bulk-grid-cell"
              data-sticky={cellIndex === 0 ? true : undefined}
              style={{ width: cell.column.getSize(), left: cellIndex === 0 ? 0 : undefined }}
            >
              {rendered}
            </td>
          );
        })}
      </tr>
    );
  },
  (previous, next) =>
    previous.item === next.item &&
    previous.start === next.start &&
    previous.index === next.index &&
    previous.width === next.width &&
    previous.columnsKey === next.columnsKey,
);
