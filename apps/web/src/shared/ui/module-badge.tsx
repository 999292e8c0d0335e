import { Badge, type BadgeProps } from '@mantine/core';
import { type TaskModule, taskModuleColors } from '@mise/shared/tasks/constants';
import { useTranslation } from 'react-i18next';

/** A module shown as a badge: the task modules, and labels (printed on the tablet). */
export type BadgeModule = TaskModule | 'labels';

/**
 * Module colours (spec 000 §2): actions purple, temperatures blue-violet, traceability pink,
 * labels orange, oils yellow; temperature control is not named there.
 */
export const moduleBadgeColors: Record<BadgeModule, string> = {
  ...taskModuleColors,
  labels: 'orange',
};

type ModuleBadgeProps = Omit<BadgeProps, 'color' | 'children'> & {
  module: BadgeModule;
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
      color={moduleBadgeColors[module]}
      data-testid={testId}
      data-module={module}
    >
      {t(`storeTasks.modules.${module}`)}
    </Badge>
  );
}
