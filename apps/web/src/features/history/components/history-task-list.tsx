import { Accordion, ActionIcon, Box, Group, Stack, Text, Tooltip } from '@mantine/core';
import type { HistoryTask } from '@mise/shared/history/schemas';
import type { TaskModule } from '@mise/shared/tasks/constants';
import { IconAlertTriangle, IconExternalLink } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  formatStoreDate,
  formatStoreDateTime,
  formatStoreTime,
} from '../../../shared/format/store-clock';
import { TaskStatusBadge } from '../../../shared/ui/task-status-badge';
import { PostponedInfo } from './postponed-info';
import { TaskResult } from './task-result';

type HistoryTaskListProps = {
  tasks: readonly HistoryTask[];
  /** The tab the tasks were loaded for (their results are read by it). */
  module: TaskModule;
  timeZone: string;
  expanded: readonly string[];
  onExpandedChange: (expanded: string[]) => void;
  onOpenPicture: (path: string) => void;
};

function AnomalyMarker({ task }: { task: HistoryTask }) {
  const { t } = useTranslation();
  const reasons = task.anomalies.map((reason) => t(`history.anomalies.${reason}`)).join(', ');
  const label = reasons ? `${t('history.anomaly')}: ${reasons}` : t('history.anomaly');
  return (
    <Tooltip label={label} withArrow>
      <Box
        component="span"
        c="red"
        display="inline-flex"
        role="img"
        aria-label={label}
        data-testid="history-row-anomaly"
      >
        <IconAlertTriangle size={18} />
      </Box>
    </Tooltip>
  );
}

/** The scheduled window on the store's clock: '22/11/2026 08:00 – 09:00'. */
function scheduledWindow(task: HistoryTask, timeZone: string): string {
  const end = Date.parse(task.start) + task.duration * 60_000;
  const sameDay = formatStoreDate(end, timeZone) === formatStoreDate(task.start, timeZone);
  const endText = sameDay ? formatStoreTime(end, timeZone) : formatStoreDateTime(end, timeZone);
  return `${formatStoreDateTime(task.start, timeZone)} – ${endText}`;
}

/** When the task was done: its time, with the date when it is not the scheduled day. */
function completionTime(task: HistoryTask, timeZone: string): string | null {
  if (!task.completed_timestamp) return null;
  const sameDay =
    formatStoreDate(task.completed_timestamp, timeZone) === formatStoreDate(task.start, timeZone);
  return sameDay
    ? formatStoreTime(task.completed_timestamp, timeZone)
    : formatStoreDateTime(task.completed_timestamp, timeZone);
}

/**
 * The tasks of a tab as expandable rows (spec 002 §2): the scheduled window and, apart, the
 * time the task was actually completed, both on the store's clock,
 * name, employee, status and anomaly; opened, the result table, or for a postponed task where
 * it went. A result table is only built once its row is open.
 */
export function HistoryTaskList({
  tasks,
  module,
  timeZone,
  expanded,
  onExpandedChange,
  onOpenPicture,
}: HistoryTaskListProps) {
  const { t } = useTranslation();
  return (
    <Accordion
      multiple
      variant="separated"
      chevronPosition="left"
      value={[...expanded]}
      onChange={onExpandedChange}
      data-testid="history-list"
    >
      {tasks.map((task) => {
        const isOpen = expanded.includes(task.id);
        const isPostponed = task.status === 'postponed';
        const completedAt = completionTime(task, timeZone);
        return (
          <Accordion.Item
            key={task.id}
            value={task.id}
            data-testid="history-row"
            data-task-id={task.id}
            data-status={task.status}
            data-anomaly={String(task.is_anomaly)}
          >
            <Group gap={0} wrap="nowrap" pr="sm">
              <Accordion.Control data-testid="history-row-toggle">
                <Group gap="md" wrap="wrap">
                  <Text size="sm" ff="monospace" data-testid="history-row-date">
                    {scheduledWindow(task, timeZone)}
                  </Text>
                  <Text size="sm" fw={600} data-testid="history-row-name">
                    {task.name}
                  </Text>
                  <Text size="sm" c="dimmed" data-testid="history-row-employee">
                    {task.employee ? `${task.employee.name} ${task.employee.surname}` : ''}
                  </Text>
                  <TaskStatusBadge status={task.status} testId="history-row-status" />
                  {completedAt ? (
                    <Text size="sm" c="dimmed" data-testid="history-row-completed">
                      {t('history.completedAt', { time: completedAt })}
                    </Text>
                  ) : null}
                  {task.is_anomaly ? <AnomalyMarker task={task} /> : null}
                </Group>
              </Accordion.Control>
              <Tooltip label={t('history.open')} withArrow>
                <ActionIcon
                  component={Link}
                  to={`/task?id=${encodeURIComponent(task.id)}`}
                  variant="subtle"
                  aria-label={t('history.open')}
                  data-testid="history-row-open"
                >
                  <IconExternalLink size={18} />
                </ActionIcon>
              </Tooltip>
            </Group>
            <Accordion.Panel>
              {isOpen ? (
                <Stack gap="sm">
                  {isPostponed ? (
                    <PostponedInfo task={task} timeZone={timeZone} />
                  ) : (
                    <TaskResult
                      module={module}
                      elements={task.elements}
                      result={task.result}
                      timeZone={timeZone}
                      onOpenPicture={onOpenPicture}
                    />
                  )}
                </Stack>
              ) : null}
            </Accordion.Panel>
          </Accordion.Item>
        );
      })}
    </Accordion>
  );
}
