import type { TrainingStats } from '@mise/shared/trainings/schemas';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { OverviewPanel } from '../../../shared/content/overview-panel';

/**
 * The training statistics' overview (spec 002 §2, §4, §9): employees trained, views today,
 * median time, the completion percentage of the employees aimed at, and the completions per
 * day over the last 10 days plus today.
 */
export function TrainingStatsOverview({ stats }: { stats: TrainingStats }) {
  const { t } = useTranslation();
  const perDay = useMemo(
    () => stats.per_day.map((entry) => ({ day: entry.day, count: entry.completions })),
    [stats.per_day],
  );
  return (
    <OverviewPanel
      stats={stats}
      total={{ label: t('trainings.stats.trained'), value: stats.trained, testId: 'stats-trained' }}
      shareLabel={t('trainings.stats.completion')}
      chart={{
        title: t('trainings.stats.chartTitle'),
        perDay,
        seriesLabel: t('trainings.stats.completions'),
        describe: (summary) => t('trainings.stats.chartSummary', summary),
        testIdPrefix: 'training-completions',
      }}
    />
  );
}
