import { Card, Group, Stack, Text } from '@mantine/core';
import type { Probe } from '@mise/shared/probes/schemas';
import { IconBattery2 } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LastTemperature } from './last-temperature';
import { ProbeWorkingBadge } from './probe-working-badge';

/** The detail route of a probe: the selection travels in the query, as for other records. */
export function probePath(probe: Pick<Probe, 'id'>): string {
  return `/probe?id=${encodeURIComponent(probe.id)}`;
}

type ProbeCardProps = { probe: Probe; storeName: string | null; isWorking: boolean };

/** A probe in the list: name, UID, store, last temperature, battery and working badge. */
export function ProbeCard({ probe, storeName, isWorking }: ProbeCardProps) {
  const { t } = useTranslation();
  return (
    <Card
      component={Link}
      to={probePath(probe)}
      withBorder
      radius="md"
      padding="md"
      data-testid="probe-card"
      aria-label={probe.name}
    >
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text fw={600} truncate data-testid="probe-card-name">
            {probe.name}
          </Text>
          <ProbeWorkingBadge isWorking={isWorking} />
        </Group>
        <Text size="xs" c="dimmed" ff="monospace" truncate>
          {probe.probeUID}
        </Text>
        <Text size="sm" truncate data-testid="probe-card-store">
          {storeName ?? t('probes.noStore')}
        </Text>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <LastTemperature probe={probe} />
          <Group gap={4} wrap="nowrap" data-testid="probe-card-battery">
            <IconBattery2 size={16} aria-hidden />
            <Text size="sm">
              {probe.batteryLevel === null
                ? t('probes.noData')
                : t('probes.batteryValue', { value: Math.round(probe.batteryLevel) })}
            </Text>
          </Group>
        </Group>
        {probe.active ? null : (
          <Text size="xs" c="dimmed">
            {t('common.inactive')}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
