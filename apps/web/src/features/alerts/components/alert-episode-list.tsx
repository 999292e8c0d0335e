import { Badge, Button, Center, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import type { AlertEpisode } from '@mise/shared/probes/alerts';
import { IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../shared/i18n/error-message';
import { EmptyState } from '../../../shared/ui/empty-state';
import { AcknowledgeAlertDialog } from './acknowledge-alert-dialog';
import { alertKindColors, episodeFigures, formatAlertTime } from './alert-format';
import { AlertKindBadge } from './alert-kind-badge';

type AlertEpisodeListProps = {
  episodes: AlertEpisode[] | undefined;
  isPending: boolean;
  error: unknown;
};

/**
 * A probe's alert episodes over the chart's period, newest first, each with its span, figures,
 * escalation level and acknowledgement trail (who, when, the corrective action), or the
 * Acknowledge button while nobody has. Times on the browser's clock, like the chart.
 */
export function AlertEpisodeList({ episodes, isPending, error }: AlertEpisodeListProps) {
  const { t } = useTranslation();
  const [acknowledging, setAcknowledging] = useState<AlertEpisode | null>(null);

  if (isPending) {
    return (
      <Center py="md">
        <Loader size="sm" />
      </Center>
    );
  }
  if (!episodes) {
    return <EmptyState title={t('common.loadFailed')} description={errorMessage(t, error)} />;
  }
  if (episodes.length === 0) {
    return (
      <EmptyState
        title={t('alerts.episodes.empty')}
        icon={<IconCircleCheck size={28} aria-hidden />}
        testId="probe-alerts-empty"
      />
    );
  }
  return (
    <Stack gap="sm" data-testid="probe-alerts">
      {episodes.map((episode) => (
        <EpisodeCard
          key={episode.id}
          episode={episode}
          onAcknowledge={() => setAcknowledging(episode)}
        />
      ))}
      {acknowledging ? (
        <AcknowledgeAlertDialog alert={acknowledging} onClose={() => setAcknowledging(null)} />
      ) : null}
    </Stack>
  );
}

function EpisodeCard({
  episode,
  onAcknowledge,
}: {
  episode: AlertEpisode;
  onAcknowledge: () => void;
}) {
  const { t } = useTranslation();
  const figures = episodeFigures(t, episode);
  const start = formatAlertTime(episode.startedAt, undefined);
  return (
    <Paper
      withBorder
      radius="sm"
      p="sm"
      data-testid="probe-alert"
      data-alert-id={episode.id}
      style={{ borderLeft: `4px solid var(--mantine-color-${alertKindColors[episode.kind]}-6)` }}
    >
      <Stack gap={4}>
        <Group gap="xs" wrap="wrap">
          <AlertKindBadge kind={episode.kind} />
          <Text size="sm" fw={600} data-testid="probe-alert-span">
            {episode.resolvedAt === null
              ? t('alerts.since', { time: start })
              : t('alerts.span', {
                  start,
                  end: formatAlertTime(episode.resolvedAt, undefined),
                })}
          </Text>
          {episode.resolvedAt === null ? (
            <Badge color="red" variant="filled">
              {t('alerts.ongoing')}
            </Badge>
          ) : null}
        </Group>
        {figures.length > 0 ? <Text size="sm">{figures.join(' · ')}</Text> : null}
        <Text size="xs" c="dimmed">
          {t('alerts.escalation', {
            level: episode.escalationLevel,
            who: t(`alerts.escalationLevels.${Math.min(episode.escalationLevel, 2)}`),
          })}
        </Text>
        {episode.acknowledgedAt !== null ? (
          <Paper
            bg="var(--mantine-color-default-hover)"
            p="xs"
            radius="sm"
            data-testid="probe-alert-trail"
          >
            <Text size="sm">
              {t('alerts.acknowledgedBy', {
                name: episode.acknowledgedByName ?? '',
                time: formatAlertTime(episode.acknowledgedAt, undefined),
              })}
            </Text>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              <Text span fw={600} size="sm">
                {t('alerts.correctiveActionLabel')}
              </Text>{' '}
              {episode.correctiveAction}
            </Text>
          </Paper>
        ) : (
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Text size="sm" c="dimmed" data-testid="probe-alert-unacknowledged">
              {t('alerts.notAcknowledged')}
            </Text>
            <Button size="xs" onClick={onAcknowledge} data-testid="probe-alert-acknowledge">
              {t('alerts.acknowledge')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
