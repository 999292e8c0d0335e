import { Badge, Loader } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCloudOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { SaveStatus } from '../model/use-answer-sync';

const colors: Record<SaveStatus, string> = {
  saved: 'teal',
  saving: 'blue',
  offline: 'orange',
  error: 'red',
  submitted: 'gray',
};

/** Where the answers are: saved, saving, or kept on this device while offline. */
export function SaveIndicator({ status }: { status: SaveStatus }) {
  const { t } = useTranslation();
  const icon =
    status === 'saving' ? (
      <Loader size={10} color="blue" />
    ) : status === 'saved' ? (
      <IconCheck size={14} />
    ) : status === 'offline' ? (
      <IconCloudOff size={14} />
    ) : (
      <IconAlertTriangle size={14} />
    );
  return (
    <Badge
      variant="light"
      color={colors[status]}
      leftSection={icon}
      size="lg"
      tt="none"
      role="status"
      aria-live="polite"
      data-testid="save-status"
      data-status={status}
      style={{ whiteSpace: 'normal', height: 'auto', minHeight: 26 }}
    >
      {t(`auditResults.perform.status.${status}`)}
    </Badge>
  );
}
