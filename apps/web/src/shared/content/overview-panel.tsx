import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatTimeSpent } from './format-duration';
import { PerDayChart } from './per-day-chart';

type Figure = {
  label: string;
  value: string;
  hint?: string;
  /** Test ids: `<testId>`, `<testId>-value`, `<testId>-hint`. */
  testId: string;
};

function StatFigure({ label, value, hint, testId }: Figure) {
  return (
    <Paper withBorder radius="md" p="md" data-testid={testId}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={28} fw={700} lh={1.2} data-testid={`${testId}-value`}>
        {value}
      </Text>
      {hint ? (
        <Text size="xs" c="dimmed" data-testid={`${testId}-hint`}>
          {hint}
        </Text>
      ) : null}
    </Paper>
  );
}

/** The figures every reading statistics has (spec 002 §2, §4). */
type ReadingFigures = {
  views_today: number;
  /** Seconds; null without any completion. */
  median_time_spent: number | null;
  /** Share of the employees aimed at who completed it, rounded. */
  percentage: number;
  target_employees: number;
};

type OverviewPanelProps = {
  stats: ReadingFigures;
  /** The first figure: the total views of a communication, the employees a training trained. */
  total: { label: string; value: number; testId: string };
  /** The share's label ("Seen by", "Completion"). */
  shareLabel: string;
  /** The chart under the figures, titled (its title is also the hidden table's caption). */
  chart: Omit<Parameters<typeof PerDayChart>[0], 'caption'> & { title: string };
};

/**
 * The overview tab of a communication's or a training's statistics (spec 002 §2): the total,
 * views today, the median time spent and the share of the employees aimed at (in a row,
 * stacked on a phone), then the counts per day.
 */
export function OverviewPanel({
  stats,
  total,
  shareLabel,
  chart: { title, ...chart },
}: OverviewPanelProps) {
  const { t, i18n } = useTranslation();
  const number = (value: number) => new Intl.NumberFormat(i18n.language).format(value);
  const figures: Figure[] = [
    { label: total.label, value: number(total.value), testId: total.testId },
    {
      label: t('content.stats.viewsToday'),
      value: number(stats.views_today),
      testId: 'stats-views-today',
    },
    {
      label: t('content.stats.medianTime'),
      value: formatTimeSpent(stats.median_time_spent),
      testId: 'stats-median-time',
    },
    {
      label: shareLabel,
      value: t('content.percent', { value: stats.percentage }),
      hint: t('content.stats.targetEmployees', { count: stats.target_employees }),
      testId: 'stats-percentage',
    },
  ];
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md">
        {figures.map((figure) => (
          <StatFigure key={figure.testId} {...figure} />
        ))}
      </SimpleGrid>
      <Paper withBorder radius="md" p="md">
        <Title order={2} size="h4" mb="sm">
          {title}
        </Title>
        <PerDayChart {...chart} caption={title} />
      </Paper>
    </Stack>
  );
}
