import {
  Button,
  Center,
  Group,
  Loader,
  Pagination,
  SimpleGrid,
  Switch,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { canCreateAccounts } from '@mise/shared/navigation/rules';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../shared/auth/get-me';
import { errorMessage } from '../../../shared/i18n/error-message';
import { EmptyState } from '../../../shared/ui/empty-state';
import { PageHeader } from '../../../shared/ui/page-header';
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
      <Group mb="md" align="center" wrap="wrap">
        <TextInput
          placeholder={t('common.search')}
          aria-label={t('common.search')}
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
          style={{ flex: 1, minWidth: 220, maxWidth: 420 }}
          data-testid="accounts-search"
        />
        <Switch
          label={t('common.showInactive')}
          checked={isInactiveIncluded}
          onChange={(event) => {
            setIsInactiveIncluded(event.currentTarget.checked);
            setPage(1);
          }}
          data-testid="accounts-inactive"
        />
        {users.isFetching && !users.isPending ? <Loader size="xs" /> : null}
      </Group>
      {users.isPending ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : users.isError ? (
        <EmptyState title={t('common.loadFailed')} description={errorMessage(t, users.error)} />
      ) : users.data.items.length === 0 ? (
        <EmptyState title={t('accounts.empty')} />
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
            {users.data.items.map((account) => (
              <AccountCard
                key={account.id}
                account={account}
                isStoreCountShown={viewer.role !== 'manager'}
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
