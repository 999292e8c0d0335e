import { Box, ColorSwatch, Group, Table, Text, VisuallyHidden } from '@mantine/core';
import type { ProfilingPoint } from '@mise/shared/operations/rules';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatPercent } from '@mise/shared/audits/scoring';
import { formatDateTime, formatDateTimeWithSeconds } from '../../../shared/format/date';

const chartHeight = 280;
const cpuColor = '#1c7ed6';
const memoryColor = '#e8590c';

/** The y-axis suggests 0 to 100 % (spec 002 §9): it grows only if a value goes beyond. */
function usageRange(_chart: uPlot, _min: number, max: number): uPlot.Range.MinMax {
  return [0, Math.max(100, Math.ceil(max))];
}

type ProfilingChartProps = {
  points: ProfilingPoint[];
  host: string;
};

/**
 * CPU and memory use over time (uPlot, the product's chart library), the points of
 * profilingChartPoints; a visually hidden table gives the same figures to screen readers.
 */
export function ProfilingChart({ points, host }: ProfilingChartProps) {
  const { t } = useTranslation();
  const containerRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<uPlot | null>(null);
  const cpuLabel = t('technical.profiling.cpu');
  const memoryLabel = t('technical.profiling.memory');
  const data = useMemo(
    (): uPlot.AlignedData => [
      points.map((point) => Date.parse(point.timestamp) / 1000),
      points.map((point) => point.cpu),
      points.map((point) => point.memory),
    ],
    [points],
  );
  const dataRef = useRef(data);
  dataRef.current = data;

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const options: uPlot.Options = {
      width: Math.max(container.clientWidth, 200),
      height: chartHeight,
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      scales: { y: { range: usageRange } },
      series: [
        {},
        { label: cpuLabel, stroke: cpuColor, width: 2, points: { show: false } },
        { label: memoryLabel, stroke: memoryColor, width: 2, points: { show: false } },
      ],
      axes: [{}, { size: 48, values: (_chart, splits) => splits.map((split) => `${split} %`) }],
    };
    const chart = new uPlot(options, dataRef.current, container);
    chartRef.current = chart;
    const observer = new ResizeObserver(() => {
      const width = Math.max(container.clientWidth, 200);
      if (width !== chart.width) chart.setSize({ width, height: chartHeight });
    });
    observer.observe(container);
    return () => {
      observer.disconnect();
      chart.destroy();
      chartRef.current = null;
    };
  }, [cpuLabel, memoryLabel]);

  useEffect(() => {
    chartRef.current?.setData(data);
  }, [data]);

  const first = points[0];
  const last = points.at(-1);
  const label =
    first && last
      ? t('technical.profiling.chartLabel', {
          host,
          start: formatDateTime(first.timestamp),
          end: formatDateTime(last.timestamp),
          cpu: formatPercent(last.cpu),
          memory: formatPercent(last.memory),
        })
      : '';

  return (
    <>
      <Group gap="lg" wrap="wrap" mb="xs" aria-hidden>
        <Group gap={6}>
          <ColorSwatch color={cpuColor} size={12} withShadow={false} />
          <Text size="sm">{cpuLabel}</Text>
        </Group>
        <Group gap={6}>
          <ColorSwatch color={memoryColor} size={12} withShadow={false} />
          <Text size="sm">{memoryLabel}</Text>
        </Group>
      </Group>
      <Box
        ref={containerRef}
        w="100%"
        mih={chartHeight}
        role="img"
        aria-label={label}
        data-testid="technical-profiling-chart"
      />
      <VisuallyHidden>
        <Table data-testid="technical-profiling-table">
          <caption>{t('technical.profiling.tableCaption')}</caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('technical.profiling.time')}</Table.Th>
              <Table.Th scope="col">{cpuLabel}</Table.Th>
              <Table.Th scope="col">{memoryLabel}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {points.map((point) => (
              <Table.Tr key={point.timestamp}>
                <Table.Td>{formatDateTimeWithSeconds(point.timestamp)}</Table.Td>
                <Table.Td>{formatPercent(point.cpu)}</Table.Td>
                <Table.Td>{formatPercent(point.memory)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </VisuallyHidden>
    </>
  );
}
