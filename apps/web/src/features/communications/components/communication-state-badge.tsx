import { Badge } from '@mantine/core';
import type { CommunicationState } from '@mise/shared/communications/rules';
import { useTranslation } from 'react-i18next';

const stateColors: Record<CommunicationState, string> = {
  coming: 'blue',
  running: 'teal',
  passed: 'gray',
};

/** Coming, running or passed (spec 002 §4). */
export function CommunicationStateBadge({
  state,
  testId = 'communication-state',
}: {
  state: CommunicationState;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <Badge color={stateColors[state]} variant="light" data-testid={testId} data-state={state}>
      {t(`communications.states.${state}`)}
    </Badge>
  );
}
