import {
  applyLockToChecked,
  applyToChecked,
  type BulkLevel,
  dirtyRows,
  duplicateRow,
  isRowDirty,
  revertColumn,
  setRowValue,
} from '@mise/shared/catalogue/bulk-rules';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { AnyGridRow, RowIssue } from './bulk-row';

/**
 * The state of a bulk grid: every row as edited and the last saved copy of each (spec 001 §4),
 * the checked rows, the rows a save found stale, and the issues the server reported per row.
 */
export type BulkDraftState<R extends AnyGridRow> = {
  rows: R[];
  saved: Map<string, R>;
  checked: Set<string>;
  conflicted: Set<string>;
  serverIssues: Map<string, RowIssue[]>;
};

/**
 * Edits kept while the user opens a row's single screen (spec 001 §2.9: leaving to the matching
 * detail screen does not ask) and restored on the way back. In memory only: a reload of the
 * page asks first (beforeunload) and starts afresh.
 */
const keptDrafts = new Map<string, BulkDraftState<AnyGridRow>>();

function initialState<R extends AnyGridRow>(rows: R[]): BulkDraftState<R> {
  return {
    rows,
    saved: new Map(rows.map((row) => [row.key, row])),
    checked: new Set(),
    conflicted: new Set(),
    serverIssues: new Map(),
  };
}

/**
 * A kept draft over the rows read now: rows left unchanged there take the server's current
 * version, rows the server added appear, edited and new rows stay as they were.
 */
function restore<R extends AnyGridRow>(
  kept: BulkDraftState<R>,
  fresh: R[],
  level: BulkLevel,
): BulkDraftState<R> {
  const freshByKey = new Map(fresh.map((row) => [row.key, row]));
  const saved = new Map(kept.saved);
  const rows = kept.rows.map((row) => {
    const current = freshByKey.get(row.key);
    if (!current || isRowDirty(row, kept.saved.get(row.key), level)) return row;
    saved.set(row.key, current);
    return current;
  });
  const known = new Set(kept.rows.map((row) => row.key));
  for (const row of fresh) {
    if (known.has(row.key)) continue;
    rows.push(row);
    saved.set(row.key, row);
  }
  return { ...kept, rows, saved };
}

export function useBulkDraft<R extends AnyGridRow>(options: {
  /** Where the draft is kept while a detail screen is open (screen, level and owner). */
  memoryKey: string;
  level: BulkLevel;
  /** The rows read from the server when the screen opened. */
  initialRows: R[];
}) {
  const { memoryKey, level } = options;
  const [state, setState] = useState<BulkDraftState<R>>(() => {
    const kept = keptDrafts.get(memoryKey) as BulkDraftState<R> | undefined;
    keptDrafts.delete(memoryKey);
    return kept ? restore(kept, options.initialRows, level) : initialState(options.initialRows);
  });
  const stateRef = useRef(state);
  /** The next unmount leaves for a row's detail screen: the draft is kept for the way back. */
  const isKeptRef = useRef(false);

  function update(change: (current: BulkDraftState<R>) => BulkDraftState<R>) {
    // Still edited here: the way to a detail screen was given up (Back before it showed).
    isKeptRef.current = false;
    const next = change(stateRef.current);
    stateRef.current = next;
    setState(next);
  }

  const dirty = useMemo(() => dirtyRows(state.rows, state.saved, level) as R[], [state, level]);
  const isDirty = dirty.length > 0;

  // Leaving for a row's detail screen: a draft with changes is kept for the way back. Leaving
  // anywhere else (after the unsaved-changes prompt) drops it.
  const isDirtyRef = useRef(isDirty);
  isDirtyRef.current = isDirty;
  useEffect(
    () => () => {
      if (isKeptRef.current && isDirtyRef.current)
        keptDrafts.set(memoryKey, stateRef.current as BulkDraftState<AnyGridRow>);
    },
    [memoryKey],
  );

  const withoutIssue = (issues: Map<string, RowIssue[]>, key: string, field?: string) => {
    const list = issues.get(key);
    if (!list) return issues;
    const next = new Map(issues);
    const kept = field ? list.filter((issue) => issue.field !== field) : [];
    if (kept.length > 0) next.set(key, kept);
    else next.delete(key);
    return next;
  };

  const actions = {
    /** The next unmount (opening a row's detail screen) keeps the draft for the way back. */
    keepForReturn() {
      isKeptRef.current = true;
    },
    /** One cell edited. */
    edit(key: string, field: string, value: unknown) {
      update((current) => ({
        ...current,
        rows: current.rows.map((row) =>
          row.key === key ? (setRowValue(row, field, value, level) as R) : row,
        ),
        serverIssues: withoutIssue(current.serverIssues, key, field),
      }));
    },
    /** Database level: a cell's lock toggled. */
    toggleLock(key: string, field: string) {
      update((current) => ({
        ...current,
        rows: current.rows.map((row) =>
          row.key === key ? { ...row, locks: { ...row.locks, [field]: !row.locks[field] } } : row,
        ),
      }));
    },
    check(key: string, isChecked: boolean) {
      update((current) => {
        const checked = new Set(current.checked);
        if (isChecked) checked.add(key);
        else checked.delete(key);
        return { ...current, checked };
      });
    },
    /** The global checkbox: the rows shown, all checked or all unchecked. */
    checkAll(keys: readonly string[], isChecked: boolean) {
      update((current) => {
        const checked = new Set(current.checked);
        for (const key of keys) {
          if (isChecked) checked.add(key);
          else checked.delete(key);
        }
        return { ...current, checked };
      });
    },
    clearChecks() {
      update((current) =>
        current.checked.size === 0 ? current : { ...current, checked: new Set() },
      );
    },
    /** A column back to the last saved copy, for the checked rows or (none checked) all rows. */
    revert(field: string) {
      update((current) => ({
        ...current,
        rows: revertColumn(current.rows, current.saved, field, current.checked) as R[],
      }));
    },
    /** A value applied to the checked rows; at store level rows locked at the origin are skipped. */
    apply(field: string, value: unknown): { applied: number; skipped: number } {
      let counts = { applied: 0, skipped: 0 };
      update((current) => {
        const result = applyToChecked(current.rows, current.checked, field, value, level);
        counts = { applied: result.applied.length, skipped: result.skipped.length };
        return { ...current, rows: result.rows as R[] };
      });
      return counts;
    },
    /** Database level: a lock set on the checked rows. */
    applyLock(field: string, isLocked: boolean) {
      update((current) => ({
        ...current,
        rows: applyLockToChecked(current.rows, current.checked, field, isLocked) as R[],
      }));
    },
    /** A new local row, first in the grid. */
    add(row: R) {
      update((current) => ({ ...current, rows: [row, ...current.rows] }));
    },
    /** A local copy ' (Copy)' right after the row. */
    duplicate(key: string, copyKey: string, adjust?: (copy: R) => R): R | null {
      const source = stateRef.current.rows.find((row) => row.key === key);
      if (!source) return null;
      const plain = {
        ...duplicateRow(source as AnyGridRow & { values: { name: string } }, copyKey, level),
        info: source.info,
      } as R;
      const copy = adjust ? adjust(plain) : plain;
      update((current) => {
        const index = current.rows.findIndex((row) => row.key === key);
        const rows = [...current.rows];
        rows.splice(index + 1, 0, copy);
        return { ...current, rows };
      });
      return copy;
    },
    /** A save refused for stale rows: those are marked, every edit stays. */
    markConflicts(keys: readonly string[]) {
      update((current) => ({ ...current, conflicted: new Set(keys) }));
    },
    /** Issues the server reported, by row key. */
    markIssues(issues: Map<string, RowIssue[]>) {
      update((current) => ({ ...current, serverIssues: issues }));
    },
    /**
     * A save answered: each written row is replaced by the row as saved (its new id, key and
     * version), which becomes its last saved copy, known from now on by its id (the key a fresh
     * read gives it). The answer lists the rows under the keys sent; a row it names otherwise is
     * matched by position.
     */
    commitSaved(sentKeys: readonly string[], savedRows: readonly R[]) {
      update((current) => {
        const byKey = new Map(savedRows.map((row) => [row.key, row]));
        const replacement = new Map<string, R>();
        sentKeys.forEach((key, index) => {
          const row = byKey.get(key) ?? savedRows[index];
          // From now on the row goes by the key a fresh read gives it: its id.
          if (row) replacement.set(key, { ...row, key: row.id ?? row.key });
        });
        const saved = new Map(current.saved);
        const checked = new Set(current.checked);
        let serverIssues = current.serverIssues;
        const rows = current.rows.map((row) => {
          const next = replacement.get(row.key);
          if (!next) return row;
          saved.delete(row.key);
          saved.set(next.key, next);
          if (checked.delete(row.key)) checked.add(next.key);
          serverIssues = withoutIssue(serverIssues, row.key);
          return next;
        });
        return { rows, saved, checked, conflicted: new Set(), serverIssues };
      });
    },
    /** The conflicted rows read again: they take the server's values (their edits are dropped). */
    reloadConflicted(freshRows: readonly R[]) {
      update((current) => {
        const freshByKey = new Map(freshRows.map((row) => [row.key, row]));
        const saved = new Map(current.saved);
        const rows = current.rows.map((row) => {
          const fresh = current.conflicted.has(row.key) ? freshByKey.get(row.key) : undefined;
          if (!fresh) return row;
          saved.set(row.key, fresh);
          return fresh;
        });
        return { ...current, rows, saved, conflicted: new Set() };
      });
    },
  };

  return { state, dirty, isDirty, actions, getState: () => stateRef.current };
}
