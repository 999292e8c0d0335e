import { Box, Table, Text, VisuallyHidden } from '@mantine/core';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatCalendarDay, formatDayMonth } from '../format/store-clock';

/** Spec 002 §9: the communication statistics chart is 400 px high (trainings' too). */
export const perDayChartHeight = 400;

const barColor = '#1c7ed6';

export type CountPerDay = readonly { day: string; count: number }[];

/** The chart's description for assistive technologies: the period, the total and the best day. */
export function perDaySummary(perDay: CountPerDay): {
  start: string;
  end: string;
  total: number;
  bestDay: string;
  bestCount: number;
} | null {
  const first = perDay[0];
  const last = perDay.at(-1);
  if (!first || !last) return null;
  let best = first;
  let total = 0;
  for (const entry of perDay) {
    total += entry.count;
    if (entry.count > best.count) best = entry;
  }
  return {
    start: formatCalendarDay(first.day),
    end: formatCalendarDay(last.day),
    total,
    bestDay: formatCalendarDay(best.day),
    bestCount: best.count,
  };
}

type PerDayChartProps = {
  perDay: CountPerDay;
  /** The series' name (a column of the hidden table): "Views", "Completions". */
  seriesLabel: string;
  /** The hidden table's caption. */
  caption: string;
  /** The chart's aria-label from its summary. */
  describe: (summary: NonNullable<ReturnType<typeof perDaySummary>>) => string;
  /** Test ids: `<prefix>-chart`, `<prefix>-chart-empty`, `<prefix>-table`. */
  testIdPrefix: string;
};

/**
 * Counts per day as bars (uPlot, spec 002 §2, §9): one bar per day, 400 px high, the width of
 * its container. A visually hidden table gives the same figures to screen readers.
 */
export function PerDayChart({
  perDay,
  seriesLabel,
  caption,
  describe,
  testIdPrefix,
}: PerDayChartProps) {
  const { t } = useTranslation();
  const containerRef = useRef<HTMLDivElement>(null);
  const summary = perDaySummary(perDay);
  const label = summary ? describe(summary) : t('content.stats.chartEmpty');

  const labels = useMemo(() => perDay.map((entry) => formatDayMonth(entry.day)), [perDay]);
  const data = useMemo(
    (): uPlot.AlignedData => [
      perDay.map((_entry, index) => index),
      perDay.map((entry) => entry.count),
    ],
    [perDay],
  );

  useEffect(() => {
    const container = containerRef.current;
    if (!container || perDay.length === 0) return;
    const count = perDay.length;
    const options: uPlot.Options = {
      width: Math.max(container.clientWidth, 200),
      height: perDayChartHeight,
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      scales: {
        x: { time: false, range: () => [-0.5, count - 0.5] },
        y: { range: (_chart, _min, max) => [0, Math.max(1, Math.ceil(max * 1.1))] },
      },
      series: [
        {},
        {
          label: seriesLabel,
          stroke: barColor,
          fill: barColor,
          width: 0,
          points: { show: false },
          paths: uPlot.paths?.bars?.({ size: [0.7, 48], align: 0 }),
        },
      ],
      axes: [
        {
          space: 48,
          values: (_chart, splits) =>
            splits.map((split) => (Number.isInteger(split) ? (labels[split] ?? '') : '')),
        },
        {
          size: 48,
          values: (_chart, splits) =>
            splits.map((split) => (Number.isInteger(split) ? String(split) : '')),
        },
      ],
    };
    const chart = new uPlot(options, data, container);
    const observer = new ResizeObserver(() => {
      const width = Math.max(container.clientWidth, 200);
      if (width !== chart.width) chart.setSize({ width, height: perDayChartHeight });
    });
    observer.observe(container);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [perDay, labels, data, seriesLabel]);

  if (perDay.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid={`${testIdPrefix}-chart-empty`}>
        {t('content.stats.chartEmpty')}
      </Text>
    );
  }

  return (
    <>
      <Box
        ref={containerRef}
        w="100%"
        mih={perDayChartHeight}
        role="img"
        aria-label={label}
        data-testid={`${testIdPrefix}-chart`}
      />
      <VisuallyHidden>
        <Table data-testid={`${testIdPrefix}-table`}>
          <caption>{caption}</caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('content.stats.day')}</Table.Th>
              <Table.Th scope="col">{seriesLabel}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {perDay.map((entry) => (
              <Table.Tr key={entry.day}>
                <Table.Td>{formatCalendarDay(entry.day)}</Table.Td>
                <Table.Td>{entry.count}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </VisuallyHidden>
    </>
  );
}
