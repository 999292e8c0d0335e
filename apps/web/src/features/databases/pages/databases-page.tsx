import { Button, SimpleGrid } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../shared/auth/get-me';
import { ListToolbar } from '../../../shared/ui/list-toolbar';
import { PageHeader } from '../../../shared/ui/page-header';
import { QueryContent } from '../../../shared/ui/query-content';
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
      <ListToolbar search={search} onSearchChange={setSearch} testIdPrefix="databases" />
      <QueryContent
        query={databases}
        isEmpty={(items) => items.length === 0}
        emptyTitle={t('databases.empty')}
      >
        {(items) => (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
            {items.map((database) => (
              <DatabaseCard key={database.id} database={database} />
            ))}
          </SimpleGrid>
        )}
      </QueryContent>
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
