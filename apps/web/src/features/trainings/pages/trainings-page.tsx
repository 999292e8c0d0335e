import { Button, Group, SimpleGrid } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { trainingTypeFor } from '@mise/shared/trainings/rules';
import { IconPlus } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCurrentUser } from '../../../shared/auth/get-me';
import { EmptyState } from '../../../shared/ui/empty-state';
import { ListToolbar } from '../../../shared/ui/list-toolbar';
import { notifyErrorCode } from '../../../shared/ui/notify';
import { PageHeader } from '../../../shared/ui/page-header';
import { QueryContent } from '../../../shared/ui/query-content';
import { useTrainings } from '../api/get-trainings';
import { TrainingCard } from '../components/training-card';
import { newTrainingPath } from '../components/training-paths';
import { TrainingSourcePicker } from '../components/training-source-picker';
import { trainingListMemory, useListSource } from '../components/use-list-source';

const searchDebounceMs = 300;

/**
 * /trainings?database=|store= (spec 002 §2, §6): the trainings of the role's source, searched
 * on the server, the inactive ones on demand. New makes a training of the source (spec 002 §4);
 * without one, a non-admin reads 'Please select a training source.'.
 */
export function TrainingsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const list = useListSource(user.role);
  const [search, setSearch] = useState(() => trainingListMemory.readFilter().search);
  const [isInactiveIncluded, setIsInactiveIncluded] = useState(
    () => trainingListMemory.readFilter().isInactiveIncluded,
  );
  const [debouncedSearch] = useDebouncedValue(search, searchDebounceMs);
  const trainings = useTrainings(
    list.source,
    { search: debouncedSearch, isInactiveIncluded },
    list.isReady,
  );

  useEffect(() => {
    trainingListMemory.rememberFilter({ search, isInactiveIncluded });
  }, [search, isInactiveIncluded]);

  function handleNew() {
    const owner = trainingTypeFor(user.role, {
      databaseId: list.source.databaseId,
      storeId: list.source.storeId,
      distributorId: user.distributor,
    });
    if (!owner) {
      notifyErrorCode('training/select-source');
      return;
    }
    void navigate(newTrainingPath(list.source));
  }

  const sources = user.role === 'customer' ? list.stores : list.databases;
  const hasNoSource =
    (user.role === 'manager' || user.role === 'customer') &&
    sources.isSuccess &&
    sources.data.length === 0;

  return (
    <>
      <PageHeader
        title={t('areas.trainings')}
        actions={
          <Button
            onClick={handleNew}
            leftSection={<IconPlus size={16} aria-hidden />}
            data-testid="training-new"
          >
            {t('common.new')}
          </Button>
        }
      />
      {user.role === 'admin' ? null : (
        <Group mb="sm" align="flex-end" wrap="wrap">
          <TrainingSourcePicker role={user.role} list={list} />
        </Group>
      )}
      <ListToolbar
        search={search}
        onSearchChange={setSearch}
        isInactiveIncluded={isInactiveIncluded}
        onInactiveChange={setIsInactiveIncluded}
        isFetching={trainings.isFetching && !trainings.isPending}
        testIdPrefix="trainings"
      />
      {hasNoSource ? (
        <EmptyState title={t('trainings.noSource')} testId="trainings-no-source" />
      ) : list.isReady ? (
        <QueryContent
          query={trainings}
          isEmpty={(data) => data.items.length === 0}
          emptyTitle={t('trainings.empty')}
        >
          {(data) => (
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" data-testid="training-list">
              {data.items.map((training) => (
                <TrainingCard key={training.id} training={training} />
              ))}
            </SimpleGrid>
          )}
        </QueryContent>
      ) : (
        <QueryContent<unknown>
          query={sources}
          isEmpty={() => true}
          emptyTitle={t('trainings.noSource')}
        >
          {() => null}
        </QueryContent>
      )}
    </>
  );
}
