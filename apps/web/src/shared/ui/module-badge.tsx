import { Badge, type BadgeProps } from '@mantine/core';
import { type TaskModule, taskModuleColors } from '@mise/shared/tasks/constants';
import { useTranslation } from 'react-i18next';

type ModuleBadgeProps = Omit<BadgeProps, 'color' | 'children'> & {
  module: TaskModule;
  testId?: string;
};

/** A task's module in the spec's colours (spec 000 §2), in the interface language. */
export function ModuleBadge({
  module,
  testId = 'module-badge',
  variant = 'light',
  ...props
}: ModuleBadgeProps) {
  const { t } = useTranslation();
  return (
    <Badge
      {...props}
      variant={variant}
      color={taskModuleColors[module]}
      data-testid={testId}
      data-module={module}
    >
      {t(`storeTasks.modules.${module}`)}
    </Badge>
  );
}
