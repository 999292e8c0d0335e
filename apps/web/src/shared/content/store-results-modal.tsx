import { Center, Loader, Modal, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatStoreDateTime } from '../format/store-clock';
import { EmptyState } from '../ui/empty-state';
import { QueryContent } from '../ui/query-content';
import { formatTimeSpent } from './format-duration';
import { type StatsStoreResult, useStatsStoreResults } from './get-stats-store-results';
import type { StatsSource } from './get-stats-stores';

type StoreResultsModalProps = {
  source: StatsSource;
  /** The store opened, or null when closed. */
  store: { id: string; name: string } | null;
  /** The zone completion dates read in (undefined: the browser's). */
  timeZone: string | undefined;
  onClose: () => void;
};

function Line({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" data-testid={testId}>
        {value}
      </Text>
    </Stack>
  );
}

function ResultCard({
  result,
  timeZone,
}: {
  result: StatsStoreResult;
  timeZone: string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md" p="sm" component="li" data-testid="store-result">
      <Text fw={600} size="sm" mb={4} data-testid="store-result-employee">
        {result.employee_name}
      </Text>
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs">
        <Line
          label={t('content.stats.store')}
          value={result.store_name}
          testId="store-result-store"
        />
        <Line
          label={t('content.stats.completedAt')}
          value={result.completed_at ? formatStoreDateTime(result.completed_at, timeZone) : '?'}
          testId="store-result-completed"
        />
        <Line
          label={t('content.stats.timeSpent')}
          value={formatTimeSpent(result.time_spent, '?')}
          testId="store-result-time"
        />
      </SimpleGrid>
    </Paper>
  );
}

/**
 * The Details modal of a store (spec 002 §2): each result with the employee's full name, the
 * store's name, the completion date (or ?) and the time spent (or ?).
 */
export function StoreResultsModal({ source, store, timeZone, onClose }: StoreResultsModalProps) {
  const { t } = useTranslation();
  const results = useStatsStoreResults(source, store?.id ?? null);
  return (
    <Modal
      opened={store !== null}
      onClose={onClose}
      title={t('content.stats.details', { name: store?.name ?? '' })}
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.close') }}
      data-testid="store-results-modal"
    >
      {store ? (
        results.isPending ? (
          <Center py="md">
            <Loader aria-label={t('common.loading')} />
          </Center>
        ) : (
          <QueryContent
            query={results}
            isEmpty={(data) => data.items.length === 0}
            emptyTitle={t('content.stats.noResult')}
          >
            {(data) => (
              <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
                {data.items.map((result) => (
                  <ResultCard key={result.employee_id} result={result} timeZone={timeZone} />
                ))}
              </Stack>
            )}
          </QueryContent>
        )
      ) : (
        <EmptyState title={t('content.stats.noResult')} />
      )}
    </Modal>
  );
}
