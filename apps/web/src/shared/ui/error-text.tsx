import { Text } from '@mantine/core';
import type { ReactNode } from 'react';

type ErrorTextProps = {
  children: ReactNode;
  testId?: string;
};

/** The red label forms show their validation or server message in. */
export function ErrorText({ children, testId }: ErrorTextProps) {
  if (!children) return null;
  return (
    <Text c="red" size="sm" role="alert" data-testid={testId}>
      {children}
    </Text>
  );
}
