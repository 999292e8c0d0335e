import { Badge, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { entryDay } from '@mise/shared/people/rules';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  formatStoreDateTime,
  formatStoreTime,
  zonedInstant,
} from '../../../shared/format/store-clock';
import { ClockTimeInput } from '../../../shared/ui/clock-time-input';
import type { EditableEntry } from './punch-card-editing';

type PunchEditDialogProps = {
  /** The entry edited; null keeps the dialog closed. */
  entry: EditableEntry | null;
  employeeName: string;
  zone: string;
  /**
   * Applies a new time (an instant): answers the refusal's text, or null when applied.
   */
  onApply: (entry: EditableEntry, newTime: string) => string | null;
  onDelete: (entry: EditableEntry) => void;
  onClose: () => void;
};

/**
 * Edit dialog of an entry (spec 000 §2): the modified time on the store's clock, the original
 * time (a no-value badge for an entry added in this session), Delete and Close. A time not
 * after the previous entry is refused and changes nothing (spec 000 §5).
 */
export function PunchEditDialog({
  entry,
  employeeName,
  zone,
  onApply,
  onDelete,
  onClose,
}: PunchEditDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={entry !== null}
      onClose={onClose}
      title={t('punchCards.editTitle')}
      centered
      data-testid="punch-edit-dialog"
    >
      {entry ? (
        <PunchEditForm
          key={entry.key}
          entry={entry}
          employeeName={employeeName}
          zone={zone}
          onApply={onApply}
          onDelete={onDelete}
          onClose={onClose}
        />
      ) : null}
    </Modal>
  );
}

function PunchEditForm({
  entry,
  employeeName,
  zone,
  onApply,
  onDelete,
  onClose,
}: Omit<PunchEditDialogProps, 'entry'> & { entry: EditableEntry }) {
  const { t } = useTranslation();
  const [time, setTime] = useState(() =>
    formatStoreTime(entry.timestamp_modified ?? entry.timestamp, zone),
  );
  const [error, setError] = useState<string | null>(null);
  const isAdded = entry.id === null;

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const day = entryDay(entry, zone);
    const instant = zonedInstant(day, time, zone);
    if (!instant) {
      setError(t('punchCards.invalidTime'));
      return;
    }
    const refusal = onApply(entry, instant);
    setError(refusal);
    if (refusal === null) onClose();
  }

  return (
    <form onSubmit={handleSubmit}>
      <Stack gap="md">
        <Group gap="xs">
          <Text fw={500}>{employeeName}</Text>
          <Badge color={entry.is_in ? 'green' : 'grape'} variant="light">
            {t(entry.is_in ? 'punchCards.entrance' : 'punchCards.exit')}
          </Badge>
        </Group>
        <ClockTimeInput
          label={t('punchCards.modifiedTime')}
          value={time}
          onChange={(value) => {
            setTime(value);
            setError(null);
          }}
          error={error}
          hoursInputProps={{ 'data-autofocus': true, 'data-testid': 'punch-edit-time-hours' }}
          testId="punch-edit-time"
        />
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('punchCards.originalTime')}
          </Text>
          {isAdded ? (
            <Badge
              variant="outline"
              color="gray"
              data-testid="punch-edit-original"
              data-empty="true"
            >
              {t('punchCards.noValue')}
            </Badge>
          ) : (
            <Text size="sm" data-testid="punch-edit-original" data-empty="false">
              {formatStoreDateTime(entry.timestamp, zone)}
            </Text>
          )}
        </Stack>
        <Group justify="space-between">
          <Button
            color="red"
            variant="light"
            onClick={() => {
              onDelete(entry);
              onClose();
            }}
            data-testid="punch-edit-delete"
          >
            {t('punchCards.delete')}
          </Button>
          <Group gap="sm">
            <Button variant="default" onClick={onClose} data-testid="punch-edit-close">
              {t('punchCards.close')}
            </Button>
            <Button type="submit" data-testid="punch-edit-apply">
              {t('punchCards.apply')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
