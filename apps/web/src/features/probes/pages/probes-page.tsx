import { Button, SimpleGrid, Tabs, TextInput } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../shared/ui/page-header';
import { QueryContent } from '../../../shared/ui/query-content';
import { useProbeStores } from '../api/get-probe-stores';
import { useProbes } from '../api/get-probes';
import { NewProbeDialog } from '../components/new-probe-dialog';
import { ProbeCard } from '../components/probe-card';
import {
  filterProbes,
  isProbeWorking,
  type ProbeFilter,
  probeFilters,
} from '../components/probe-filter';

/** Probes list (spec 000 §2, admin only): search, tabs all / working / not working, New. */
export function ProbesPage() {
  const { t } = useTranslation();
  const probes = useProbes();
  const stores = useProbeStores();
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<ProbeFilter>('all');
  const [isNewDialogOpen, setIsNewDialogOpen] = useState(false);
  const storeNames = useMemo(
    () => new Map((stores.data ?? []).map((store) => [store.id, store.name])),
    [stores.data],
  );
  const storeName = (storeId: string | null) =>
    storeId === null ? null : (storeNames.get(storeId) ?? null);
  // The working rule is judged when the list is drawn (a new answer or a tab draws it again).
  const now = new Date();
  const shown = filterProbes(probes.data ?? [], {
    filter,
    search,
    now,
    storeName: (id) => storeName(id) ?? '',
  });

  return (
    <>
      <PageHeader
        title={t('areas.probes')}
        actions={
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={() => setIsNewDialogOpen(true)}
            data-testid="new-probe"
          >
            {t('probes.new')}
          </Button>
        }
      />
      <TextInput
        mb="sm"
        leftSection={<IconSearch size={16} />}
        placeholder={t('common.search')}
        aria-label={t('common.search')}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        data-testid="probes-search"
      />
      <Tabs
        value={filter}
        onChange={(value) => setFilter((value as ProbeFilter | null) ?? 'all')}
        mb="md"
      >
        <Tabs.List>
          {probeFilters.map((key) => (
            <Tabs.Tab key={key} value={key} data-testid={`probes-tab-${key}`}>
              {t(`probes.tabs.${key}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <QueryContent
        query={probes}
        isEmpty={() => shown.length === 0}
        emptyTitle={t('probes.empty')}
      >
        {() => (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
            {shown.map((probe) => (
              <ProbeCard
                key={probe.id}
                probe={probe}
                storeName={storeName(probe.storeId)}
                isWorking={isProbeWorking(probe, now)}
              />
            ))}
          </SimpleGrid>
        )}
      </QueryContent>
      <NewProbeDialog
        opened={isNewDialogOpen}
        onClose={() => setIsNewDialogOpen(false)}
        stores={stores.data ?? []}
      />
    </>
  );
}
