import { Text } from '@mantine/core';
import type { Probe } from '@mise/shared/probes/schemas';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/format/date';

/** "4.2 °C" with one decimal at most. */
export function formatTemperature(value: number): string {
  return `${Math.round(value * 10) / 10} °C`;
}

/** The last temperature with its time, or the no-data label (spec 000 §2). */
export function LastTemperature({
  probe,
  size = 'sm',
}: {
  probe: Pick<Probe, 'lastTemperature' | 'lastTemperatureTimestamp'>;
  size?: 'xs' | 'sm' | 'md' | 'lg';
}) {
  const { t } = useTranslation();
  if (probe.lastTemperature === null || probe.lastTemperatureTimestamp === null) {
    return (
      <Text size={size} c="dimmed" data-testid="probe-last-temperature">
        {t('probes.noData')}
      </Text>
    );
  }
  return (
    <Text size={size} data-testid="probe-last-temperature">
      <Text span fw={600} inherit>
        {formatTemperature(probe.lastTemperature)}
      </Text>{' '}
      <Text span c="dimmed" inherit>
        {t('probes.at', { time: formatDateTime(probe.lastTemperatureTimestamp) })}
      </Text>
    </Text>
  );
}
