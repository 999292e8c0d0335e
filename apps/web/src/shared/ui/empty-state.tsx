import { EmptyState as MantineEmptyState } from '@mantine/core';
import { IconMoodEmpty } from '@tabler/icons-react';
import type { ReactNode } from 'react';

type EmptyStateProps = {
  title: ReactNode;
  description?: ReactNode;
  icon?: ReactNode;
  actions?: ReactNode;
  testId?: string;
};

/** What a list or area shows when it has nothing to show. */
export function EmptyState({ title, description, icon, actions, testId }: EmptyStateProps) {
  return (
    <MantineEmptyState
      title={title}
      description={description}
      icon={icon ?? <IconMoodEmpty size={28} />}
      py="xl"
      data-testid={testId ?? 'empty-state'}
    >
      {actions}
    </MantineEmptyState>
  );
}
