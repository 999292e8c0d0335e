import { Badge, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatStoreTime } from '../../../shared/format/store-clock';
import type { EditableEntry } from './punch-card-editing';

type PunchEntryBadgeProps = {
  entry: EditableEntry;
  zone: string;
  isIncoherent: boolean;
  /** Opens the edit dialog; without it the badge is read-only. */
  onOpen?: (entry: EditableEntry) => void;
};

const incoherentBorder = '2px solid var(--mantine-color-red-6)';

/**
 * One entry (spec 000 §2): an entrance green, an exit purple, its time on the store's clock;
 * an entry breaking the alternation has a red border (spec 000 §4).
 */
export function PunchEntryBadge({ entry, zone, isIncoherent, onOpen }: PunchEntryBadgeProps) {
  const { t } = useTranslation();
  const time = formatStoreTime(entry.timestamp_modified ?? entry.timestamp, zone);
  const label = t(entry.is_in ? 'punchCards.entranceAt' : 'punchCards.exitAt', { time });
  const badge = (
    <Badge
      {...(onOpen
        ? { component: 'button' as const, type: 'button' as const, onClick: () => onOpen(entry) }
        : {})}
      color={entry.is_in ? 'green' : 'grape'}
      variant="light"
      size="lg"
      radius="sm"
      aria-label={label}
      style={{
        border: isIncoherent ? incoherentBorder : undefined,
        cursor: onOpen ? 'pointer' : undefined,
        fontVariantNumeric: 'tabular-nums',
      }}
      data-testid="punch-badge"
      data-entry-key={entry.key}
      data-entry-in={String(entry.is_in)}
      data-incoherent={String(isIncoherent)}
      data-modified={String(entry.timestamp_modified !== null)}
    >
      {time}
    </Badge>
  );
  return isIncoherent ? (
    <Tooltip label={t('punchCards.incoherentEntry')} withArrow>
      {badge}
    </Tooltip>
  ) : (
    badge
  );
}
