import {
  Badge,
  Button,
  Card,
  Center,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import type { AlertEpisode } from '@mise/shared/probes/alerts';
import { IconBellRinging, IconCircleCheck, IconSpeakerphone } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../shared/i18n/error-message';
import { EmptyState } from '../../../shared/ui/empty-state';
import { useAlerts } from '../api/get-alerts';
import { AcknowledgeAlertDialog } from './acknowledge-alert-dialog';
import { alertKindColors, episodeFigures, episodeTitle, formatAlertTime } from './alert-format';
import { AlertKindBadge } from './alert-kind-badge';
import { PushToggle } from './push-toggle';

/** Without a store (no live stream to listen to), the list is read again every minute. */
const pollIntervalMs = 60_000;

type AlertsPanelProps = {
  /** The selected store; null lists the open episodes of every store the user sees. */
  storeId: string | null;
  /** The store's zone (dates on its clock); the browser's without one. */
  timeZone?: string;
};

/**
 * The open alert episodes (GET /api/alerts?state=open): those still going on, and those over
 * but not yet acknowledged, each with its kind, probe, start, figures against the range,
 * escalation level and the Acknowledge button. The store's "alert" events read it again.
 */
export function AlertsPanel({ storeId, timeZone }: AlertsPanelProps) {
  const { t } = useTranslation();
  const alerts = useAlerts(storeId ? { storeId, state: 'open' } : { state: 'open' }, {
    refetchIntervalMs: storeId ? undefined : pollIntervalMs,
  });
  const [acknowledging, setAcknowledging] = useState<AlertEpisode | null>(null);
  const items = alerts.data ?? [];

  return (
    <Card withBorder radius="md" padding="lg" data-testid="home-alerts">
      <Group justify="space-between" align="flex-start" gap="sm" mb="sm">
        <Group gap="xs" wrap="nowrap">
          <IconBellRinging size={20} stroke={1.6} aria-hidden />
          <Title order={2} size="h4">
            {t('alerts.title')}
          </Title>
          {items.length > 0 ? (
            <Badge color="red" circle data-testid="home-alerts-count">
              {items.length}
            </Badge>
          ) : null}
        </Group>
        <PushToggle />
      </Group>
      {alerts.isPending ? (
        <Center py="md">
          <Loader size="sm" />
        </Center>
      ) : alerts.isError ? (
        <EmptyState title={t('common.loadFailed')} description={errorMessage(t, alerts.error)} />
      ) : items.length === 0 ? (
        <EmptyState
          title={t('alerts.empty')}
          icon={<IconCircleCheck size={28} aria-hidden />}
          testId="home-alerts-empty"
        />
      ) : (
        <Stack gap="sm">
          {items.map((episode) => (
            <AlertRow
              key={episode.id}
              episode={episode}
              timeZone={timeZone}
              isStoreShown={storeId === null}
              onAcknowledge={() => setAcknowledging(episode)}
            />
          ))}
        </Stack>
      )}
      {acknowledging ? (
        <AcknowledgeAlertDialog
          alert={acknowledging}
          timeZone={timeZone}
          onClose={() => setAcknowledging(null)}
        />
      ) : null}
    </Card>
  );
}

type AlertRowProps = {
  episode: AlertEpisode;
  timeZone: string | undefined;
  isStoreShown: boolean;
  onAcknowledge: () => void;
};

function AlertRow({ episode, timeZone, isStoreShown, onAcknowledge }: AlertRowProps) {
  const { t } = useTranslation();
  const figures = episodeFigures(t, episode);
  const isResolved = episode.resolvedAt !== null;
  const isAcknowledged = episode.acknowledgedAt !== null;
  return (
    <Paper
      withBorder
      radius="sm"
      p="sm"
      data-testid="home-alert"
      data-alert-id={episode.id}
      data-state={isResolved ? 'resolved' : 'ongoing'}
      style={{ borderLeft: `4px solid var(--mantine-color-${alertKindColors[episode.kind]}-6)` }}
    >
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4} style={{ flex: '1 1 16rem', minWidth: 0 }}>
          <Group gap="xs" wrap="wrap">
            <AlertKindBadge kind={episode.kind} />
            <Text fw={600} size="sm" data-testid="home-alert-name">
              {episodeTitle(episode)}
            </Text>
            {episode.elementName !== null ? (
              <Text size="xs" c="dimmed">
                {episode.probeName}
              </Text>
            ) : null}
          </Group>
          {isStoreShown ? (
            <Text size="xs" c="dimmed" data-testid="home-alert-store">
              {episode.storeName}
            </Text>
          ) : null}
          <Text size="sm" data-testid="home-alert-since">
            {t('alerts.since', { time: formatAlertTime(episode.startedAt, timeZone) })}
          </Text>
          {figures.length > 0 ? (
            <Text size="sm" data-testid="home-alert-figures">
              {figures.join(' · ')}
            </Text>
          ) : null}
          <Group gap="xs" wrap="wrap">
            {isResolved ? (
              <Badge color="teal" variant="light" data-testid="home-alert-resolved">
                {t('alerts.resolvedAt', { time: formatAlertTime(episode.resolvedAt, timeZone) })}
              </Badge>
            ) : (
              <Badge color="red" variant="filled" data-testid="home-alert-ongoing">
                {t('alerts.ongoing')}
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed" data-testid="home-alert-escalation">
            <IconSpeakerphone size={14} aria-hidden style={{ verticalAlign: 'text-bottom' }} />{' '}
            {t('alerts.escalation', {
              level: episode.escalationLevel,
              who: t(`alerts.escalationLevels.${Math.min(episode.escalationLevel, 2)}`),
            })}
          </Text>
          {isAcknowledged ? (
            <Text size="xs" c="dimmed" data-testid="home-alert-acknowledged">
              {t('alerts.acknowledgedBy', {
                name: episode.acknowledgedByName ?? '',
                time: formatAlertTime(episode.acknowledgedAt, timeZone),
              })}
            </Text>
          ) : isResolved ? (
            <Text size="xs" c="dimmed">
              {t('alerts.resolvedToAcknowledge')}
            </Text>
          ) : null}
        </Stack>
        {isAcknowledged ? null : (
          <Button size="xs" onClick={onAcknowledge} data-testid="home-alert-acknowledge">
            {t('alerts.acknowledge')}
          </Button>
        )}
      </Group>
    </Paper>
  );
}
