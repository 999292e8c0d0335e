import { Button, Center, Group, Loader, Stack, Title } from '@mantine/core';
import type { Probe } from '@mise/shared/probes/schemas';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toCalendarDay } from '../../../shared/format/date';
import { errorMessage } from '../../../shared/i18n/error-message';
import { type DateRange, DateRangePicker } from '../../../shared/ui/date-range-picker';
import { EmptyState } from '../../../shared/ui/empty-state';
import { AlertEpisodeList, useAlerts } from '../../alerts/panels';
import { type ChartRange, useProbeTemperatures } from '../api/get-probe-temperatures';
import { chartThresholds, probeChartData } from './probe-chart-data';
import { type EpisodeShade, episodeShades } from './probe-chart-episodes';
import { type ChartPreset, chartPresets, dayRange, presetRange } from './probe-chart-range';

// uPlot and the charts arrive in their own chunk, after the detail's form is on screen.
const ProbeCharts = lazy(async () => ({
  default: (await import('./probe-charts')).ProbeCharts,
}));

function daysOf(range: ChartRange): DateRange {
  return { start: toCalendarDay(range.start), end: toCalendarDay(range.end) };
}

/** The most episodes one period lists (the API's largest page). */
const episodesLimit = 500;
const noShades: EpisodeShade[] = [];

/**
 * The date range, presets and Apply of the probe's charts (spec 000 §2), the charts with the
 * period's alert episodes shaded, and those episodes with their acknowledgements below.
 */
export function ProbeChartPanel({ probe }: { probe: Probe }) {
  const { t } = useTranslation();
  const [preset, setPreset] = useState<ChartPreset | null>('day');
  const [applied, setApplied] = useState<ChartRange>(() => presetRange('day', new Date()));
  const [days, setDays] = useState<DateRange>(() => daysOf(applied));
  const temperatures = useProbeTemperatures(probe.probeUID, applied);
  const data = useMemo(
    () => (temperatures.data ? probeChartData(temperatures.data, chartThresholds(probe)) : null),
    [temperatures.data, probe],
  );
  const alerts = useAlerts({
    probeUID: probe.probeUID,
    from: applied.start,
    to: applied.end,
    state: 'all',
    limit: episodesLimit,
  });
  const shades = useMemo(
    () =>
      alerts.data
        ? episodeShades(alerts.data, Date.now(), {
            start: Date.parse(applied.start),
            end: Date.parse(applied.end),
          })
        : noShades,
    [alerts.data, applied],
  );

  function applyRange(range: ChartRange) {
    setApplied(range);
    setDays(daysOf(range));
  }

  function handlePreset(next: ChartPreset) {
    setPreset(next);
    applyRange(presetRange(next, new Date()));
  }

  function handleDays(next: DateRange) {
    setDays(next);
    setPreset(null);
  }

  function handleApply() {
    if (preset !== null) {
      applyRange(presetRange(preset, new Date()));
    } else if (days.start && days.end) {
      setApplied(dayRange(days.start, days.end));
    }
  }

  return (
    <Stack gap="sm">
      <Group align="flex-end" wrap="wrap" gap="sm">
        <DateRangePicker
          value={days}
          onChange={handleDays}
          maxDate={toCalendarDay(new Date()) ?? undefined}
          testId="probe-chart-range"
        />
        <Button
          onClick={handleApply}
          disabled={!days.start || !days.end}
          data-testid="probe-chart-apply"
        >
          {t('probes.chart.apply')}
        </Button>
        <Group gap={4} wrap="wrap">
          {chartPresets.map((key) => (
            <Button
              key={key}
              size="compact-sm"
              variant={preset === key ? 'filled' : 'default'}
              onClick={() => handlePreset(key)}
              data-testid={`probe-chart-preset-${key}`}
            >
              {t(`probes.chart.presets.${key}`)}
            </Button>
          ))}
        </Group>
      </Group>
      {temperatures.isPending ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : temperatures.isError || !data ? (
        <EmptyState
          title={t('common.loadFailed')}
          description={errorMessage(t, temperatures.error)}
        />
      ) : data.times.length === 0 ? (
        <EmptyState title={t('probes.chart.empty')} testId="probe-chart-empty" />
      ) : (
        <Suspense
          fallback={
            <Center py="xl">
              <Loader />
            </Center>
          }
        >
          <ProbeCharts data={data} shades={shades} />
        </Suspense>
      )}
      <Title order={2} size="h4" mt="md">
        {t('alerts.episodes.title')}
      </Title>
      <AlertEpisodeList episodes={alerts.data} isPending={alerts.isPending} error={alerts.error} />
    </Stack>
  );
}
