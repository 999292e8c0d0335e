import { Box, Grid, Group, Paper, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type uPlot from 'uplot';
import { formatDateTime } from '../../../shared/format/date';
import type { ProbeChartData } from './probe-chart-data';
import type { EpisodeShade } from './probe-chart-episodes';
import { UPlotChart } from './uplot-chart';

const colors = {
  temperature: '#1c7ed6',
  band: 'rgba(28, 126, 214, 0.18)',
  minimum: '#1098ad',
  maximum: '#e03131',
  battery: '#2f9e44',
} as const;

/** Alert episodes behind the curve: a red tint out of range, grey while offline. */
const shadeColors: Record<EpisodeShade['kind'], string> = {
  out_of_range: 'rgba(224, 49, 49, 0.14)',
  offline: 'rgba(134, 142, 150, 0.22)',
};

/** Paints each episode's span over the plot's full height, under the axes' grid and the series. */
function episodeShadingPlugin(shades: readonly EpisodeShade[]): uPlot.Plugin {
  return {
    hooks: {
      drawClear: [
        (chart) => {
          const { left, top, width, height } = chart.bbox;
          const context = chart.ctx;
          context.save();
          for (const shade of shades) {
            const from = Math.max(left, chart.valToPos(shade.start, 'x', true));
            const to = Math.min(left + width, chart.valToPos(shade.end, 'x', true));
            if (!(to > from)) continue;
            context.fillStyle = shadeColors[shade.kind];
            context.fillRect(from, top, to - from, height);
          }
          context.restore();
        },
      ],
    },
  };
}

const chartHeight = 280;

const temperatureAxis = (values: number[]) => values.map((value) => `${value} °C`);
/** The time axis and cursor as the product writes times (dd/mm/yyyy HH:MM, 24 h); uPlot counts seconds. */
const timeSeries: uPlot.Series = {
  value: (_chart, seconds) => (seconds === null ? '–' : formatDateTime(seconds * 1000)),
};
const timeAxis: uPlot.Axis = {
  // Ticks read dd/mm over HH:MM (the year is in the period above the chart), 80 px apart.
  values: (_chart, splits) =>
    splits.map((seconds) => formatDateTime(seconds * 1000).replace(/\/\d{4} /, '\n')),
  space: 80,
  size: 56,
};
const percentAxis = (values: number[]) => values.map((value) => `${value} %`);

type ProbeChartsProps = { data: ProbeChartData; shades: readonly EpisodeShade[] };

/**
 * The temperature chart (with each bucket's min–max band when downsampled and the probe's
 * minimum and maximum as threshold lines) and the battery chart beside it. Loaded on demand:
 * uPlot is not part of any other screen's code.
 */
export function ProbeCharts({ data, shades }: ProbeChartsProps) {
  const { t } = useTranslation();
  const hasBand = data.band !== null;
  const hasMinimum = data.minimumLine !== null;
  const hasMaximum = data.maximumLine !== null;

  const temperatureOptions = useMemo((): Omit<uPlot.Options, 'width' | 'height'> => {
    const series: uPlot.Series[] = [
      timeSeries,
      {
        label: t('probes.chart.temperature'),
        stroke: colors.temperature,
        width: 1.5,
        value: (_chart, value) => (value === null ? '–' : `${value.toFixed(1)} °C`),
      },
    ];
    const bands: uPlot.Band[] = [];
    if (hasBand) {
      series.push(
        {
          label: t('probes.chart.bucketLow'),
          stroke: colors.band,
          width: 0,
          points: { show: false },
        },
        {
          label: t('probes.chart.bucketHigh'),
          stroke: colors.band,
          width: 0,
          points: { show: false },
        },
      );
      bands.push({ series: [3, 2], fill: colors.band });
    }
    if (hasMinimum) {
      series.push({
        label: t('probes.chart.minimum'),
        stroke: colors.minimum,
        dash: [6, 4],
        width: 1,
        points: { show: false },
      });
    }
    if (hasMaximum) {
      series.push({
        label: t('probes.chart.maximum'),
        stroke: colors.maximum,
        dash: [6, 4],
        width: 1,
        points: { show: false },
      });
    }
    return {
      series,
      bands,
      axes: [timeAxis, { values: (_chart, values) => temperatureAxis(values), size: 72 }],
      cursor: { drag: { x: true, y: false } },
      // An offline episode has no readings: the time axis stretches to show its span too.
      scales:
        shades.length > 0
          ? {
              x: {
                time: true,
                range: (_chart, dataMin, dataMax) => [
                  Math.min(dataMin, ...shades.map((shade) => shade.start)),
                  Math.max(dataMax, ...shades.map((shade) => shade.end)),
                ],
              },
            }
          : {},
      plugins: shades.length > 0 ? [episodeShadingPlugin(shades)] : [],
    };
  }, [t, hasBand, hasMinimum, hasMaximum, shades]);

  const temperatureData = useMemo((): uPlot.AlignedData => {
    const columns: (number | null)[][] = [data.temperatures];
    if (data.band) columns.push(data.band.lows, data.band.highs);
    if (data.minimumLine) columns.push(data.minimumLine);
    if (data.maximumLine) columns.push(data.maximumLine);
    return [data.times, ...columns];
  }, [data]);

  const batteryOptions = useMemo(
    (): Omit<uPlot.Options, 'width' | 'height'> => ({
      series: [
        timeSeries,
        {
          label: t('probes.chart.battery'),
          stroke: colors.battery,
          width: 1.5,
          value: (_chart, value) => (value === null ? '–' : `${Math.round(value)} %`),
        },
      ],
      scales: { y: { range: [0, 100] } },
      axes: [timeAxis, { values: (_chart, values) => percentAxis(values), size: 50 }],
    }),
    [t],
  );

  const batteryData = useMemo((): uPlot.AlignedData => [data.times, data.batteryLevels], [data]);

  return (
    <Grid>
      <Grid.Col span={{ base: 12, md: 8 }}>
        <ChartCard
          title={t('probes.chart.temperatureTitle')}
          options={temperatureOptions}
          data={temperatureData}
          testId="probe-temperature-chart"
        />
        <ShadeLegend shades={shades} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <ChartCard
          title={t('probes.chart.batteryTitle')}
          options={batteryOptions}
          data={batteryData}
          testId="probe-battery-chart"
        />
      </Grid.Col>
    </Grid>
  );
}

/** Which tint means what, for the kinds the chart shows. */
function ShadeLegend({ shades }: { shades: readonly EpisodeShade[] }) {
  const { t } = useTranslation();
  const kinds = (['out_of_range', 'offline'] as const).filter((kind) =>
    shades.some((shade) => shade.kind === kind),
  );
  if (kinds.length === 0) return null;
  return (
    <Group gap="md" mt={6} data-testid="probe-chart-shade-legend">
      {kinds.map((kind) => (
        <Group key={kind} gap={6} wrap="nowrap">
          <Box
            w={14}
            h={14}
            aria-hidden
            style={{
              background: shadeColors[kind],
              border: '1px solid var(--mantine-color-default-border)',
            }}
          />
          <Text size="xs">{t(`alerts.kinds.${kind}`)}</Text>
        </Group>
      ))}
    </Group>
  );
}

type ChartCardProps = {
  title: string;
  options: Omit<uPlot.Options, 'width' | 'height'>;
  data: uPlot.AlignedData;
  testId: string;
};

function ChartCard({ title, options, data, testId }: ChartCardProps) {
  return (
    <Paper withBorder p="sm" radius="md">
      <Text fw={600} size="sm" mb="xs">
        {title}
      </Text>
      <UPlotChart
        options={options}
        data={data}
        height={chartHeight}
        label={title}
        testId={testId}
      />
    </Paper>
  );
}
