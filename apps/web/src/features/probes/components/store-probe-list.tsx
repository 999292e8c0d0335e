import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useStoreProbes } from '../api/get-store-probes';
import { LastTemperature } from './last-temperature';
import { probePath } from './probe-card';
import { isProbeWorking } from './probe-filter';
import { ProbeWorkingBadge } from './probe-working-badge';

export type StoreProbeListProps = {
  storeId: string;
  /** Admins open the probe's detail (the probes screens are theirs only). */
  canOpenProbe: boolean;
};

/** The store page's probes (spec 000 §2): name, last temperature, working badge. */
export function StoreProbeList({ storeId, canOpenProbe }: StoreProbeListProps) {
  const { t } = useTranslation();
  const probes = useStoreProbes(storeId);
  const now = new Date();
  // Nothing to say while loading, on error or for a store without probes: the store's
  // own screen stays the same for everyone else.
  if (!probes.data || probes.data.length === 0) return null;

  return (
    <Paper withBorder p="md" radius="md" mt="md" data-testid="store-probes">
      <Title order={2} size="h5" mb="sm">
        {t('probes.storeTitle')}
      </Title>
      <Stack gap="xs">
        {probes.data.map((probe) => (
          <Group
            key={probe.id}
            justify="space-between"
            wrap="wrap"
            gap="xs"
            data-testid="store-probe"
          >
            {canOpenProbe ? (
              <Anchor component={Link} to={probePath(probe)} fw={600} size="sm">
                {probe.name}
              </Anchor>
            ) : (
              <Text fw={600} size="sm">
                {probe.name}
              </Text>
            )}
            <Group gap="sm" wrap="wrap">
              <LastTemperature probe={probe} />
              <ProbeWorkingBadge isWorking={isProbeWorking(probe, now)} />
            </Group>
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}
