import { Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import type { TrainingSummary } from '@mise/shared/trainings/schemas';
import { IconChartBar, IconPencil } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { trainingPath, trainingStatsPath } from './training-paths';

/**
 * A training of the list (spec 002 §2): name, a subtitle by type, category, required and
 * inactive badges; edit (only when the caller may) and statistics.
 */
export function TrainingCard({ training }: { training: TrainingSummary }) {
  const { t } = useTranslation();
  const names = { name: training.name };
  return (
    <Card
      component="article"
      withBorder
      radius="md"
      padding="md"
      data-testid="training-card"
      data-training-id={training.id}
      aria-label={training.name}
    >
      <Stack gap="xs" h="100%">
        <Stack gap={0}>
          <Text fw={600} lineClamp={2} data-testid="training-card-name">
            {training.name}
          </Text>
          <Text size="sm" c="dimmed" data-testid="training-card-type">
            {t(`trainings.types.${training.type}`)}
          </Text>
        </Stack>
        <Group gap={6} wrap="wrap">
          {training.required ? (
            <Badge color="grape" variant="light" data-testid="training-required">
              {t('trainings.required')}
            </Badge>
          ) : null}
          {training.active ? null : (
            <Badge color="orange" variant="light" data-testid="training-inactive">
              {t('common.inactive')}
            </Badge>
          )}
          <Badge color="gray" variant="light">
            {training.lang.toUpperCase()}
          </Badge>
        </Group>
        <Group gap="xs" wrap="wrap">
          {training.category ? (
            <Text size="xs" c="dimmed" data-testid="training-card-category">
              {training.category.name}
            </Text>
          ) : null}
          <Text size="xs" c="dimmed">
            {training.category ? '· ' : ''}
            {t('trainings.sectionCount', { count: training.section_count })}
          </Text>
        </Group>
        <Group gap="xs" mt="auto" wrap="wrap">
          {training.can_edit ? (
            <Button
              component={Link}
              to={trainingPath(training.id)}
              variant="light"
              size="compact-sm"
              leftSection={<IconPencil size={14} aria-hidden />}
              aria-label={t('trainings.editNamed', names)}
              data-testid="training-edit"
            >
              {t('trainings.edit')}
            </Button>
          ) : null}
          <Button
            component={Link}
            to={trainingStatsPath(training.id)}
            variant="light"
            size="compact-sm"
            leftSection={<IconChartBar size={14} aria-hidden />}
            aria-label={t('trainings.statsNamed', names)}
            data-testid="training-stats"
          >
            {t('trainings.openStats')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
