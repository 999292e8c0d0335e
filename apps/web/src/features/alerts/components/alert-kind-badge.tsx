import { Badge } from '@mantine/core';
import type { AlertKind } from '@mise/shared/probes/alerts';
import { IconBatteryOff, IconTemperature, IconWifiOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { alertKindColors } from './alert-format';

const kindIcons = {
  out_of_range: IconTemperature,
  offline: IconWifiOff,
  low_battery: IconBatteryOff,
} as const;

/** The kind of an episode in words, on its colour, with its picture. */
export function AlertKindBadge({ kind }: { kind: AlertKind }) {
  const { t } = useTranslation();
  const Icon = kindIcons[kind];
  return (
    <Badge
      color={alertKindColors[kind]}
      variant="light"
      leftSection={<Icon size={14} aria-hidden />}
      data-testid="alert-kind"
      data-kind={kind}
      style={{ flexShrink: 0 }}
    >
      {t(`alerts.kinds.${kind}`)}
    </Badge>
  );
}
