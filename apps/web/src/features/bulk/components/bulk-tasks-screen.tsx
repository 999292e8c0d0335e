import type { BulkTaskConfigurationsResponse } from '@mise/shared/catalogue/bulk';
import {
  type BulkLevel,
  type BulkTaskFilter,
  bulkTaskFilters,
  exportObjectIds,
  isInTaskFilter,
} from '@mise/shared/catalogue/bulk-rules';
import { configurationModules, defaultRecurrence } from '@mise/shared/tasks/constants';
import { parseRecurrence, type ScheduleWindow } from '@mise/shared/tasks/rules';
import { useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MessageDialog } from '../../../shared/ui/message-dialog';
import { describeRecurrence, useTaskTypes } from '../../task-configurations/editors';
import { bulkTaskConfigurationsQueryOptions } from '../api/get-bulk-task-configurations';
import { useSaveBulkTaskConfigurations } from '../api/save-bulk-task-configurations';
import type { BulkColumn } from './bulk-columns';
import { BulkGrid } from './bulk-grid';
import { BulkChips, BulkFilters, BulkHeader, visibleRows } from './bulk-layout';
import { nameOf, nextLocalKey } from './bulk-row';
import {
  NewTaskDialog,
  RecurrenceDialog,
  ScheduleDialog,
  TaskTypeDialog,
} from './bulk-task-dialogs';
import { ExportDialog } from './export-dialog';
import {
  duplicatedContent,
  newTaskGridRow,
  type TaskGridRow,
  taskChips,
  taskFilterColumns,
  taskGridRow,
  taskNameColumn,
  taskRowIssues,
  taskWrite,
} from './task-rows';
import { useBulkScreen } from './use-bulk-screen';

type BulkTasksScreenProps = {
  level: BulkLevel;
  ownerId: string;
  ownerName: string;
  /** The caller may save here (the rows' `editable`, never for a customer). */
  isEditable: boolean;
  data: BulkTaskConfigurationsResponse;
};

type Dialog = 'new' | 'types' | 'export' | null;
/** A modal column being edited: for one row (key) or the checked rows (null). */
type ModalEdit = { field: 'recurrence' | 'schedule'; key: string | null };

/**
 * Bulk database tasks and bulk store tasks (spec 001 §2.9): filters General (0), Actions (1),
 * Temperatures (2) and Oils (3) — changing the filter clears the selection —, the grid, new
 * task, task types, recurrence and schedule modals, export and save.
 */
export function BulkTasksScreen({
  level,
  ownerId,
  ownerName,
  data,
  isEditable,
}: BulkTasksScreenProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [initialRows] = useState(() => data.rows.map(taskGridRow));
  const types = useTaskTypes(level, ownerId);
  const saveMutation = useSaveBulkTaskConfigurations(level, ownerId);
  const [filter, setFilter] = useState<BulkTaskFilter>(bulkTaskFilters.general);
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const [isInactiveIncluded, setIsInactiveIncluded] = useState(false);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [modal, setModal] = useState<ModalEdit | null>(null);
  const visibleKeysRef = useRef<string[]>([]);

  const screen = useBulkScreen<TaskGridRow>({
    kind: 'tasks',
    level,
    ownerId,
    initialRows,
    isEditable,
    rowIssues: taskRowIssues,
    save: async (writes, rowsByKey, saved) => {
      const body = writes.flatMap((write) => {
        const row = rowsByKey.get(write.key);
        return row ? [taskWrite(write, row, !saved.has(write.key), level)] : [];
      });
      const rows = await saveMutation.mutateAsync(body);
      return rows.map(taskGridRow);
    },
    reload: async () => {
      const fresh = await queryClient.fetchQuery({
        ...bulkTaskConfigurationsQueryOptions(level, ownerId),
        staleTime: 0,
      });
      return fresh.rows.map(taskGridRow);
    },
    onOpenModal: (field, key) => {
      if (field === 'recurrence' || field === 'schedule') setModal({ field, key });
    },
    getVisibleKeys: () => visibleKeysRef.current,
    // A copy shares no stored file with its original: its actions' attachments are left out.
    adjustDuplicate: (copy) => ({
      ...copy,
      values: { ...copy.values, configuration: duplicatedContent(copy.values.configuration) },
    }),
  });
  const { state, dirty, actions } = screen.draft;

  const typeOptions = useMemo(
    () =>
      (types.data ?? []).map((type) => ({ value: type.id, label: type.name, color: type.color })),
    [types.data],
  );
  const hiddenModules = data.hidden_modules;
  const modules = configurationModules.filter((module) => !hiddenModules.includes(module));
  const chips = taskChips.filter((chip) => chip.module === null || modules.includes(chip.module));
  const columns = useMemo<BulkColumn[]>(() => {
    const describe = (rule: string) => describeRecurrence(parseRecurrence(rule), t);
    return [taskNameColumn(t), ...taskFilterColumns(filter, { t, typeOptions, describe })];
  }, [t, typeOptions, filter]);

  const rows = useMemo(
    () =>
      visibleRows(state.rows, state.saved, {
        search: deferredSearch,
        isInactiveIncluded,
        extra: (row) => isInTaskFilter(row.info.module, filter),
      }),
    [state.rows, state.saved, deferredSearch, isInactiveIncluded, filter],
  );
  visibleKeysRef.current = rows.map((row) => row.key);

  function whenEditable(action: () => void) {
    if (isEditable) action();
    else screen.refuse();
  }

  function handleFilter(name: string) {
    const chip = taskChips.find((candidate) => candidate.name === name);
    if (!chip || chip.filter === filter) return;
    setFilter(chip.filter);
    // Changing a task filter clears the task selection (spec 001 §2.9).
    actions.clearChecks();
  }

  const modalRow = modal?.key ? state.rows.find((row) => row.key === modal.key) : undefined;
  const modalTitle = modal
    ? modal.key
      ? t(modal.field === 'recurrence' ? 'bulk.recurrenceOf' : 'bulk.schedulesOf', {
          row: modalRow ? nameOf(modalRow) : '',
        })
      : t(modal.field === 'recurrence' ? 'bulk.recurrenceChecked' : 'bulk.schedulesChecked', {
          count: state.checked.size,
        })
    : '';

  function applyModal(value: unknown) {
    if (!modal) return;
    if (modal.key) actions.edit(modal.key, modal.field, value);
    else screen.settings.handlers.onApply(modal.field, value);
    setModal(null);
  }

  const chipName = taskChips.find((chip) => chip.filter === filter)?.name ?? 'general';

  return (
    <>
      <BulkHeader
        kind="tasks"
        level={level}
        ownerId={ownerId}
        ownerName={ownerName}
        dirtyCount={dirty.length}
        isSaving={screen.isSaving}
        onNew={() => whenEditable(() => setDialog('new'))}
        onTypes={() => whenEditable(() => setDialog('types'))}
        onExport={() => whenEditable(() => setDialog('export'))}
        onSave={() => void screen.save()}
      />
      <BulkChips
        chips={chips.map((chip) => ({ name: chip.name, label: t(`bulk.taskChips.${chip.name}`) }))}
        value={chipName}
        onChange={handleFilter}
        label={t('bulk.chipsLabel')}
      />
      <BulkFilters
        search={search}
        onSearchChange={setSearch}
        isInactiveIncluded={isInactiveIncluded}
        onInactiveChange={setIsInactiveIncluded}
        shownCount={rows.length}
        checkedCount={state.checked.size}
      />
      <BulkGrid
        rows={rows}
        saved={state.saved}
        checked={state.checked}
        conflicted={state.conflicted}
        issues={screen.issues}
        columns={columns}
        settings={screen.settings}
        checkedCount={state.checked.size}
        label={t('bulk.titleTasks', { name: ownerName })}
      />
      <NewTaskDialog
        modules={modules}
        opened={dialog === 'new'}
        onClose={() => setDialog(null)}
        onCreate={(input) => actions.add(newTaskGridRow(nextLocalKey(), input, level))}
      />
      <TaskTypeDialog
        level={level}
        ownerId={ownerId}
        types={types.data ?? []}
        opened={dialog === 'types'}
        onClose={() => setDialog(null)}
      />
      {modal?.field === 'recurrence' ? (
        <RecurrenceDialog
          key={`${modal.key ?? 'checked'}:recurrence`}
          opened
          title={modalTitle}
          initialRule={modalRow?.values.recurrence ?? defaultRecurrence}
          onClose={() => setModal(null)}
          onApply={applyModal}
        />
      ) : null}
      {modal?.field === 'schedule' ? (
        <ScheduleDialog
          key={`${modal.key ?? 'checked'}:schedule`}
          opened
          title={modalTitle}
          initialWindows={modalRow?.values.schedule ?? ([] as ScheduleWindow[])}
          onClose={() => setModal(null)}
          onApply={applyModal}
        />
      ) : null}
      <ExportDialog
        kind="tasks"
        level={level}
        ownerId={ownerId}
        opened={dialog === 'export'}
        onClose={() => setDialog(null)}
        checkedCount={state.checked.size}
        getObjectIds={() => {
          const current = screen.draft.getState();
          return exportObjectIds(current.rows, current.checked);
        }}
        saveFirst={() => screen.save({ isQuiet: true })}
      />
      <MessageDialog
        opened={screen.problem !== null}
        onClose={screen.clearProblem}
        title={t('dialog.error')}
        message={
          screen.problem
            ? t('bulk.rowProblem', {
                row: screen.problem.rowName,
                message: t(`errors.${screen.problem.code}`),
              })
            : ''
        }
        kind="error"
        testId="bulk-validation"
      />
    </>
  );
}
