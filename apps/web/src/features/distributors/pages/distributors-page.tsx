import { Button, Center, Group, Loader, SimpleGrid, Switch, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../shared/auth/get-me';
import { errorMessage } from '../../../shared/i18n/error-message';
import { EmptyState } from '../../../shared/ui/empty-state';
import { PageHeader } from '../../../shared/ui/page-header';
import { useDistributors } from '../api/get-distributors';
import { DistributorCard } from '../components/distributor-card';
import { NewDistributorDialog } from '../components/new-distributor-dialog';

const searchDebounceMs = 300;

/** Distributors list (spec 000 §2): search, inactive toggle, New for admins. */
export function DistributorsPage() {
  const { t } = useTranslation();
  const viewer = useCurrentUser();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, searchDebounceMs);
  const [isInactiveIncluded, setIsInactiveIncluded] = useState(false);
  const [isNewDialogOpen, setIsNewDialogOpen] = useState(false);
  const distributors = useDistributors({ search: debouncedSearch, isInactiveIncluded });
  const isAdmin = viewer.role === 'admin';

  return (
    <>
      <PageHeader
        title={t('areas.distributors')}
        actions={
          isAdmin ? (
            <Button
              leftSection={<IconPlus size={16} />}
              onClick={() => setIsNewDialogOpen(true)}
              data-testid="new-distributor"
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
          data-testid="distributors-search"
        />
        <Switch
          label={t('common.showInactive')}
          checked={isInactiveIncluded}
          onChange={(event) => setIsInactiveIncluded(event.currentTarget.checked)}
          data-testid="distributors-inactive"
        />
      </Group>
      {distributors.isPending ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : distributors.isError ? (
        <EmptyState
          title={t('common.loadFailed')}
          description={errorMessage(t, distributors.error)}
        />
      ) : distributors.data.length === 0 ? (
        <EmptyState title={t('distributors.empty')} />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {distributors.data.map((distributor) => (
            <DistributorCard key={distributor.id} distributor={distributor} />
          ))}
        </SimpleGrid>
      )}
      {isAdmin ? (
        <NewDistributorDialog opened={isNewDialogOpen} onClose={() => setIsNewDialogOpen(false)} />
      ) : null}
    </>
  );
}
