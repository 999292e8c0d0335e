import {
  Anchor,
  Button,
  Center,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../i18n/error-message';
import { EmptyState } from '../ui/empty-state';
import { type StatsSource, useStatsStores } from './get-stats-stores';
import { StoreResultsModal } from './store-results-modal';

const searchDebounceMs = 300;

type StatsStoresTableProps = {
  source: StatsSource;
  /** The zone completion dates read in (undefined: the browser's). */
  timeZone: string | undefined;
  /** The header of the count column ("Views", "Trained"). */
  countLabel: string;
};

/**
 * The statistics' table (spec 002 §2): the stores aimed at, searched on the server and paged
 * ("Show more"), with their address and completions over the employees aimed at; a store's
 * name opens its Details.
 */
export function StatsStoresTable({ source, timeZone, countLabel }: StatsStoresTableProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, searchDebounceMs);
  const stores = useStatsStores(source, debouncedSearch);
  const [opened, setOpened] = useState<{ id: string; name: string } | null>(null);
  const items = stores.data?.pages.flatMap((page) => page.items) ?? [];

  let content: ReactNode;
  if (stores.isPending) {
    content = (
      <Center py="xl">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  } else if (stores.isError) {
    content = (
      <EmptyState title={t('common.loadFailed')} description={errorMessage(t, stores.error)} />
    );
  } else if (items.length === 0) {
    content = <EmptyState title={t('content.stats.noStore')} />;
  } else {
    content = (
      <Table.ScrollContainer minWidth={480}>
        <Table striped highlightOnHover data-testid="stats-stores">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('content.stats.storeName')}</Table.Th>
              <Table.Th scope="col">{t('content.stats.address')}</Table.Th>
              <Table.Th scope="col" ta="right">
                {countLabel}
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((store) => (
              <Table.Tr key={store.store_id} data-testid="stats-store-row">
                <Table.Td>
                  <Anchor
                    component="button"
                    type="button"
                    fw={600}
                    size="sm"
                    ta="left"
                    onClick={() => setOpened({ id: store.store_id, name: store.name })}
                    aria-label={t('content.stats.openDetails', { name: store.name })}
                    data-testid="stats-store-open"
                  >
                    {store.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{store.address ?? '—'}</Text>
                </Table.Td>
                <Table.Td ta="right" data-testid="stats-store-views">
                  {t('content.stats.viewsOf', {
                    views: store.views,
                    total: store.target_employees,
                  })}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  return (
    <Stack gap="md">
      <Group gap="sm" wrap="wrap">
        <TextInput
          placeholder={t('common.search')}
          aria-label={t('content.stats.searchStores')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          style={{ flex: 1, minWidth: 220, maxWidth: 420 }}
          data-testid="stats-stores-search"
        />
        {stores.isFetching && !stores.isPending && !stores.isFetchingNextPage ? (
          <Loader size="xs" aria-label={t('common.loading')} />
        ) : null}
      </Group>
      {content}
      {stores.hasNextPage ? (
        <Group justify="center">
          <Button
            variant="light"
            onClick={() => void stores.fetchNextPage()}
            loading={stores.isFetchingNextPage}
            data-testid="stats-stores-more"
          >
            {t('common.showMore')}
          </Button>
        </Group>
      ) : null}
      <StoreResultsModal
        source={source}
        store={opened}
        timeZone={timeZone}
        onClose={() => setOpened(null)}
      />
    </Stack>
  );
}
