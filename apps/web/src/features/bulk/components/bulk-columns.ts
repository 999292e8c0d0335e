import type { AnyGridRow } from './bulk-row';

/** How a column's cells show and edit their value. */
export type BulkColumnKind =
  | 'text'
  | 'number'
  | 'boolean'
  | 'select'
  /** Edited in a modal (recurrence, schedules): the screen opens it. */
  | 'modal'
  /** Read only (a count). */
  | 'summary';

export type SelectOption = { value: string; label: string; color?: string };

/** One data column of a bulk grid. */
export type BulkColumn = {
  /** The value (and lock) key. */
  field: string;
  /** Header text, translated. */
  label: string;
  kind: BulkColumnKind;
  width: number;
  /** Number columns: the bounds the single screen's field clamps to. */
  range?: { min: number; max: number };
  allowDecimal?: boolean;
  suffix?: string;
  /** Select columns: the choices; `emptyLabel` for no choice (null). */
  options?: SelectOption[];
  emptyLabel?: string;
  /** Text columns: the longest value. */
  maxLength?: number;
  /** Database level: a lock per cell. */
  isLockable: boolean;
  /** The value as the cell shows it (modal and summary columns, select labels). */
  format?: (row: AnyGridRow) => string;
  /** Colour swatch of a select value (task types). */
  colorOf?: (row: AnyGridRow) => string | null;
  /**
   * The single screen's rule for one value (the shared zod field schema): the locale key of
   * its message (under `errors.`), or null.
   */
  check?: (value: unknown) => string | null;
};
