import { Accordion, ActionIcon, Box, Group, Stack, Text, Tooltip } from '@mantine/core';
import type { HistoryTask } from '@mise/shared/history/schemas';
import type { TaskModule } from '@mise/shared/tasks/constants';
import { IconAlertTriangle, IconExternalLink } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatStoreDateTime } from '../../../shared/format/store-clock';
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

/**
 * The tasks of a tab as expandable rows (spec 002 §2): date and time on the store's clock,
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
                    {formatStoreDateTime(task.start, timeZone)}
                  </Text>
                  <Text size="sm" fw={600} data-testid="history-row-name">
                    {task.name}
                  </Text>
                  <Text size="sm" c="dimmed" data-testid="history-row-employee">
                    {task.employee ? `${task.employee.name} ${task.employee.surname}` : ''}
                  </Text>
                  <TaskStatusBadge status={task.status} testId="history-row-status" />
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
