import { Button, Center, Group, Loader, SimpleGrid, Switch, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../shared/auth/get-me';
import { errorMessage } from '../../../shared/i18n/error-message';
import { EmptyState } from '../../../shared/ui/empty-state';
import { PageHeader } from '../../../shared/ui/page-header';
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
      <Group mb="md" align="center" wrap="wrap">
        <TextInput
          placeholder={t('common.search')}
          aria-label={t('common.search')}
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          style={{ flex: 1, minWidth: 220, maxWidth: 420 }}
          data-testid="stores-search"
        />
        <Switch
          label={t('common.showInactive')}
          checked={isInactiveIncluded}
          onChange={(event) => setIsInactiveIncluded(event.currentTarget.checked)}
          data-testid="stores-inactive"
        />
      </Group>
      {stores.isPending ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : stores.isError ? (
        <EmptyState title={t('common.loadFailed')} description={errorMessage(t, stores.error)} />
      ) : stores.data.items.length === 0 ? (
        <EmptyState title={t('stores.empty')} />
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
            {stores.data.items.map((store) => (
              <StoreCard key={store.id} store={store} />
            ))}
          </SimpleGrid>
          {stores.data.total > stores.data.items.length ? (
            <Group justify="center" mt="md" gap="sm">
              <Text size="sm" c="dimmed" data-testid="stores-count">
                {t('stores.shownOfTotal', {
                  shown: stores.data.items.length,
                  total: stores.data.total,
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
