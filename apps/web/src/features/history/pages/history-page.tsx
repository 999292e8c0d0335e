import {
  Box,
  Button,
  Center,
  Group,
  Loader,
  LoadingOverlay,
  SegmentedControl,
  Select,
  Stack,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  defaultHistoryFilter,
  type HistoryFilter,
  historyFilters,
  historyRangeToastMs,
  historyTabs,
} from '@mise/shared/history/constants';
import { validateHistoryRange } from '@mise/shared/history/rules';
import type { HistoryStore } from '@mise/shared/history/schemas';
import type { TaskModule } from '@mise/shared/tasks/constants';
import {
  IconArrowsMaximize,
  IconArrowsMinimize,
  IconFileTypeCsv,
  IconFileTypePdf,
  IconPackage,
  IconSearch,
} from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { isApiError } from '../../../shared/api/api-error';
import { addCalendarDays, todayInStoreZone } from '../../../shared/format/store-clock';
import { errorMessage } from '../../../shared/i18n/error-message';
import { currentLanguage } from '../../../shared/i18n/i18n';
import { useSelection } from '../../../shared/selection/use-selection';
import { useAppSession } from '../../../shared/session/app-session';
import { type DateRange, DateRangePicker } from '../../../shared/ui/date-range-picker';
import { isUnexpectedFileTypeError } from '../../../shared/ui/download-file';
import { EmptyState } from '../../../shared/ui/empty-state';
import { notifyError, notifyErrorCode } from '../../../shared/ui/notify';
import { PageHeader } from '../../../shared/ui/page-header';
import { useDownloadHistoryCsv } from '../api/download-history-csv';
import { type HistoryExportRequest, useDownloadHistoryPdf } from '../api/download-history-pdf';
import { useHistoryProbes } from '../api/get-history-probes';
import { useHistoryStores } from '../api/get-history-stores';
import { useStoreHistory } from '../api/get-store-history';
import { DownloadProgress } from '../components/download-progress';
import { HistoryTaskList } from '../components/history-task-list';
import { InspectorPackDialog } from '../components/inspector-pack-dialog';
import { ProbeDaysProvider } from '../components/probe-days-context';
import { ProbeRecords } from '../components/probe-records';
import { PictureModal } from '../components/result-pictures';

/** Days of the default range, ending on the store's today. */
const defaultRangeDays = 7;
const storeSearchDebounceMs = 300;
/** The text search inside a tab is the server's: asked once typing pauses. */
const textSearchDebounceMs = 300;

type ExportKind = 'pdf' | 'csv';

/** The tab of the probe records (issue 15): alert episodes and probe days, after the modules. */
const probesTab = 'probes';

function isHistoryFilter(value: string | null): value is HistoryFilter {
  return (historyFilters as readonly string[]).includes(value ?? '');
}

function isDay(value: string | null): value is string {
  return value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value);
}

function notifyRangeTooLong() {
  notifyErrorCode('date-range-too-long', {
    autoClose: historyRangeToastMs,
    id: 'date-range-too-long',
  });
}

/**
 * /history?store=&start=&end=&tab=&filter= (spec 002 §2): one store's completed tasks by
 * module over at most 31 days. The screen's state lives in the query so that reload and back
 * keep it; without a store in the query, the tablet link's custom store id, else the store
 * chosen in the selection popup is used.
 */
export function HistoryPage() {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const { storeId: selectedStoreId } = useSelection();
  const { customStoreId } = useAppSession();

  /* ---------- Store ---------- */
  // A tablet link's store_id (spec 000 §2 entry rule) opens that store, before the selection.
  const storeId = searchParams.get('store') ?? customStoreId ?? selectedStoreId;
  const [pickedStore, setPickedStore] = useState<HistoryStore | null>(null);
  const [storeSearch, setStoreSearch] = useState('');
  const allStores = useHistoryStores('');
  const knownStore =
    (pickedStore?.id === storeId ? pickedStore : null) ??
    allStores.data?.find((item) => item.id === storeId) ??
    null;
  const isSearchingStore = storeSearch.trim() !== '' && storeSearch !== knownStore?.name;
  const [debouncedStoreSearch] = useDebouncedValue(
    isSearchingStore ? storeSearch : '',
    storeSearchDebounceMs,
  );
  const searchedStores = useHistoryStores(debouncedStoreSearch);
  const storeOptions = useMemo(() => {
    const items = [...(searchedStores.data ?? allStores.data ?? [])];
    if (knownStore && !items.some((item) => item.id === knownStore.id)) items.unshift(knownStore);
    return items;
  }, [searchedStores.data, allStores.data, knownStore]);
  const store = knownStore;
  const timeZone = store?.timezone_name ?? 'Europe/Paris';

  /* ---------- Range, tab, filter ---------- */
  const defaultEnd = todayInStoreZone(store?.timezone_name);
  const startParam = searchParams.get('start');
  const endParam = searchParams.get('end');
  const start = isDay(startParam) ? startParam : addCalendarDays(defaultEnd, 1 - defaultRangeDays);
  const end = isDay(endParam) ? endParam : defaultEnd;
  const rangeError = validateHistoryRange(start, end);
  const [draftRange, setDraftRange] = useState<DateRange | null>(null);

  const visibleTabs = useMemo(
    () =>
      historyTabs.filter(
        (module) => !(store?.hidden_modules as readonly string[] | undefined)?.includes(module),
      ),
    [store],
  );
  const tabParam = searchParams.get('tab');
  const isProbesTab = tabParam === probesTab;
  const tab: TaskModule | null = isProbesTab
    ? null
    : (visibleTabs.find((module) => module === tabParam) ?? visibleTabs[0] ?? null);
  const filterParam = searchParams.get('filter');
  const filter: HistoryFilter = isHistoryFilter(filterParam) ? filterParam : defaultHistoryFilter;

  const [textSearch, setTextSearch] = useState('');
  const [expanded, setExpanded] = useState<string[]>([]);
  const [picture, setPicture] = useState<string | null>(null);
  const [isPackOpen, setIsPackOpen] = useState(false);

  const [debouncedTextSearch] = useDebouncedValue(textSearch.trim(), textSearchDebounceMs);
  const history = useStoreHistory(
    store && tab && rangeError === null
      ? { storeId: store.id, start, end, module: tab, filter, search: debouncedTextSearch }
      : null,
  );
  const firstPage = history.data?.pages[0];
  // The period's probe records: the probes tab, and the probe line under manual readings.
  const probes = useHistoryProbes(
    store && rangeError === null ? { storeId: store.id, start, end } : null,
  );

  // A range refused by the server (its rule may be stricter than the client's) is a 4 s toast.
  const isServerRangeError = isApiError(history.error, 'date-range-too-long');
  useEffect(() => {
    if (isServerRangeError) notifyRangeTooLong();
  }, [isServerRangeError]);
  // A range over 31 days typed in the address: the same toast, and nothing is asked.
  useEffect(() => {
    if (rangeError === 'date-range-too-long') notifyRangeTooLong();
  }, [rangeError]);

  const visibleTasks = useMemo(
    () => history.data?.pages.flatMap((page) => page.items) ?? [],
    [history.data],
  );
  const isAllExpanded =
    visibleTasks.length > 0 && visibleTasks.every((task) => expanded.includes(task.id));

  function updateParams(patch: Record<string, string | null>) {
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(patch)) {
          if (value === null) next.delete(key);
          else next.set(key, value);
        }
        return next;
      },
      { replace: false },
    );
  }

  function handleStoreChange(value: string | null) {
    const next = storeOptions.find((item) => item.id === value) ?? null;
    setPickedStore(next);
    setStoreSearch(next?.name ?? '');
    setExpanded([]);
    // Another store has another today: its default range follows unless one was chosen.
    updateParams({ store: next?.id ?? null });
  }

  function handleRangeChange(range: DateRange) {
    if (!range.start || !range.end) {
      setDraftRange(range);
      return;
    }
    setDraftRange(null);
    const error = validateHistoryRange(range.start, range.end);
    if (error === 'date-range-too-long') {
      notifyRangeTooLong();
      return;
    }
    if (error) return;
    updateParams({ start: range.start, end: range.end });
  }

  function handleTabChange(value: string | null) {
    if (!value) return;
    setExpanded([]);
    updateParams({ tab: value });
  }

  function handleFilterChange(value: string) {
    setExpanded([]);
    updateParams({ filter: value === defaultHistoryFilter ? null : value });
  }

  function handleToggleAll() {
    setExpanded(isAllExpanded ? [] : visibleTasks.map((task) => task.id));
  }

  /* ---------- Exports ---------- */
  const pdf = useDownloadHistoryPdf();
  const csv = useDownloadHistoryCsv();
  const [download, setDownload] = useState<{ kind: ExportKind; percent: number | null } | null>(
    null,
  );

  function handleExport(kind: ExportKind) {
    if (!store) return;
    if (rangeError === 'date-range-too-long') {
      notifyRangeTooLong();
      return;
    }
    if (rangeError) return;
    const request: HistoryExportRequest = {
      body: { storeId: store.id, start, end, filter, lang: currentLanguage() },
      storeName: store.name,
      onProgress: (progress) => setDownload({ kind, percent: progress.percent }),
    };
    setDownload({ kind, percent: null });
    (kind === 'pdf' ? pdf : csv).mutate(request, {
      onSettled: () => setDownload(null),
      onError: (error) => {
        if (error instanceof DOMException && error.name === 'AbortError') return;
        if (isApiError(error, 'date-range-too-long')) notifyRangeTooLong();
        else if (isUnexpectedFileTypeError(error)) notifyError(t('history.unexpectedFileType'));
        else notifyError(t(kind === 'pdf' ? 'history.pdfFailed' : 'history.csvFailed'));
      },
    });
  }

  const isDownloading = download !== null;
  const canExport = store !== null && rangeError === null && !isDownloading;

  /* ---------- Screen ---------- */
  const hasNoStores = allStores.isSuccess && allStores.data.length === 0;

  function renderProbes() {
    if (probes.isPending) {
      return (
        <Center py="xl">
          <Loader />
        </Center>
      );
    }
    if (probes.isError) {
      return (
        <EmptyState
          title={t('history.probeRecords.loadFailed')}
          description={errorMessage(t, probes.error)}
          testId="history-probes-error"
        />
      );
    }
    return (
      <Box pos="relative">
        <LoadingOverlay visible={probes.isPlaceholderData} zIndex={10} />
        <ProbeRecords data={probes.data} timeZone={timeZone} />
      </Box>
    );
  }

  function renderContent() {
    if (hasNoStores) return <EmptyState title={t('history.noStores')} testId="history-no-stores" />;
    if (!store) return <EmptyState title={t('history.selectStore')} testId="history-no-store" />;
    if (rangeError) {
      return <EmptyState title={t(`errors.${rangeError}`)} testId="history-range-error" />;
    }
    if (isProbesTab) return renderProbes();
    if (!tab) return <EmptyState title={t('history.empty')} testId="history-empty" />;
    if (history.isPending) {
      return (
        <Center py="xl">
          <Loader />
        </Center>
      );
    }
    if (history.isError) {
      return (
        <EmptyState
          title={t('common.loadFailed')}
          description={errorMessage(t, history.error)}
          testId="history-error"
        />
      );
    }
    if (visibleTasks.length === 0) {
      return <EmptyState title={t('history.empty')} testId="history-empty" />;
    }
    return (
      <Box pos="relative">
        <LoadingOverlay visible={history.isPlaceholderData} zIndex={10} />
        <HistoryTaskList
          tasks={visibleTasks}
          module={firstPage?.module ?? tab}
          timeZone={firstPage?.store.timezone_name || timeZone}
          expanded={expanded}
          onExpandedChange={setExpanded}
          onOpenPicture={setPicture}
        />
        {history.hasNextPage ? (
          <Center mt="md">
            <Button
              variant="light"
              onClick={() => void history.fetchNextPage()}
              loading={history.isFetchingNextPage}
              data-testid="history-more"
            >
              {t('history.showMore')}
            </Button>
          </Center>
        ) : null}
      </Box>
    );
  }

  return (
    <>
      <PageHeader
        title={t('history.title')}
        actions={
          <>
            {download ? <DownloadProgress percent={download.percent} /> : null}
            {/* With a custom store id the export is hidden (spec 002 §1), in both formats:
                the CSV is the same export as the PDF. */}
            {customStoreId ? null : (
              <>
                <Button
                  variant="default"
                  leftSection={<IconFileTypePdf size={16} />}
                  onClick={() => handleExport('pdf')}
                  disabled={!canExport}
                  loading={download?.kind === 'pdf'}
                  data-testid="history-pdf"
                >
                  {t('history.pdf')}
                </Button>
                <Button
                  variant="default"
                  leftSection={<IconFileTypeCsv size={16} />}
                  onClick={() => handleExport('csv')}
                  disabled={!canExport}
                  loading={download?.kind === 'csv'}
                  data-testid="history-csv"
                >
                  {t('history.csv')}
                </Button>
                <Button
                  variant="default"
                  leftSection={<IconPackage size={16} />}
                  onClick={() => setIsPackOpen(true)}
                  disabled={store === null}
                  data-testid="inspector-pack-button"
                >
                  {t('inspectorPack.button')}
                </Button>
              </>
            )}
          </>
        }
      />
      <Stack gap="md">
        <Group align="flex-end" gap="md" wrap="wrap">
          <Select
            label={t('history.store')}
            placeholder={t('history.storePlaceholder')}
            data={storeOptions.map((item) => ({
              value: item.id,
              label: item.name,
            }))}
            renderOption={({ option }) => {
              const item = storeOptions.find((candidate) => candidate.id === option.value);
              return (
                <Stack gap={0}>
                  <Text size="sm">{option.label}</Text>
                  {item ? (
                    <Text size="xs" c="dimmed">
                      {[item.city, item.database_name].filter(Boolean).join(' · ')}
                    </Text>
                  ) : null}
                </Stack>
              );
            }}
            value={store?.id ?? null}
            onChange={handleStoreChange}
            searchable
            allowDeselect={false}
            searchValue={storeSearch}
            onSearchChange={setStoreSearch}
            // The server searches; the list is not filtered a second time.
            filter={({ options }) => options}
            nothingFoundMessage={t('common.nothingFound')}
            miw={260}
            data-testid="history-store-select"
          />
          <DateRangePicker
            label={t('history.range')}
            value={draftRange ?? { start, end }}
            onChange={handleRangeChange}
            testId="history-range"
          />
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('history.filterLabel')}
            </Text>
            <SegmentedControl
              value={filter}
              onChange={handleFilterChange}
              data={historyFilters.map((value) => ({
                value,
                label: t(`history.filters.${value}`),
              }))}
              data-testid="history-filter"
            />
          </Stack>
        </Group>
        {store ? (
          <Tabs
            value={isProbesTab ? probesTab : tab}
            onChange={handleTabChange}
            keepMounted={false}
          >
            <Tabs.List>
              {visibleTabs.map((module) => (
                <Tabs.Tab key={module} value={module} data-testid={`history-tab-${module}`}>
                  {t(`history.tabs.${module}`)}
                </Tabs.Tab>
              ))}
              <Tabs.Tab value={probesTab} data-testid="history-tab-probes">
                {t('history.probeRecords.tab')}
              </Tabs.Tab>
            </Tabs.List>
          </Tabs>
        ) : null}
        {store && !isProbesTab ? (
          <Group justify="space-between" gap="sm" wrap="wrap">
            <TextInput
              value={textSearch}
              onChange={(event) => setTextSearch(event.currentTarget.value)}
              placeholder={t('history.search')}
              aria-label={t('history.search')}
              leftSection={<IconSearch size={16} />}
              miw={260}
              data-testid="history-search"
            />
            <Button
              variant="subtle"
              leftSection={
                isAllExpanded ? <IconArrowsMinimize size={16} /> : <IconArrowsMaximize size={16} />
              }
              onClick={handleToggleAll}
              disabled={visibleTasks.length === 0}
              data-testid="history-expand-all"
              data-expanded={String(isAllExpanded)}
            >
              {isAllExpanded ? t('history.collapseAll') : t('history.expandAll')}
            </Button>
          </Group>
        ) : null}
        <ProbeDaysProvider elements={probes.data?.elements}>{renderContent()}</ProbeDaysProvider>
      </Stack>
      <PictureModal path={picture} onClose={() => setPicture(null)} />
      {store ? (
        <InspectorPackDialog
          key={store.id}
          opened={isPackOpen}
          onClose={() => setIsPackOpen(false)}
          store={store}
          shownRange={rangeError === null ? { start, end } : null}
        />
      ) : null}
    </>
  );
}
