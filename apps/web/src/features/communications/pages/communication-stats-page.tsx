import { Badge, Button, Group, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { StatsStoresTable } from '../../../shared/content/stats-stores-table';
import { StatsTabs } from '../../../shared/content/stats-tabs';
import { formatCalendarDay } from '../../../shared/format/store-clock';
import { PageHeader } from '../../../shared/ui/page-header';
import { PageQueryState } from '../../../shared/ui/page-query-state';
import { communicationsQueryKeys } from '../api/communication-query-keys';
import { useCommunicationStats } from '../api/get-communication-stats';
import { communicationsPath } from '../components/communication-paths';
import { CommunicationStateBadge } from '../components/communication-state-badge';
import { StatsOverview } from '../components/stats-overview';

/**
 * /communicationStats?id=<communicationId>&tab=overview|table (spec 002 §2): the header titled
 * with the communication's name, the overview (figures and views per day) and the table of
 * stores with each store's Details. Every role that sees communications reads them.
 */
export function CommunicationStatsPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const id = searchParams.get('id');
  const stats = useCommunicationStats(id);

  if (!id || !stats.isSuccess) {
    return (
      <PageQueryState
        title={t('areas.communicationStats')}
        query={id ? stats : null}
        noneTitle={t('communications.noneSelected')}
      />
    );
  }

  const { communication } = stats.data;
  return (
    <>
      <PageHeader
        title={communication.name}
        subtitle={t('areas.communicationStats')}
        actions={
          <Button
            component={Link}
            to={communicationsPath(communication.database_id)}
            variant="subtle"
            leftSection={<IconArrowLeft size={16} aria-hidden />}
            data-testid="communication-stats-back"
          >
            {t('communications.back')}
          </Button>
        }
      />
      <Group gap="xs" mb="md" wrap="wrap">
        <CommunicationStateBadge state={communication.state} />
        {communication.active ? null : (
          <Badge color="orange" variant="light">
            {t('common.inactive')}
          </Badge>
        )}
        <Text size="sm" c="dimmed" data-testid="communication-stats-period">
          {t('communications.period', {
            start: formatCalendarDay(communication.start_day),
            end: formatCalendarDay(communication.end_day),
          })}
        </Text>
      </Group>
      <StatsTabs
        overview={<StatsOverview stats={stats.data} />}
        table={
          <StatsStoresTable
            source={{
              apiPath: `/communications/${encodeURIComponent(id)}`,
              queryKey: communicationsQueryKeys.stats(id),
            }}
            timeZone={communication.time_zone}
            countLabel={t('communications.stats.views')}
          />
        }
      />
    </>
  );
}
