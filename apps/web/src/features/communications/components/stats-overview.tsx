import type { CommunicationStats } from '@mise/shared/communications/schemas';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { OverviewPanel } from '../../../shared/content/overview-panel';

/**
 * The statistics' overview (spec 002 §2): total views, views today, median time spent, the
 * share of the employees aimed at who saw it, and the views per day.
 */
export function StatsOverview({ stats }: { stats: CommunicationStats }) {
  const { t } = useTranslation();
  const perDay = useMemo(
    () => stats.per_day.map((entry) => ({ day: entry.day, count: entry.views })),
    [stats.per_day],
  );
  return (
    <OverviewPanel
      stats={stats}
      total={{
        label: t('communications.stats.totalViews'),
        value: stats.total_views,
        testId: 'stats-total-views',
      }}
      shareLabel={t('communications.stats.seenBy')}
      chart={{
        title: t('communications.stats.chartTitle'),
        perDay,
        seriesLabel: t('communications.stats.views'),
        describe: (summary) =>
          t('communications.stats.chartSummary', { ...summary, bestViews: summary.bestCount }),
        testIdPrefix: 'communication-views',
      }}
    />
  );
}
