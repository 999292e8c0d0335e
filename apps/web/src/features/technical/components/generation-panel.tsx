import { Alert, Button, Center, Group, Loader, Stack } from '@mantine/core';
import { IconPlayerPlay, IconSearch } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCalendarDay } from '../../../shared/format/store-clock';
import { errorCodeMessage, errorMessage } from '../../../shared/i18n/error-message';
import { useSelection } from '../../../shared/selection/use-selection';
import { type DateRange, DateRangePicker } from '../../../shared/ui/date-range-picker';
import { EmptyState } from '../../../shared/ui/empty-state';
import { notifyApiError, notifySuccess } from '../../../shared/ui/notify';
import { useRunGeneration } from '../api/run-generation';
import { useGenerationEvents } from '../api/search-generation-events';
import type { GenerationSearch } from '../api/technical-query-keys';
import { GenerationEventsTable } from './generation-events-table';
import { type PickedStore, StorePicker } from './store-picker';

type SubmittedSearch = GenerationSearch & { storeName: string };

/** The chosen days as instants: from the first day's 00:00 to the last day's end, browser time. */
function searchBounds(range: DateRange): { start: string; end: string } | null {
  if (!range.start || !range.end) return null;
  return {
    start: dayjs(range.start).startOf('day').toISOString(),
    end: dayjs(range.end).endOf('day').toISOString(),
  };
}

/**
 * The Task generation tab (spec 002 §2): a store, a period (today by default), the events the
 * search finds, and "Run now" for the store. Without a store, the spec's message asks for one.
 */
export function GenerationPanel() {
  const { t } = useTranslation();
  const { selection } = useSelection();
  const [store, setStore] = useState<PickedStore | null>(
    selection?.kind === 'store' ? { id: selection.id, name: selection.name } : null,
  );
  const today = dayjs().format('YYYY-MM-DD');
  const [range, setRange] = useState<DateRange>({ start: today, end: today });
  const [submitted, setSubmitted] = useState<SubmittedSearch | null>(null);
  const [isStoreMissing, setIsStoreMissing] = useState(false);
  const events = useGenerationEvents(submitted);
  const run = useRunGeneration();

  function handleStoreChange(next: PickedStore | null) {
    setStore(next);
    if (next) setIsStoreMissing(false);
  }

  function handleSearch() {
    if (!store) {
      setIsStoreMissing(true);
      return;
    }
    const bounds = searchBounds(range);
    if (!bounds) return;
    const next = { storeId: store.id, ...bounds };
    if (
      submitted &&
      submitted.storeId === next.storeId &&
      submitted.start === next.start &&
      submitted.end === next.end
    ) {
      void events.refetch();
      return;
    }
    setSubmitted({ ...next, storeName: store.name });
  }

  function handleRun() {
    if (!store) {
      setIsStoreMissing(true);
      return;
    }
    run.mutate(store.id, {
      onSuccess: (result) =>
        notifySuccess(
          t('technical.generation.runDone', {
            count: result.created,
            day: formatCalendarDay(result.day),
          }),
        ),
      onError: (error) => notifyApiError(error),
    });
  }

  function renderEvents() {
    if (isStoreMissing) {
      return (
        <EmptyState
          title={errorCodeMessage(t, 'task-generation/select-store')}
          testId="technical-select-store"
        />
      );
    }
    if (!submitted) {
      return (
        <EmptyState title={t('technical.generation.hint')} testId="technical-generation-hint" />
      );
    }
    if (events.isPending) {
      return (
        <Center py="xl">
          <Loader role="status" aria-label={t('common.loading')} />
        </Center>
      );
    }
    if (events.isError) {
      return (
        <EmptyState
          title={t('common.loadFailed')}
          description={errorMessage(t, events.error)}
          testId="technical-generation-error"
        />
      );
    }
    if (events.data.items.length === 0) {
      return (
        <EmptyState title={t('technical.generation.empty')} testId="technical-generation-empty" />
      );
    }
    return (
      <Stack gap="xs">
        {events.data.truncated ? (
          <Alert color="yellow" data-testid="technical-generation-truncated">
            {t('technical.generation.truncated')}
          </Alert>
        ) : null}
        <GenerationEventsTable events={events.data.items} storeName={submitted.storeName} />
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <Group align="flex-end" gap="md" wrap="wrap">
        <StorePicker value={store} onChange={handleStoreChange} />
        <DateRangePicker
          label={t('technical.generation.range')}
          value={range}
          onChange={setRange}
          testId="technical-generation-range"
        />
        <Group gap="sm">
          <Button
            leftSection={<IconSearch size={16} />}
            onClick={handleSearch}
            loading={submitted !== null && events.isFetching}
            data-testid="technical-generation-search"
          >
            {t('technical.generation.search')}
          </Button>
          <Button
            variant="default"
            leftSection={<IconPlayerPlay size={16} />}
            onClick={handleRun}
            loading={run.isPending}
            data-testid="technical-generation-run"
          >
            {t('technical.generation.runNow')}
          </Button>
        </Group>
      </Group>
      {renderEvents()}
    </Stack>
  );
}
