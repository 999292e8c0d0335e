import { Button, Group, SimpleGrid, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../shared/auth/get-me';
import { ListToolbar } from '../../../shared/ui/list-toolbar';
import { PageHeader } from '../../../shared/ui/page-header';
import { QueryContent } from '../../../shared/ui/query-content';
import { useStores } from '../api/get-stores';
import { NewStoreDialog } from '../components/new-store-dialog';
import { StoreCard } from '../components/store-card';

const searchDebounceMs = 300;

/** The server's page size; "Show more" asks for one more page. */
const pageSize = 100;

/** Stores list (spec 000 §2): search, inactive toggle, New for admin and distributor. */
export function StoresPage() {
  const { t } = useTranslation();
  const viewer = useCurrentUser();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, searchDebounceMs);
  const [isInactiveIncluded, setIsInactiveIncluded] = useState(false);
  const [isNewDialogOpen, setIsNewDialogOpen] = useState(false);
  const [limit, setLimit] = useState(pageSize);
  const stores = useStores({ search: debouncedSearch, isInactiveIncluded, limit });
  const canCreate = viewer.role === 'admin' || viewer.role === 'distributor';

  return (
    <>
      <PageHeader
        title={t('areas.stores')}
        actions={
          canCreate ? (
            <Button
              leftSection={<IconPlus size={16} />}
              onClick={() => setIsNewDialogOpen(true)}
              data-testid="new-store"
            >
              {t('common.new')}
            </Button>
          ) : null
        }
      />
      <ListToolbar
        search={search}
        onSearchChange={setSearch}
        isInactiveIncluded={isInactiveIncluded}
        onInactiveChange={setIsInactiveIncluded}
        testIdPrefix="stores"
      />
      <QueryContent
        query={stores}
        isEmpty={(data) => data.items.length === 0}
        emptyTitle={t('stores.empty')}
      >
        {(data) => (
          <>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
              {data.items.map((store) => (
                <StoreCard key={store.id} store={store} />
              ))}
            </SimpleGrid>
            {data.total > data.items.length ? (
              <Group justify="center" mt="md" gap="sm">
                <Text size="sm" c="dimmed" data-testid="stores-count">
                  {t('stores.shownOfTotal', {
                    shown: data.items.length,
                    total: data.total,
                  })}
                </Text>
                <Button
                  variant="light"
                  onClick={() => setLimit((current) => Math.min(current + pageSize, 500))}
                  disabled={limit >= 500}
                >
                  {t('common.showMore')}
                </Button>
              </Group>
            ) : null}
          </>
        )}
      </QueryContent>
      {canCreate ? (
        <NewStoreDialog
          opened={isNewDialogOpen}
          onClose={() => setIsNewDialogOpen(false)}
          viewerRole={viewer.role}
        />
      ) : null}
    </>
  );
}
