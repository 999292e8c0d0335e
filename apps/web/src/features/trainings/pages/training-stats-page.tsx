import { Badge, Button, Group, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { StatsStoresTable } from '../../../shared/content/stats-stores-table';
import { StatsTabs } from '../../../shared/content/stats-tabs';
import { PageHeader } from '../../../shared/ui/page-header';
import { PageQueryState } from '../../../shared/ui/page-query-state';
import { useTrainingStats } from '../api/get-training-stats';
import { trainingsQueryKeys } from '../api/training-query-keys';
import { trainingsPathOf } from '../components/training-paths';
import { TrainingStatsOverview } from '../components/training-stats-overview';

/**
 * /trainingStats?id=<trainingId>&tab=overview|table (spec 002 §2): the header titled with the
 * training's name, the overview (figures and completions per day) and the table of stores with
 * each store's Details. Every role that reads the training sees them; dates read on the
 * browser's clock (a training spans stores of several zones).
 */
export function TrainingStatsPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id');
  const stats = useTrainingStats(id);

  if (!id || !stats.isSuccess) {
    return (
      <PageQueryState
        title={t('areas.trainingStats')}
        query={id ? stats : null}
        noneTitle={t('trainings.noneSelected')}
      />
    );
  }

  const { training } = stats.data;
  return (
    <>
      <PageHeader
        title={training.name}
        subtitle={t('areas.trainingStats')}
        actions={
          <Button
            component={Link}
            to={trainingsPathOf(training)}
            variant="subtle"
            leftSection={<IconArrowLeft size={16} aria-hidden />}
            data-testid="training-stats-back"
          >
            {t('trainings.back')}
          </Button>
        }
      />
      <Group gap="xs" mb="md" wrap="wrap">
        <Text size="sm" c="dimmed" data-testid="training-stats-type">
          {t(`trainings.types.${training.type}`)}
        </Text>
        {training.required ? (
          <Badge color="grape" variant="light">
            {t('trainings.required')}
          </Badge>
        ) : null}
        {training.active ? null : (
          <Badge color="orange" variant="light">
            {t('common.inactive')}
          </Badge>
        )}
        {training.category ? (
          <Badge color="gray" variant="light">
            {training.category.name}
          </Badge>
        ) : null}
      </Group>
      <StatsTabs
        overview={<TrainingStatsOverview stats={stats.data} />}
        table={
          <StatsStoresTable
            source={{
              apiPath: `/trainings/${encodeURIComponent(id)}`,
              queryKey: trainingsQueryKeys.stats(id),
            }}
            timeZone={undefined}
            countLabel={t('trainings.stats.trainedColumn')}
          />
        }
      />
    </>
  );
}
