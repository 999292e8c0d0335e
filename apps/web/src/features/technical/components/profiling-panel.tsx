import { Center, Loader, Text } from '@mantine/core';
import { formatPercent } from '@mise/shared/audits/scoring';
import { profilingChartPoints } from '@mise/shared/operations/rules';
import type { ServerInstance } from '@mise/shared/operations/schemas';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../shared/ui/empty-state';
import { useProfilingLive } from '../api/get-profiling-live';
import { ProfilingChart } from './profiling-chart';

type ProfilingPanelProps = { instance: ServerInstance };

/**
 * The Profiling tab: the chosen instance's CPU and memory use, read again every 30 s, averaged
 * in groups of 5 snapshots (spec 002 §9). A failed read stops the reads without a message.
 */
export function ProfilingPanel({ instance }: ProfilingPanelProps) {
  const { t } = useTranslation();
  const live = useProfilingLive(instance.id);
  const points = useMemo(() => profilingChartPoints(live.data?.items ?? []), [live.data]);
  const last = points.at(-1);

  if (live.isPending) {
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  }
  if (points.length === 0) {
    return <EmptyState title={t('technical.profiling.empty')} testId="technical-profiling-empty" />;
  }
  return (
    <>
      {last ? (
        <Text size="sm" mb="xs" data-testid="technical-profiling-latest">
          {t('technical.profiling.latest', {
            cpu: formatPercent(last.cpu),
            memory: formatPercent(last.memory),
          })}
        </Text>
      ) : null}
      <ProfilingChart points={points} host={instance.host} />
      <Text size="xs" c="dimmed" mt="xs">
        {t('technical.profiling.refreshHint')}
      </Text>
    </>
  );
}
