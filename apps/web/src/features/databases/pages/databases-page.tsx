import { Button, Center, Group, Loader, SimpleGrid, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../shared/auth/get-me';
import { errorMessage } from '../../../shared/i18n/error-message';
import { EmptyState } from '../../../shared/ui/empty-state';
import { PageHeader } from '../../../shared/ui/page-header';
import { useDatabases } from '../api/get-databases';
import { DatabaseCard } from '../components/database-card';
import { NewDatabaseDialog } from '../components/new-database-dialog';

const searchDebounceMs = 300;

/** Databases list (spec 000 §2): every role but customer; New for admin and distributor. */
export function DatabasesPage() {
  const { t } = useTranslation();
  const viewer = useCurrentUser();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, searchDebounceMs);
  const [isNewDialogOpen, setIsNewDialogOpen] = useState(false);
  const databases = useDatabases(debouncedSearch);
  const canCreate = viewer.role === 'admin' || viewer.role === 'distributor';

  return (
    <>
      <PageHeader
        title={t('areas.databases')}
        actions={
          canCreate ? (
            <Button
              leftSection={<IconPlus size={16} />}
              onClick={() => setIsNewDialogOpen(true)}
              data-testid="new-database"
            >
              {t('common.new')}
            </Button>
          ) : null
        }
      />
      <Group mb="md">
        <TextInput
          placeholder={t('common.search')}
          aria-label={t('common.search')}
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          style={{ flex: 1, minWidth: 220, maxWidth: 420 }}
          data-testid="databases-search"
        />
      </Group>
      {databases.isPending ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : databases.isError ? (
        <EmptyState title={t('common.loadFailed')} description={errorMessage(t, databases.error)} />
      ) : databases.data.length === 0 ? (
        <EmptyState title={t('databases.empty')} />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {databases.data.map((database) => (
            <DatabaseCard key={database.id} database={database} />
          ))}
        </SimpleGrid>
      )}
      {canCreate ? (
        <NewDatabaseDialog
          opened={isNewDialogOpen}
          onClose={() => setIsNewDialogOpen(false)}
          isAdmin={viewer.role === 'admin'}
        />
      ) : null}
    </>
  );
}
