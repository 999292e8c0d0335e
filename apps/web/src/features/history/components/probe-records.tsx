import { Badge, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { probeDayOutOfRange } from '@mise/shared/history/rules';
import type { HistoryProbes, ProbeElement } from '@mise/shared/history/schemas';
import type { AlertEpisode, AlertKind } from '@mise/shared/probes/alerts';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import {
  formatCalendarDay,
  formatStoreDateTime,
  formatStoreTime,
} from '../../../shared/format/store-clock';
import { formatDecimal, formatTemperature } from './result-format';
import { Missing, ResultTable } from './result-parts';

const kindColors: Record<AlertKind, string> = {
  out_of_range: 'red',
  offline: 'orange',
  low_battery: 'yellow',
};

function escalationLabel(level: number, t: TFunction): string {
  const key = level <= 0 ? 'owners' : level === 1 ? 'managers' : 'distributor';
  return t(`history.probeRecords.escalationLevels.${key}`);
}

/** The worst value of an episode: a temperature, a battery level, nothing when offline. */
function worstText(alert: AlertEpisode, language: string, t: TFunction): string {
  if (alert.worstValue === null || alert.kind === 'offline') return '';
  return alert.kind === 'low_battery'
    ? t('history.probeRecords.battery', { value: formatDecimal(alert.worstValue, language) })
    : formatTemperature(alert.worstValue, language);
}

function limitsText(
  minimum: number | null,
  maximum: number | null,
  language: string,
): string | null {
  if (minimum === null && maximum === null) return null;
  return `${minimum === null ? '—' : formatTemperature(minimum, language)} / ${
    maximum === null ? '—' : formatTemperature(maximum, language)
  }`;
}

/** One episode: kind, element and probe, start → end, worst value, escalation, acknowledgement. */
function AlertEpisodeCard({ alert, timeZone }: { alert: AlertEpisode; timeZone: string }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const worst = worstText(alert, language, t);
  const limits =
    alert.kind === 'out_of_range'
      ? limitsText(alert.minimumTemperature, alert.maximumTemperature, language)
      : null;
  const isAcknowledged = alert.acknowledgedAt !== null;
  return (
    <Paper
      withBorder
      p="sm"
      component="li"
      data-testid="history-alert"
      data-acknowledged={String(isAcknowledged)}
      style={{ listStyle: 'none' }}
    >
      <Stack gap={6}>
        <Group gap="xs" wrap="wrap" justify="space-between">
          <Group gap="xs" wrap="wrap">
            <Badge color={kindColors[alert.kind]} variant="light" data-testid="history-alert-kind">
              {t(`history.probeRecords.kinds.${alert.kind}`)}
            </Badge>
            <Text size="sm" fw={600} data-testid="history-alert-subject">
              {alert.elementName ? `${alert.elementName} · ${alert.probeName}` : alert.probeName}
            </Text>
          </Group>
          {isAcknowledged ? null : (
            <Badge
              color="red"
              variant="filled"
              leftSection={<IconAlertTriangle size={14} aria-hidden />}
              data-testid="history-alert-not-acknowledged"
            >
              {t('history.probeRecords.notAcknowledged')}
            </Badge>
          )}
        </Group>
        <Text size="sm" data-testid="history-alert-period">
          <Text span c="dimmed" size="sm">
            {t('history.probeRecords.period')}:{' '}
          </Text>
          {formatStoreDateTime(alert.startedAt, timeZone)} →{' '}
          {alert.resolvedAt ? (
            formatStoreDateTime(alert.resolvedAt, timeZone)
          ) : (
            <Text span size="sm" fw={700}>
              {t('history.probeRecords.ongoing')}
            </Text>
          )}
        </Text>
        {worst ? (
          <Text size="sm" data-testid="history-alert-worst">
            <Text span c="dimmed" size="sm">
              {t('history.probeRecords.worst')}:{' '}
            </Text>
            <Text span size="sm" c="red" fw={700}>
              {worst}
            </Text>
            {limits ? ` (${t('history.probeRecords.limits')} ${limits})` : null}
          </Text>
        ) : null}
        <Text size="sm" data-testid="history-alert-escalation">
          <Text span c="dimmed" size="sm">
            {t('history.probeRecords.escalation')}:{' '}
          </Text>
          {escalationLabel(alert.escalationLevel, t)}
        </Text>
        {isAcknowledged ? (
          <Stack gap={2} data-testid="history-alert-acknowledgement">
            <Text size="sm">
              {t('history.probeRecords.acknowledged', {
                name: alert.acknowledgedByName ?? '—',
                time: formatStoreDateTime(alert.acknowledgedAt, timeZone),
              })}
            </Text>
            {alert.correctiveAction ? (
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                <Text span c="dimmed" size="sm">
                  {t('history.probeRecords.correctiveAction')}:{' '}
                </Text>
                {alert.correctiveAction}
              </Text>
            ) : null}
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}

/** One bound element's days: lowest and highest against its bounds, the last reading, count. */
function ProbeElementDays({ element, timeZone }: { element: ProbeElement; timeZone: string }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const limits = limitsText(element.minimum_temperature, element.maximum_temperature, language);
  return (
    <Stack gap={4} data-testid="history-probe-element">
      <Text size="sm" fw={600}>
        {element.name} · {t('history.probeRecords.probe')} {element.probe_name}
        {limits ? (
          <Text span size="sm" c="dimmed">
            {' '}
            ({t('history.probeRecords.limits')} {limits})
          </Text>
        ) : null}
      </Text>
      {element.days.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('history.probeRecords.noReading')}
        </Text>
      ) : (
        <ResultTable
          testId="history-probe-days"
          minWidth={420}
          headers={[
            t('history.probeRecords.day'),
            t('history.probeRecords.lowest'),
            t('history.probeRecords.highest'),
            t('history.probeRecords.last'),
            t('history.probeRecords.readings'),
          ]}
        >
          {element.days.map((day) => {
            const isLow =
              element.minimum_temperature !== null && day.minimum < element.minimum_temperature;
            const isHigh =
              element.maximum_temperature !== null && day.maximum > element.maximum_temperature;
            return (
              <Table.Tr
                key={day.day}
                data-testid="history-probe-day"
                data-out-of-range={String(probeDayOutOfRange(day, element))}
              >
                <Table.Td>{formatCalendarDay(day.day)}</Table.Td>
                <Table.Td>
                  <Text size="sm" c={isLow ? 'red' : undefined} fw={isLow ? 700 : undefined}>
                    {formatTemperature(day.minimum, language)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c={isHigh ? 'red' : undefined} fw={isHigh ? 700 : undefined}>
                    {formatTemperature(day.maximum, language)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {t('history.probeRecords.lastAt', {
                    value: formatTemperature(day.last_temperature, language),
                    time: formatStoreTime(day.last_reading_at, timeZone),
                  })}
                </Table.Td>
                <Table.Td>{day.readings || <Missing />}</Table.Td>
              </Table.Tr>
            );
          })}
        </ResultTable>
      )}
    </Stack>
  );
}

/**
 * The history's "Probes and alerts" tab (issue 15): the alert episodes of the period, newest
 * first (a not-acknowledged one stands out), then each bound element's probe days.
 */
export function ProbeRecords({ data, timeZone }: { data: HistoryProbes; timeZone: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="lg" data-testid="history-probe-records">
      <Stack gap="xs" component="section" aria-labelledby="history-alerts-title">
        <Title order={2} size="h4" id="history-alerts-title">
          {t('history.probeRecords.alertsTitle')}
        </Title>
        {data.alerts.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="history-no-alert">
            {t('history.probeRecords.noAlert')}
          </Text>
        ) : (
          <Stack gap="xs" component="ul" p={0} m={0}>
            {data.alerts.map((alert) => (
              <AlertEpisodeCard key={alert.id} alert={alert} timeZone={timeZone} />
            ))}
          </Stack>
        )}
      </Stack>
      <Stack gap="xs" component="section" aria-labelledby="history-probe-days-title">
        <Title order={2} size="h4" id="history-probe-days-title">
          {t('history.probeRecords.readingsTitle')}
        </Title>
        {data.elements.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="history-no-probe-element">
            {t('history.probeRecords.noElement')}
          </Text>
        ) : (
          data.elements.map((element) => (
            <ProbeElementDays key={element.element_id} element={element} timeZone={timeZone} />
          ))
        )}
      </Stack>
    </Stack>
  );
}
