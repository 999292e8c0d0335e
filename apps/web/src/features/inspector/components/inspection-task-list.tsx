import { Box, Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { HistoryTask } from '@mise/shared/history/schemas';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatStoreTime } from '../../../shared/format/store-clock';
import { TaskStatusBadge } from '../../../shared/ui/task-status-badge';

type InspectionTaskListProps = {
  tasks: readonly HistoryTask[];
  timeZone: string;
  onOpen: (taskId: string) => void;
};

/**
 * A day's tasks for the inspector, one card per task (phone first): the scheduled window and
 * the completion time on the store's clock, name, employee, status, anomalies, and Details.
 */
export function InspectionTaskList({ tasks, timeZone, onOpen }: InspectionTaskListProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" data-testid="inspection-rows">
      {tasks.map((task) => {
        const end = Date.parse(task.start) + task.duration * 60_000;
        const anomalies = task.anomalies
          .map((reason) => t(`inspector.anomalies.${reason}`))
          .join(', ');
        return (
          <Paper
            key={task.id}
            withBorder
            p="sm"
            radius="md"
            data-testid="inspection-row"
            data-task-id={task.id}
            data-status={task.status}
          >
            <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
              <Stack gap={4} style={{ minWidth: 0, flex: '1 1 14rem' }}>
                <Group gap="xs" wrap="wrap">
                  <Text size="sm" ff="monospace">
                    {formatStoreTime(task.start, timeZone)} – {formatStoreTime(end, timeZone)}
                  </Text>
                  <Text size="sm" fw={600} data-testid="inspection-row-name">
                    {task.name}
                  </Text>
                </Group>
                <Group gap="xs" wrap="wrap">
                  <TaskStatusBadge status={task.status} testId="inspection-row-status" />
                  {task.employee ? (
                    <Text size="sm" c="dimmed">
                      {task.employee.name} {task.employee.surname}
                    </Text>
                  ) : null}
                  {task.completed_timestamp ? (
                    <Text size="sm" c="dimmed">
                      {t('inspector.page.completedAt', {
                        time: formatStoreTime(task.completed_timestamp, timeZone),
                      })}
                    </Text>
                  ) : null}
                </Group>
                {task.is_anomaly ? (
                  <Group gap={4} wrap="nowrap" c="red.9" data-testid="inspection-row-anomaly">
                    <Box component="span" display="inline-flex" aria-hidden>
                      <IconAlertTriangle size={16} />
                    </Box>
                    <Text size="sm" c="red.9">
                      {t('inspector.page.anomaly')}
                      {anomalies ? `: ${anomalies}` : ''}
                    </Text>
                  </Group>
                ) : null}
              </Stack>
              <Button
                variant="light"
                size="xs"
                onClick={() => onOpen(task.id)}
                aria-label={t('inspector.page.detailsOf', { name: task.name })}
                data-testid="inspection-row-open"
              >
                {t('inspector.page.details')}
              </Button>
            </Group>
          </Paper>
        );
      })}
    </Stack>
  );
}
