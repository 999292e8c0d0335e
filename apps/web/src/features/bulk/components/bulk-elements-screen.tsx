import type { BulkElementsResponse } from '@mise/shared/catalogue/bulk';
import { type BulkLevel, exportObjectIds } from '@mise/shared/catalogue/bulk-rules';
import { useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MessageDialog } from '../../../shared/ui/message-dialog';
import { useElementTypes } from '../../elements';
import { bulkElementsQueryOptions } from '../api/get-bulk-elements';
import { useSaveBulkElements } from '../api/save-bulk-elements';
import type { BulkColumn } from './bulk-columns';
import { ElementTypeDialog, NewElementDialog } from './bulk-dialogs';
import { BulkGrid } from './bulk-grid';
import { BulkChips, BulkFilters, BulkHeader, visibleRows } from './bulk-layout';
import { nextLocalKey } from './bulk-row';
import {
  type ElementChip,
  type ElementGridRow,
  elementChipColumns,
  elementChips,
  elementGridRow,
  elementNameColumn,
  elementRowIssues,
  elementWrite,
  newElementGridRow,
} from './element-rows';
import { ExportDialog } from './export-dialog';
import { useBulkScreen } from './use-bulk-screen';

type BulkElementsScreenProps = {
  level: BulkLevel;
  ownerId: string;
  ownerName: string;
  /** The caller may save here (the rows' `editable`, never for a customer). */
  isEditable: boolean;
  data: BulkElementsResponse;
};

type Dialog = 'new' | 'types' | 'export' | null;

/**
 * Bulk database elements and bulk store elements (spec 001 §2.9): filter chips of columns
 * (database level only; a store shows every column), the grid, new element, element types,
 * export and save.
 */
export function BulkElementsScreen({
  level,
  ownerId,
  ownerName,
  data,
  isEditable,
}: BulkElementsScreenProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [initialRows] = useState(() => data.rows.map(elementGridRow));
  const types = useElementTypes(level, ownerId);
  const saveMutation = useSaveBulkElements(level, ownerId);
  const [chip, setChip] = useState<ElementChip>('general');
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const [isInactiveIncluded, setIsInactiveIncluded] = useState(false);
  const [dialog, setDialog] = useState<Dialog>(null);
  const visibleKeysRef = useRef<string[]>([]);

  const screen = useBulkScreen<ElementGridRow>({
    kind: 'elements',
    level,
    ownerId,
    initialRows,
    isEditable,
    rowIssues: (row) => elementRowIssues(row, level),
    save: async (writes) => {
      const saved = await saveMutation.mutateAsync(
        writes.map((write) => elementWrite(write, level)),
      );
      return saved.map(elementGridRow);
    },
    reload: async () => {
      const fresh = await queryClient.fetchQuery({
        ...bulkElementsQueryOptions(level, ownerId),
        staleTime: 0,
      });
      return fresh.rows.map(elementGridRow);
    },
    onOpenModal: () => undefined,
    getVisibleKeys: () => visibleKeysRef.current,
  });
  const { state, dirty } = screen.draft;

  const typeOptions = useMemo(
    () => (types.data ?? []).map((type) => ({ value: type.id, label: type.name })),
    [types.data],
  );
  const hiddenModules = data.hidden_modules;
  const chips = useMemo(
    () =>
      elementChips.filter(
        (candidate) => !candidate.module || !hiddenModules.includes(candidate.module),
      ),
    [hiddenModules],
  );
  const columns = useMemo<BulkColumn[]>(() => {
    const context = { t, typeOptions };
    const name = elementNameColumn(t);
    // A store shows every column: the filters are not shown at store level (spec 001 §2.9).
    if (level === 'store')
      return [name, ...chips.flatMap((candidate) => elementChipColumns(candidate.name, context))];
    return [name, ...elementChipColumns(chip, context)];
  }, [t, typeOptions, level, chips, chip]);

  const rows = useMemo(
    () => visibleRows(state.rows, state.saved, { search: deferredSearch, isInactiveIncluded }),
    [state.rows, state.saved, deferredSearch, isInactiveIncluded],
  );
  visibleKeysRef.current = rows.map((row) => row.key);

  function whenEditable(action: () => void) {
    if (isEditable) action();
    else screen.refuse();
  }

  return (
    <>
      <BulkHeader
        kind="elements"
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
      {level === 'database' ? (
        <BulkChips
          chips={chips.map((candidate) => ({
            name: candidate.name,
            label: t(`bulk.chips.${candidate.name}`),
          }))}
          value={chip}
          onChange={(value) => setChip(value as ElementChip)}
          label={t('bulk.chipsLabel')}
        />
      ) : null}
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
        label={t('bulk.titleElements', { name: ownerName })}
      />
      <NewElementDialog
        level={level}
        typeOptions={typeOptions}
        opened={dialog === 'new'}
        onClose={() => setDialog(null)}
        onCreate={(input) =>
          screen.draft.actions.add(newElementGridRow(nextLocalKey(), input, level))
        }
      />
      <ElementTypeDialog
        level={level}
        ownerId={ownerId}
        types={types.data ?? []}
        opened={dialog === 'types'}
        onClose={() => setDialog(null)}
      />
      <ExportDialog
        kind="elements"
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
