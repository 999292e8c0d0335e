import { Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import type { CommunicationSummary } from '@mise/shared/communications/schemas';
import { IconChartBar, IconPaperclip, IconPencil } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatCalendarDay } from '../../../shared/format/store-clock';
import { communicationPath, communicationStatsPath } from './communication-paths';
import { CommunicationStateBadge } from './communication-state-badge';

type CommunicationCardProps = { communication: CommunicationSummary; canEdit: boolean };

/**
 * A communication of the list (spec 002 §2): name, dates, state, inactive; edit (not for
 * customers) and statistics.
 */
export function CommunicationCard({ communication, canEdit }: CommunicationCardProps) {
  const { t } = useTranslation();
  const names = { name: communication.name };
  return (
    <Card
      component="article"
      withBorder
      radius="md"
      padding="md"
      data-testid="communication-card"
      aria-label={communication.name}
    >
      <Stack gap="xs" h="100%">
        <Text fw={600} lineClamp={2} data-testid="communication-card-name">
          {communication.name}
        </Text>
        <Group gap={6} wrap="wrap">
          <CommunicationStateBadge state={communication.state} />
          {communication.active ? null : (
            <Badge color="orange" variant="light" data-testid="communication-inactive">
              {t('common.inactive')}
            </Badge>
          )}
        </Group>
        <Text size="sm" data-testid="communication-card-dates">
          {t('communications.period', {
            start: formatCalendarDay(communication.start_day),
            end: formatCalendarDay(communication.end_day),
          })}
        </Text>
        <Group gap="xs" wrap="wrap">
          <Text size="xs" c="dimmed">
            {t(`content.target.kinds.${communication.target_kind}`)}
          </Text>
          {communication.question_count > 0 ? (
            <Text size="xs" c="dimmed">
              · {t('communications.questionCount', { count: communication.question_count })}
            </Text>
          ) : null}
          {communication.attachment ? (
            <Group gap={2} wrap="nowrap">
              <IconPaperclip size={12} aria-hidden />
              <Text size="xs" c="dimmed" truncate maw={160}>
                {communication.attachment.name}
              </Text>
            </Group>
          ) : null}
        </Group>
        <Group gap="xs" mt="auto" wrap="wrap">
          {canEdit ? (
            <Button
              component={Link}
              to={communicationPath(communication.id)}
              variant="light"
              size="compact-sm"
              leftSection={<IconPencil size={14} aria-hidden />}
              aria-label={t('communications.editNamed', names)}
              data-testid="communication-edit"
            >
              {t('communications.edit')}
            </Button>
          ) : null}
          <Button
            component={Link}
            to={communicationStatsPath(communication.id)}
            variant="light"
            size="compact-sm"
            leftSection={<IconChartBar size={14} aria-hidden />}
            aria-label={t('communications.statsNamed', names)}
            data-testid="communication-stats"
          >
            {t('communications.openStats')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
