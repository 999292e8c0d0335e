import { Button, Group, Select, SimpleGrid } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useSelection } from '../../../shared/selection/use-selection';
import { EmptyState } from '../../../shared/ui/empty-state';
import { ListToolbar } from '../../../shared/ui/list-toolbar';
import { PageHeader } from '../../../shared/ui/page-header';
import { QueryContent } from '../../../shared/ui/query-content';
import { useCommunicationDatabases } from '../api/get-communication-databases';
import { useCommunications } from '../api/get-communications';
import { CommunicationCard } from '../components/communication-card';
import { newCommunicationPath } from '../components/communication-paths';
import {
  readCommunicationDatabase,
  readListFilter,
  rememberCommunicationDatabase,
  rememberListFilter,
} from '../components/list-memory';

const searchDebounceMs = 300;

/**
 * /communications?database= (spec 002 §2): a database's communications, searched on the
 * server, the inactive ones on demand. The database is the query's, else the one chosen here
 * last time, else the selection popup's, else the first. New and edit only when the answer
 * says the caller may edit (never customers).
 */
export function CommunicationsPage() {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const { databaseId: selectedDatabaseId } = useSelection();
  const databases = useCommunicationDatabases();
  const items = databases.data ?? [];
  const wanted = [searchParams.get('database'), readCommunicationDatabase(), selectedDatabaseId];
  const databaseId =
    wanted.find((id) => id && items.some((database) => database.id === id)) ?? items[0]?.id ?? null;

  const [search, setSearch] = useState(() => readListFilter().search);
  const [isInactiveIncluded, setIsInactiveIncluded] = useState(
    () => readListFilter().isInactiveIncluded,
  );
  const [debouncedSearch] = useDebouncedValue(search, searchDebounceMs);
  const communications = useCommunications(databaseId, {
    search: debouncedSearch,
    isInactiveIncluded,
  });

  useEffect(() => {
    if (databaseId) rememberCommunicationDatabase(databaseId);
  }, [databaseId]);
  useEffect(() => {
    rememberListFilter({ search, isInactiveIncluded });
  }, [search, isInactiveIncluded]);

  const canEdit = communications.data?.can_edit ?? false;

  return (
    <>
      <PageHeader
        title={t('areas.communications')}
        actions={
          canEdit && databaseId ? (
            <Button
              component={Link}
              to={newCommunicationPath(databaseId)}
              leftSection={<IconPlus size={16} aria-hidden />}
              data-testid="communication-new"
            >
              {t('common.new')}
            </Button>
          ) : null
        }
      />
      <Group mb="sm" align="flex-end" wrap="wrap">
        <Select
          label={t('communications.database')}
          placeholder={t('communications.chooseDatabase')}
          data={items.map((database) => ({ value: database.id, label: database.name }))}
          value={databaseId}
          onChange={(value) => {
            if (value) setSearchParams({ database: value }, { replace: true });
          }}
          searchable
          allowDeselect={false}
          nothingFoundMessage={t('common.nothingFound')}
          style={{ flex: 1, minWidth: 220, maxWidth: 420 }}
          data-testid="communication-database"
        />
      </Group>
      <ListToolbar
        search={search}
        onSearchChange={setSearch}
        isInactiveIncluded={isInactiveIncluded}
        onInactiveChange={setIsInactiveIncluded}
        isFetching={communications.isFetching && !communications.isPending}
        testIdPrefix="communications"
      />
      {databases.isSuccess && items.length === 0 ? (
        <EmptyState title={t('communications.noDatabase')} />
      ) : databaseId ? (
        <QueryContent
          query={communications}
          isEmpty={(data) => data.items.length === 0}
          emptyTitle={t('communications.empty')}
        >
          {(data) => (
            <SimpleGrid
              cols={{ base: 1, sm: 2, lg: 3 }}
              spacing="md"
              data-testid="communication-list"
            >
              {data.items.map((communication) => (
                <CommunicationCard
                  key={communication.id}
                  communication={communication}
                  canEdit={data.can_edit}
                />
              ))}
            </SimpleGrid>
          )}
        </QueryContent>
      ) : (
        <QueryContent
          query={databases}
          isEmpty={() => true}
          emptyTitle={t('communications.noDatabase')}
        >
          {() => null}
        </QueryContent>
      )}
    </>
  );
}
