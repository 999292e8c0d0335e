import { Button, Group, Pagination, SimpleGrid } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { canCreateAccounts } from '@mise/shared/navigation/rules';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../shared/auth/get-me';
import { ListToolbar } from '../../../shared/ui/list-toolbar';
import { PageHeader } from '../../../shared/ui/page-header';
import { QueryContent } from '../../../shared/ui/query-content';
import { useUsers } from '../api/get-users';
import { AccountCard } from '../components/account-card';
import { NewAccountDialog } from '../components/new-account-dialog';

const pageSize = 48;
export const searchDebounceMs = 300;

/** Accounts list (spec 000 §2): search, inactive toggle, New for admin and distributor. */
export function AccountsPage() {
  const { t } = useTranslation();
  const viewer = useCurrentUser();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, searchDebounceMs);
  const [isInactiveIncluded, setIsInactiveIncluded] = useState(false);
  const [page, setPage] = useState(1);
  const [isNewDialogOpen, setIsNewDialogOpen] = useState(false);

  const users = useUsers({
    search: debouncedSearch,
    isInactiveIncluded,
    limit: pageSize,
    offset: (page - 1) * pageSize,
  });
  const pageCount = users.data ? Math.max(1, Math.ceil(users.data.total / pageSize)) : 1;

  return (
    <>
      <PageHeader
        title={t('areas.accounts')}
        actions={
          canCreateAccounts(viewer.role) ? (
            <Button
              leftSection={<IconPlus size={16} />}
              onClick={() => setIsNewDialogOpen(true)}
              data-testid="accounts-new"
            >
              {t('common.new')}
            </Button>
          ) : null
        }
      />
      <ListToolbar
        search={search}
        onSearchChange={(value) => {
          setSearch(value);
          setPage(1);
        }}
        isInactiveIncluded={isInactiveIncluded}
        onInactiveChange={(isIncluded) => {
          setIsInactiveIncluded(isIncluded);
          setPage(1);
        }}
        isFetching={users.isFetching && !users.isPending}
        testIdPrefix="accounts"
      />
      <QueryContent
        query={users}
        isEmpty={(data) => data.items.length === 0}
        emptyTitle={t('accounts.empty')}
      >
        {(data) => (
          <>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
              {data.items.map((account) => (
                <AccountCard
                  key={account.id}
                  account={account}
                  // No store count for managers (spec 000 §2): neither shown to a manager,
                  // nor on a manager's card (a manager has databases, not stores).
                  isStoreCountShown={viewer.role !== 'manager' && account.role !== 'manager'}
                />
              ))}
            </SimpleGrid>
            {pageCount > 1 ? (
              <Group justify="center" mt="lg">
                <Pagination total={pageCount} value={page} onChange={setPage} />
              </Group>
            ) : null}
          </>
        )}
      </QueryContent>
      {canCreateAccounts(viewer.role) ? (
        <NewAccountDialog
          opened={isNewDialogOpen}
          onClose={() => setIsNewDialogOpen(false)}
          viewer={viewer}
        />
      ) : null}
    </>
  );
}
