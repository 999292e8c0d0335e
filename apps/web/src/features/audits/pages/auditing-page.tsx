import { Button, Group, Select, SimpleGrid } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { isApiError } from '../../../shared/api/api-error';
import { useSelection } from '../../../shared/selection/use-selection';
import { EmptyState } from '../../../shared/ui/empty-state';
import { ListToolbar } from '../../../shared/ui/list-toolbar';
import { PageHeader } from '../../../shared/ui/page-header';
import { QueryContent } from '../../../shared/ui/query-content';
import { useAuditDatabases } from '../api/get-audit-databases';
import { useAudits } from '../api/get-audits';
import { AuditCard } from '../components/audit-card';
import {
  readAuditDatabase,
  readListFilter,
  rememberAuditDatabase,
  rememberListFilter,
} from '../components/list-memory';

const searchDebounceMs = 300;

/**
 * /auditing?database= (spec 002 §2): a database's audits, searchable, the inactive ones on
 * demand. The database is the query's, else the one chosen here last time, else the selection
 * popup's, else the first; search and toggle are kept for the session, as other lists do.
 */
export function AuditingPage() {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const { databaseId: selectedDatabaseId } = useSelection();
  const databases = useAuditDatabases();
  const items = databases.data ?? [];
  const wanted = [searchParams.get('database'), readAuditDatabase(), selectedDatabaseId];
  const databaseId =
    wanted.find((id) => id && items.some((database) => database.id === id)) ?? items[0]?.id ?? null;

  const [search, setSearch] = useState(() => readListFilter().search);
  const [isInactiveIncluded, setIsInactiveIncluded] = useState(
    () => readListFilter().isInactiveIncluded,
  );
  const [debouncedSearch] = useDebouncedValue(search, searchDebounceMs);
  const audits = useAudits(databaseId, { search: debouncedSearch, isInactiveIncluded });

  useEffect(() => {
    if (databaseId) rememberAuditDatabase(databaseId);
  }, [databaseId]);
  useEffect(() => {
    rememberListFilter({ search, isInactiveIncluded });
  }, [search, isInactiveIncluded]);

  const canCreate = audits.data?.can_create ?? false;
  const isHidden = isApiError(audits.error, 'audit/extension-hidden');

  return (
    <>
      <PageHeader
        title={t('areas.auditing')}
        actions={
          canCreate && databaseId ? (
            <Button
              component={Link}
              to={`/auditingConfiguration?database=${encodeURIComponent(databaseId)}`}
              leftSection={<IconPlus size={16} aria-hidden />}
              data-testid="audit-new"
            >
              {t('common.new')}
            </Button>
          ) : null
        }
      />
      <Group mb="sm" align="flex-end" wrap="wrap">
        <Select
          label={t('audits.database')}
          placeholder={t('audits.chooseDatabase')}
          data={items.map((database) => ({ value: database.id, label: database.name }))}
          value={databaseId}
          onChange={(value) => {
            if (value) setSearchParams({ database: value }, { replace: true });
          }}
          searchable
          allowDeselect={false}
          nothingFoundMessage={t('common.nothingFound')}
          style={{ flex: 1, minWidth: 220, maxWidth: 420 }}
          data-testid="audit-database"
        />
      </Group>
      <ListToolbar
        search={search}
        onSearchChange={setSearch}
        isInactiveIncluded={isInactiveIncluded}
        onInactiveChange={setIsInactiveIncluded}
        isFetching={audits.isFetching && !audits.isPending}
        testIdPrefix="audits"
      />
      {databases.isSuccess && items.length === 0 ? (
        <EmptyState title={t('audits.noDatabase')} />
      ) : isHidden ? (
        <EmptyState title={t('errors.audit/extension-hidden')} />
      ) : databaseId ? (
        <QueryContent
          query={audits}
          isEmpty={(data) => data.items.length === 0}
          emptyTitle={t('audits.empty')}
        >
          {(data) => (
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" data-testid="audit-list">
              {data.items.map((audit) => (
                <AuditCard key={audit.id} audit={audit} canReadResults={data.can_read_results} />
              ))}
            </SimpleGrid>
          )}
        </QueryContent>
      ) : (
        <QueryContent query={databases} isEmpty={() => true} emptyTitle={t('audits.noDatabase')}>
          {() => null}
        </QueryContent>
      )}
    </>
  );
}
