import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Working / not working (spec 000 §4), as every probe screen shows it. */
export function ProbeWorkingBadge({ isWorking }: { isWorking: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge
      size="sm"
      variant="light"
      color={isWorking ? 'teal' : 'red'}
      data-testid="probe-working"
      data-working={isWorking}
    >
      {isWorking ? t('probes.working') : t('probes.notWorking')}
    </Badge>
  );
}
