import { type BulkLevel, type BulkWrite, buildBulkWrites } from '@mise/shared/catalogue/bulk-rules';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '../../../shared/api/api-error';
import { errorMessage } from '../../../shared/i18n/error-message';
import { openConfirmDialog } from '../../../shared/ui/confirm-dialog';
import {
  notifyError,
  notifyInfo,
  notifySuccess,
  saveErrorDurationMs,
} from '../../../shared/ui/notify';
import { useUnsavedChangesPrompt } from '../../../shared/ui/use-unsaved-changes-prompt';
import { type BulkKind, bulkRowsQueryKey } from '../api/bulk-query-keys';
import type { BulkGridHandlers, BulkGridSettings } from './bulk-grid-context';
import {
  type AnyGridRow,
  detailPath,
  detailPathnames,
  nameOf,
  nextLocalKey,
  type RowIssue,
} from './bulk-row';
import { useBulkDraft } from './use-bulk-draft';

/** The code of a save refused for rows changed meanwhile (packages/shared/src/catalogue/bulk.ts). */
const staleRowsCode = 'conflict/stale-rows';

/** The row key of an issue path ("<key>" or "<key>.<field>"). */
function splitIssuePath(path: string): { key: string; field: string | null } {
  const dot = path.indexOf('.');
  return dot < 0
    ? { key: path, field: null }
    : { key: path.slice(0, dot), field: path.slice(dot + 1) };
}

/** A save's problem shown in a dialog: the row and the single screen's message. */
export type SaveProblem = { rowName: string; code: string };

type BulkScreenOptions<R extends AnyGridRow> = {
  kind: BulkKind;
  level: BulkLevel;
  ownerId: string;
  initialRows: R[];
  /** The caller may save here (false: customers, a manager on a store not manager-owned). */
  isEditable: boolean;
  /** The single screen's checks on a row. */
  rowIssues: (row: R) => RowIssue[];
  /** Posts the writes (new and changed rows only) and answers the rows as saved. */
  save: (
    writes: BulkWrite[],
    rowsByKey: ReadonlyMap<string, R>,
    saved: ReadonlyMap<string, R>,
  ) => Promise<R[]>;
  /** Reads every row again (to reload the conflicted ones). */
  reload: () => Promise<R[]>;
  /** A modal column's editor, for one row (key) or the checked rows (null). */
  onOpenModal: (field: string, key: string | null) => void;
  /** The keys of the rows shown (the global checkbox checks those). */
  getVisibleKeys: () => string[];
  /** What a duplicate changes beyond the shared rule (name ' (Copy)', no id). */
  adjustDuplicate?: (copy: R) => R;
};

/**
 * What the four bulk screens share (spec 001 §2.9, §4): the draft, the grid's handlers, the
 * save (only new or changed rows, a stale row marked and every edit kept), the leave prompt
 * (not towards the matching detail screen) and the refusals of a read-only user.
 */
export function useBulkScreen<R extends AnyGridRow>(options: BulkScreenOptions<R>) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { kind, level, ownerId, isEditable } = options;
  /** The rows read when the screen opened are not the server's any more: read them next time. */
  const markRowsStale = () =>
    void queryClient.invalidateQueries({
      queryKey: bulkRowsQueryKey(kind, level, ownerId),
      refetchType: 'none',
    });
  const draft = useBulkDraft<R>({
    memoryKey: `${kind}:${level}:${ownerId}`,
    level,
    initialRows: options.initialRows,
  });
  const { state, dirty, actions } = draft;
  const [isSaving, setIsSaving] = useState(false);
  const [problem, setProblem] = useState<SaveProblem | null>(null);
  const prompt = useUnsavedChangesPrompt(draft.isDirty && isEditable, {
    freePathnames: [detailPathnames[kind][level]],
  });
  const optionsRef = useRef(options);
  optionsRef.current = options;

  // The single screen's checks, on the rows a save would write; the server's on top.
  const issues = useMemo(() => {
    const byKey = new Map<string, RowIssue[]>();
    for (const row of dirty) {
      const found = optionsRef.current.rowIssues(row);
      if (found.length > 0) byKey.set(row.key, found);
    }
    for (const [key, found] of state.serverIssues) {
      byKey.set(key, [...(byKey.get(key) ?? []), ...found]);
    }
    return byKey;
  }, [dirty, state.serverIssues]);

  function refuse() {
    notifyError(t('errors.permission/denied'), { autoClose: saveErrorDurationMs });
  }

  const handlersRef = useRef<BulkGridHandlers | null>(null);
  handlersRef.current = {
    onEdit: actions.edit,
    onToggleLock: actions.toggleLock,
    onCheck: actions.check,
    onCheckAll: (isChecked) => actions.checkAll(optionsRef.current.getVisibleKeys(), isChecked),
    onRevert: actions.revert,
    onApply: (field, value) => {
      const { applied, skipped } = actions.apply(field, value);
      if (skipped > 0) notifyInfo(t('bulk.appliedWithSkipped', { count: applied, skipped }));
    },
    onApplyLock: actions.applyLock,
    onOpenModal: (field, key) => optionsRef.current.onOpenModal(field, key),
    onOpen: (row) => {
      actions.keepForReturn();
      markRowsStale();
      void navigate(detailPath(kind, level, ownerId, row));
    },
    onDuplicate: (row) => {
      actions.duplicate(row.key, nextLocalKey(), optionsRef.current.adjustDuplicate);
    },
    onRefuse: refuse,
  };

  /** Stable handlers reading the latest ones (memoised rows never hold a stale closure). */
  const settings = useMemo<BulkGridSettings>(() => {
    const call =
      <K extends keyof BulkGridHandlers>(name: K) =>
      (...args: Parameters<BulkGridHandlers[K]>) => {
        const handler = handlersRef.current?.[name] as ((...inner: unknown[]) => void) | undefined;
        handler?.(...args);
      };
    return {
      level,
      isReadOnly: !isEditable,
      handlers: {
        onEdit: call('onEdit'),
        onToggleLock: call('onToggleLock'),
        onCheck: call('onCheck'),
        onCheckAll: call('onCheckAll'),
        onRevert: call('onRevert'),
        onApply: call('onApply'),
        onApplyLock: call('onApplyLock'),
        onOpenModal: call('onOpenModal'),
        onOpen: call('onOpen'),
        onDuplicate: call('onDuplicate'),
        onRefuse: call('onRefuse'),
      },
    };
  }, [level, isEditable]);

  async function reloadConflicted() {
    try {
      actions.reloadConflicted(await optionsRef.current.reload());
    } catch (caught) {
      notifyError(errorMessage(t, caught), { autoClose: saveErrorDurationMs });
    }
  }

  /**
   * Saves the new and changed rows. The single screen's checks run first; a stale row marks the
   * rows the server names and keeps every edit, offering to read those rows again.
   */
  async function save(options: { isQuiet?: boolean } = {}): Promise<boolean> {
    if (!isEditable) {
      refuse();
      return false;
    }
    const current = draft.getState();
    const writes = buildBulkWrites(current.rows, current.saved, level);
    if (writes.length === 0) {
      if (!options.isQuiet) notifyInfo(t('bulk.nothingToSave'));
      return true;
    }
    const rowsByKey = new Map(current.rows.map((row) => [row.key, row]));
    for (const write of writes) {
      const row = rowsByKey.get(write.key);
      const found = row ? optionsRef.current.rowIssues(row) : [];
      if (row && found[0]) {
        setProblem({ rowName: nameOf(row) || t('bulk.unnamed'), code: found[0].code });
        return false;
      }
    }
    setIsSaving(true);
    try {
      const savedRows = await optionsRef.current.save(writes, rowsByKey, current.saved);
      actions.commitSaved(
        writes.map((write) => write.key),
        savedRows,
      );
      markRowsStale();
      notifySuccess(t('errors.saved-successfully'));
      return true;
    } catch (caught) {
      if (isApiError(caught) && (caught.code as string) === staleRowsCode) {
        const keys = [...new Set(caught.issues.map((issue) => splitIssuePath(issue.path).key))];
        actions.markConflicts(keys);
        openConfirmDialog({
          title: t('errors.save-error'),
          message: t('bulk.conflictMessage', { count: keys.length }),
          confirmLabel: t('bulk.reloadConflicted'),
          cancelLabel: t('bulk.keepEditing'),
          onConfirm: () => void reloadConflicted(),
        });
        return false;
      }
      if (isApiError(caught) && caught.issues.length > 0) {
        const byKey = new Map<string, RowIssue[]>();
        for (const issue of caught.issues) {
          const { key, field } = splitIssuePath(issue.path);
          if (!rowsByKey.has(key)) continue;
          byKey.set(key, [
            ...(byKey.get(key) ?? []),
            { field: field ?? 'name', code: caught.code },
          ]);
        }
        if (byKey.size > 0) actions.markIssues(byKey);
      }
      notifyError(errorMessage(t, caught), {
        title: t('errors.save-error'),
        autoClose: saveErrorDurationMs,
      });
      return false;
    } finally {
      setIsSaving(false);
    }
  }

  return {
    draft,
    settings,
    issues,
    isSaving,
    save,
    refuse,
    problem,
    clearProblem: () => setProblem(null),
    /** Saved everything: the next navigation does not ask. */
    suppressPrompt: prompt.suppress,
  };
}
