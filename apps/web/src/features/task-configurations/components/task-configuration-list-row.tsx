import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { taskModuleColors } from '@mise/shared/tasks/constants';
import { formatMinutes, parseRecurrence, windowsFromLists } from '@mise/shared/tasks/rules';
import type { TaskConfigurationListItem } from '@mise/shared/tasks/schemas';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TaskConfigurationListScope } from '../api/get-task-configuration-list';
import { describeRecurrence } from './describe-recurrence';

/**
 * Where a row opens: the database configuration, the store's own row, or — for a database
 * configuration the store has not overridden yet — the store screen on its origin.
 */
export function taskConfigurationRowPath(
  scope: TaskConfigurationListScope,
  item: TaskConfigurationListItem,
): string {
  if (scope.level === 'database') return `/taskConf?id=${encodeURIComponent(item.id ?? '')}`;
  if (item.id) return `/storeTaskConf?id=${encodeURIComponent(item.id)}`;
  const query = new URLSearchParams({ store: scope.ownerId, origin: item.origin_id ?? '' });
  return `/storeTaskConf?${query.toString()}`;
}

/** At store level: the store's own configuration, its override of a database one, or inherited. */
export type TaskConfigurationOrigin = 'own' | 'overridden' | 'inherited';

export function taskConfigurationOrigin(item: TaskConfigurationListItem): TaskConfigurationOrigin {
  if (!item.is_remote) return 'inherited';
  return item.origin_id ? 'overridden' : 'own';
}

const originColors: Record<TaskConfigurationOrigin, string> = {
  own: 'grape',
  overridden: 'orange',
  inherited: 'blue',
};

type TaskConfigurationListRowProps = {
  item: TaskConfigurationListItem;
  to: string;
  isStoreLevel: boolean;
};

/** One configuration: name, type, module, recurrence in words, schedules, item count, badges. */
export function TaskConfigurationListRow({
  item,
  to,
  isStoreLevel,
}: TaskConfigurationListRowProps) {
  const { t } = useTranslation();
  const origin = taskConfigurationOrigin(item);
  const windows = windowsFromLists(item.starts, item.durations)
    .sort((left, right) => left.start - right.start)
    .map((window) => `${formatMinutes(window.start)}–${formatMinutes(window.end)}`);
  const countKey =
    item.module === 'actions' ? 'taskConfiguration.actionCount' : 'taskConfiguration.elementCount';

  return (
    <Paper
      component={Link}
      to={to}
      withBorder
      radius="md"
      p="sm"
      aria-label={item.name}
      data-testid="task-configuration-row"
      data-key={item.key}
      style={{ color: 'inherit', textDecoration: 'none', opacity: item.active ? 1 : 0.7 }}
    >
      <Group wrap="nowrap" gap="md" align="flex-start">
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs" wrap="wrap">
            <Text fw={600} truncate data-testid="task-configuration-row-name">
              {item.name}
            </Text>
            {item.type_name ? (
              <Badge
                size="sm"
                variant="filled"
                color={item.type_color ?? undefined}
                data-testid="task-configuration-row-type"
              >
                {item.type_name}
              </Badge>
            ) : null}
            <Badge
              size="sm"
              variant="light"
              color={taskModuleColors[item.module]}
              data-testid="task-configuration-row-module"
            >
              {t(`taskConfiguration.modules.${item.module}`)}
            </Badge>
            {item.active ? null : (
              <Badge
                size="xs"
                color="gray"
                variant="light"
                data-testid="task-configuration-row-inactive"
              >
                {t('common.inactive')}
              </Badge>
            )}
            {isStoreLevel ? (
              <Badge
                size="xs"
                variant="light"
                color={originColors[origin]}
                data-testid="task-configuration-row-origin"
                data-origin={origin}
              >
                {t(`taskConfiguration.origin.${origin}`)}
              </Badge>
            ) : null}
          </Group>
          <Text size="sm" c="dimmed" data-testid="task-configuration-row-recurrence">
            {describeRecurrence(parseRecurrence(item.recurrence), t)}
          </Text>
        </Stack>
        <Stack gap={4} align="flex-end">
          <Text size="sm" ta="right" data-testid="task-configuration-row-schedules">
            {windows.length ? windows.join(', ') : t('schedule.none')}
          </Text>
          <Text size="xs" c="dimmed" data-testid="task-configuration-row-count">
            {t(countKey, { count: item.item_count })}
          </Text>
        </Stack>
      </Group>
    </Paper>
  );
}
