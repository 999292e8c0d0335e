import { Alert, Box, Button, Group, Loader, LoadingOverlay, Stack, Text } from '@mantine/core';
import { maxPunchRangeDays } from '@mise/shared/people/constants';
import { punchCardsCsv } from '@mise/shared/people/rules';
import type { PunchCards } from '@mise/shared/people/schemas';
import {
  IconArrowLeft,
  IconBuildingStore,
  IconDeviceFloppy,
  IconFileTypeCsv,
  IconFileTypePdf,
  IconSearch,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '../../../shared/api/api-error';
import { useCurrentUser } from '../../../shared/auth/get-me';
import {
  currentWeek,
  daysOfRange,
  isCalendarDay,
  rangeLength,
} from '../../../shared/format/store-clock';
import { errorMessage } from '../../../shared/i18n/error-message';
import { currentLanguage } from '../../../shared/i18n/i18n';
import { SelectionPopup } from '../../../shared/selection/selection-popup';
import { useSelection } from '../../../shared/selection/use-selection';
import { useAppSession } from '../../../shared/session/app-session';
import { openConfirmDialog } from '../../../shared/ui/confirm-dialog';
import { type DateRange, DateRangePicker } from '../../../shared/ui/date-range-picker';
import { isUnexpectedFileTypeError, saveBlob } from '../../../shared/ui/download-file';
import { EmptyState } from '../../../shared/ui/empty-state';
import { notifyError, notifyErrorCode, notifySuccess } from '../../../shared/ui/notify';
import { PageHeader } from '../../../shared/ui/page-header';
import { useUnsavedChangesPrompt } from '../../../shared/ui/use-unsaved-changes-prompt';
import { useDownloadPunchCardsPdf } from '../api/download-punch-cards-pdf';
import { punchCardsQueryOptions, usePunchCards } from '../api/get-punch-cards';
import { useSavePunchCards } from '../api/save-punch-cards';
import {
  addEntry,
  areAllCardsCoherent,
  buildSaveBody,
  deleteEntry,
  type EditableEntry,
  editEntryTime,
  hasChanges,
  incoherentEntryKeys,
  toEditableEntries,
} from '../components/punch-card-editing';
import { PunchCardTable } from '../components/punch-card-table';
import { PunchEditDialog } from '../components/punch-edit-dialog';

/** The zone of new stores (spec 000 §9), used until the store's own is known. */
const defaultZone = 'Europe/Paris';
const csvFileName = 'punch_cards.csv';
const csvType = 'text/csv;charset=utf-8';

/** Local edits of one loaded answer: dropped as soon as another answer is on screen. */
type Draft = { source: PunchCards; entries: EditableEntry[] };

/**
 * /punchCards?store=&start=&end= (spec 000 §2): the punch cards of a store over a range, by
 * default the store's current week. Entries are added, re-timed and deleted on screen, then
 * saved at once; saving is refused while a card is incoherent (spec 000 §4). The store is the
 * one in the address, else the tablet link's custom store id, else the one chosen in the
 * selection popup.
 */
export function PunchCardsPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [searchParams, setSearchParams] = useSearchParams();
  const { storeId: selectedStoreId } = useSelection();
  const [isSelectionOpen, setIsSelectionOpen] = useState(false);
  const { customStoreId } = useAppSession();
  // A tablet link's store_id (spec 000 §2 entry rule) opens that store, before the selection.
  const storeId = searchParams.get('store') ?? customStoreId ?? selectedStoreId;

  /* ---------- Range ---------- */
  const [zoneHint, setZoneHint] = useState<string | null>(null);
  const startParam = searchParams.get('start');
  const endParam = searchParams.get('end');
  const hasRangeParams =
    isCalendarDay(startParam) && isCalendarDay(endParam) && startParam <= endParam;
  const week = currentWeek(zoneHint ?? defaultZone);
  const start = hasRangeParams ? startParam : week.start;
  const end = hasRangeParams ? endParam : week.end;
  const [pickedRange, setPickedRange] = useState<DateRange | null>(null);

  const punchCards = usePunchCards(storeId ? { storeId, start, end } : null);
  const data = punchCards.data;
  const zone = data?.store.timezone_name || defaultZone;
  // The default week is the store's: once its zone is known, the week follows it.
  if (data && zoneHint !== zone) setZoneHint(zone);

  /* ---------- Local edits ---------- */
  const [draft, setDraft] = useState<Draft | null>(null);
  const savedEntries = useMemo(() => (data ? toEditableEntries(data.entries) : []), [data]);
  const entries = draft && draft.source === data ? draft.entries : savedEntries;
  const isDirty = data !== undefined && hasChanges(entries, data.entries);
  const incoherentKeys = useMemo(() => incoherentEntryKeys(entries), [entries]);
  const isEditable = data?.editable === true;
  useUnsavedChangesPrompt(isDirty);
  const [editingKey, setEditingKey] = useState<string | null>(null);
  const editingEntry = entries.find((entry) => entry.key === editingKey) ?? null;

  function updateEntries(next: EditableEntry[]) {
    if (data) setDraft({ source: data, entries: next });
  }

  function handleAdd(employeeId: string, day: string) {
    updateEntries(addEntry(entries, { employeeId, day, now: new Date(), zone }).entries);
  }

  function handleApply(entry: EditableEntry, newTime: string): string | null {
    const result = editEntryTime(entries, entry.key, newTime);
    if (!result.ok) {
      return result.error === 'punch-card/edit-too-early'
        ? t('punchCards.editTooEarly')
        : t('errors.unknown');
    }
    updateEntries(result.entries);
    return null;
  }

  function handleDelete(entry: EditableEntry) {
    updateEntries(deleteEntry(entries, entry.key));
  }

  /* ---------- Search ---------- */
  async function reload() {
    if (!storeId) return;
    await queryClient.refetchQueries({
      queryKey: punchCardsQueryOptions({ storeId, start, end }).queryKey,
      exact: true,
    });
    setDraft(null);
  }

  function handleSearch() {
    const range = pickedRange ?? { start, end };
    if (!range.start || !range.end) {
      notifyError(t('punchCards.invalidRange'));
      return;
    }
    if (rangeLength(range.start, range.end) > maxPunchRangeDays) {
      notifyErrorCode('date-range-too-long', { id: 'date-range-too-long' });
      return;
    }
    setPickedRange(null);
    if (range.start === start && range.end === end) {
      // The same range: read it again, after asking when edits would be lost.
      if (!isDirty) {
        void reload();
        return;
      }
      openConfirmDialog({
        title: t('dialog.unsavedTitle'),
        message: t('errors.unsaved-changes'),
        confirmLabel: t('dialog.yes'),
        cancelLabel: t('dialog.no'),
        onConfirm: () => void reload(),
      });
      return;
    }
    // Another range: the unsaved-changes prompt guards the change of address.
    setSearchParams((current) => {
      const next = new URLSearchParams(current);
      next.set('start', range.start as string);
      next.set('end', range.end as string);
      return next;
    });
  }

  /* ---------- Save ---------- */
  const save = useSavePunchCards();

  async function handleSave() {
    if (!data || !storeId) return;
    if (!areAllCardsCoherent(entries)) {
      notifyError(t('punchCards.incoherent'), { id: 'punch-card-incoherent' });
      return;
    }
    let saved: PunchCards;
    try {
      saved = await save.mutateAsync({
        storeId,
        body: buildSaveBody(entries, {
          start: data.start,
          end: data.end,
          loadedAt: data.loaded_at,
        }),
      });
    } catch (error) {
      notifyError(
        isApiError(error, 'punch-card/incoherent')
          ? t('punchCards.incoherent')
          : errorMessage(t, error),
      );
      return;
    }
    notifySuccess(t('punchCards.saved'));
    // The answer is the saved range (new ids and versions): it replaces the local edits.
    if (saved?.store?.id === storeId && Array.isArray(saved.entries)) {
      queryClient.setQueryData(
        punchCardsQueryOptions({ storeId, start: data.start, end: data.end }).queryKey,
        saved,
      );
      setDraft(null);
    } else await reload();
  }

  /* ---------- Exports ---------- */
  const pdf = useDownloadPunchCardsPdf();
  const [pdfPercent, setPdfPercent] = useState<number | null>(null);

  function handleCsv() {
    if (!data) return;
    const csv = punchCardsCsv({
      storeName: data.store.name,
      zone,
      employees: data.employees.map((employee) => ({
        name: employee.name,
        surname: employee.surname,
        entries: entries.filter((entry) => entry.employee_id === employee.id),
      })),
    });
    // Exactly the spec's file (spec 000 §9): no byte-order mark before the header.
    saveBlob(new Blob([csv], { type: csvType }), csvFileName);
  }

  function handlePdf() {
    if (!data || !storeId) return;
    setPdfPercent(null);
    pdf.mutate(
      {
        body: { storeId, start: data.start, end: data.end, lang: currentLanguage() },
        onProgress: (progress) => setPdfPercent(progress.percent),
      },
      {
        onError: (error) => {
          if (error instanceof DOMException && error.name === 'AbortError') return;
          notifyError(
            t(
              isUnexpectedFileTypeError(error)
                ? 'punchCards.unexpectedFileType'
                : 'punchCards.pdfFailed',
            ),
          );
        },
      },
    );
  }

  /* ---------- Screen ---------- */
  function handleBack() {
    if (location.key !== 'default') navigate(-1);
    else navigate('/home');
  }

  const back = (
    <Button
      variant="subtle"
      leftSection={<IconArrowLeft size={16} />}
      onClick={handleBack}
      data-testid="punch-back"
    >
      {t('punchCards.back')}
    </Button>
  );

  const selectionPopup = (
    <SelectionPopup
      opened={isSelectionOpen}
      onClose={() => setIsSelectionOpen(false)}
      viewerRole={user.role}
    />
  );

  if (!storeId) {
    return (
      <Box data-testid="punch-cards-page">
        <PageHeader title={t('punchCards.title')} actions={back} />
        <EmptyState
          title={t('punchCards.noStore')}
          icon={<IconBuildingStore size={28} />}
          testId="punch-no-store"
          actions={
            <Button onClick={() => setIsSelectionOpen(true)} data-testid="punch-select-store">
              {t('punchCards.chooseStore')}
            </Button>
          }
        />
        {selectionPopup}
      </Box>
    );
  }

  const canExport = data !== undefined && !punchCards.isPlaceholderData;
  const days = data ? daysOfRange(data.start, data.end) : [];

  function renderContent() {
    if (punchCards.isPending) {
      return (
        <Group justify="center" py="xl">
          <Loader />
        </Group>
      );
    }
    if (punchCards.isError || !data) {
      return (
        <EmptyState
          title={t('common.loadFailed')}
          description={errorMessage(t, punchCards.error)}
          testId="punch-error"
        />
      );
    }
    if (data.employees.length === 0) {
      return <EmptyState title={t('punchCards.noEmployees')} testId="punch-empty" />;
    }
    return (
      <Box pos="relative">
        <LoadingOverlay visible={punchCards.isPlaceholderData} zIndex={10} />
        <PunchCardTable
          employees={data.employees}
          entries={entries}
          days={days}
          zone={zone}
          incoherentKeys={incoherentKeys}
          isEditable={isEditable && !punchCards.isPlaceholderData}
          onAdd={handleAdd}
          onOpen={(entry) => setEditingKey(entry.key)}
        />
      </Box>
    );
  }

  const editingEmployee = data?.employees.find((item) => item.id === editingEntry?.employee_id);

  return (
    <Box data-testid="punch-cards-page">
      <PageHeader title={t('punchCards.title')} subtitle={data?.store.name} actions={back} />
      <Stack gap="md">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <DateRangePicker
            label={t('punchCards.range')}
            value={pickedRange ?? { start, end }}
            onChange={setPickedRange}
            testId="punch-range"
          />
          <Button
            leftSection={<IconSearch size={16} />}
            onClick={handleSearch}
            loading={punchCards.isFetching}
            data-testid="punch-search"
          >
            {t('punchCards.search')}
          </Button>
          <Button
            variant="default"
            leftSection={<IconFileTypeCsv size={16} />}
            onClick={handleCsv}
            disabled={!canExport}
            data-testid="punch-csv"
          >
            {t('punchCards.csv')}
          </Button>
          <Button
            variant="default"
            leftSection={<IconFileTypePdf size={16} />}
            onClick={handlePdf}
            disabled={!canExport || pdf.isPending}
            loading={pdf.isPending}
            data-testid="punch-pdf"
          >
            {t('punchCards.pdf')}
          </Button>
          {isEditable ? (
            <Button
              leftSection={<IconDeviceFloppy size={16} />}
              onClick={() => void handleSave()}
              loading={save.isPending}
              disabled={punchCards.isPlaceholderData}
              data-testid="punch-save"
              data-dirty={String(isDirty)}
            >
              {t('punchCards.save')}
            </Button>
          ) : null}
          {pdf.isPending ? (
            <Text size="xs" c="dimmed" aria-live="polite" data-testid="punch-pdf-progress">
              {pdfPercent === null
                ? t('punchCards.downloading')
                : t('punchCards.downloadingPercent', { percent: pdfPercent })}
            </Text>
          ) : null}
        </Group>
        {data && !isEditable ? (
          <Alert color="gray" variant="light" data-testid="punch-read-only">
            {t('punchCards.readOnly')}
          </Alert>
        ) : null}
        {renderContent()}
      </Stack>
      <PunchEditDialog
        entry={editingEntry}
        employeeName={
          editingEmployee
            ? `${editingEmployee.name.trim()} ${editingEmployee.surname.trim()}`.trim()
            : ''
        }
        zone={zone}
        onApply={handleApply}
        onDelete={handleDelete}
        onClose={() => setEditingKey(null)}
      />
      {selectionPopup}
    </Box>
  );
}
