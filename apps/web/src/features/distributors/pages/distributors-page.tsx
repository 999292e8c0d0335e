import { Button, SimpleGrid } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../shared/auth/get-me';
import { ListToolbar } from '../../../shared/ui/list-toolbar';
import { PageHeader } from '../../../shared/ui/page-header';
import { QueryContent } from '../../../shared/ui/query-content';
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
      <ListToolbar
        search={search}
        onSearchChange={setSearch}
        isInactiveIncluded={isInactiveIncluded}
        onInactiveChange={setIsInactiveIncluded}
        testIdPrefix="distributors"
      />
      <QueryContent
        query={distributors}
        isEmpty={(items) => items.length === 0}
        emptyTitle={t('distributors.empty')}
      >
        {(items) => (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
            {items.map((distributor) => (
              <DistributorCard key={distributor.id} distributor={distributor} />
            ))}
          </SimpleGrid>
        )}
      </QueryContent>
      {isAdmin ? (
        <NewDistributorDialog opened={isNewDialogOpen} onClose={() => setIsNewDialogOpen(false)} />
      ) : null}
    </>
  );
}
