import type { BulkLevel } from '@mise/shared/catalogue/bulk-rules';
import type { TFunction } from 'i18next';
import { createContext, useContext } from 'react';
import type { AnyGridRow, RowIssue } from './bulk-row';

/** What the grid's cells and headers call (stable across renders). */
export type BulkGridHandlers = {
  onEdit: (key: string, field: string, value: unknown) => void;
  onToggleLock: (key: string, field: string) => void;
  onCheck: (key: string, isChecked: boolean) => void;
  onCheckAll: (isChecked: boolean) => void;
  onRevert: (field: string) => void;
  onApply: (field: string, value: unknown) => void;
  onApplyLock: (field: string, isLocked: boolean) => void;
  /** A column edited in a modal: for one row (key) or for the checked rows (null). */
  onOpenModal: (field: string, key: string | null) => void;
  onOpen: (row: AnyGridRow) => void;
  onDuplicate: (row: AnyGridRow) => void;
  /** A read-only user tried to change something: the no-permission toast. */
  onRefuse: () => void;
};

export type BulkGridSettings = {
  level: BulkLevel;
  isReadOnly: boolean;
  handlers: BulkGridHandlers;
};

export const BulkGridContext = createContext<BulkGridSettings | null>(null);

export function useBulkGrid(): BulkGridSettings {
  const settings = useContext(BulkGridContext);
  if (!settings) throw new Error('useBulkGrid outside a bulk grid');
  return settings;
}

/**
 * The translation function and language of the grid's cells, read once by the grid: a hook of
 * react-i18next in each of the hundreds of cells drawn (each subscribing to the language) was a
 * good part of the first render of a 2,000-row grid.
 */
export type BulkGridText = { t: TFunction; language: string };

export const BulkGridTextContext = createContext<BulkGridText | null>(null);

export function useBulkGridText(): BulkGridText {
  const text = useContext(BulkGridTextContext);
  if (!text) throw new Error('useBulkGridText outside a bulk grid');
  return text;
}

/** One row as the grid draws it: the row and what marks it (kept while unchanged). */
export type GridItem = {
  row: AnyGridRow;
  /** No saved copy: added on this screen. */
  isNew: boolean;
  isChecked: boolean;
  isConflicted: boolean;
  issues: readonly RowIssue[] | undefined;
  /** Fields whose value or lock differs from the saved copy. */
  changed: ReadonlySet<string> | undefined;
};
