import { Badge, type BadgeProps } from '@mantine/core';
import { type TaskStatus, taskStatusColors } from '@mise/shared/tasks/constants';
import { useTranslation } from 'react-i18next';

type TaskStatusBadgeProps = Omit<BadgeProps, 'color' | 'children'> & {
  status: TaskStatus;
  testId?: string;
};

/** A task's status in the spec's colours (spec 002 §4), in the interface language. */
export function TaskStatusBadge({
  status,
  testId = 'task-status',
  variant = 'light',
  ...props
}: TaskStatusBadgeProps) {
  const { t } = useTranslation();
  return (
    <Badge
      {...props}
      variant={variant}
      color={taskStatusColors[status]}
      data-testid={testId}
      data-status={status}
    >
      {t(`storeTasks.statuses.${status}`)}
    </Badge>
  );
}
