import { ActionIcon, Badge, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { maxSchedulesPerConfiguration } from '@mise/shared/tasks/constants';
import { formatMinutes, type ScheduleWindow, validateSchedule } from '@mise/shared/tasks/rules';
import { IconPlus, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ClockTimeInput } from '../../../shared/ui/clock-time-input';
import { MessageDialog } from '../../../shared/ui/message-dialog';
import { parseTime } from './task-configuration-form';

type SchedulesEditorProps = {
  windows: readonly ScheduleWindow[];
  onChange: (windows: ScheduleWindow[]) => void;
  isReadOnly: boolean;
};

/**
 * Schedules (spec 001 §2.6, §5): time-of-day windows (24 h). A window whose start is after its
 * end is refused with schedule-incoherent and not added.
 */
export function SchedulesEditor({ windows, onChange, isReadOnly }: SchedulesEditorProps) {
  const { t } = useTranslation();
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [isIncoherent, setIsIncoherent] = useState(false);
  const sorted = [...windows].sort(
    (left, right) => left.start - right.start || left.end - right.end,
  );
  const isFull = windows.length >= maxSchedulesPerConfiguration;

  function handleAdd() {
    const startMinutes = parseTime(start);
    const endMinutes = parseTime(end);
    if (startMinutes === null || endMinutes === null) return;
    const window = { start: startMinutes, end: endMinutes };
    if (validateSchedule(window)) {
      setIsIncoherent(true);
      return;
    }
    if (!windows.some((item) => item.start === window.start && item.end === window.end))
      onChange([...windows, window]);
    setStart('');
    setEnd('');
  }

  function handleRemove(removed: ScheduleWindow) {
    onChange(windows.filter((item) => item !== removed));
  }

  return (
    <Stack gap="sm">
      {sorted.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="schedules-empty">
          {t('schedule.empty')}
        </Text>
      ) : (
        <Group gap="xs" data-testid="schedules">
          {sorted.map((window) => {
            const label = `${formatMinutes(window.start)}–${formatMinutes(window.end)}`;
            return (
              <Badge
                key={`${window.start}-${window.end}`}
                size="lg"
                variant="light"
                data-testid="schedule-window"
                rightSection={
                  isReadOnly ? null : (
                    <Tooltip label={t('schedule.remove')}>
                      <ActionIcon
                        size="xs"
                        variant="transparent"
                        aria-label={t('schedule.removeWindow', { window: label })}
                        onClick={() => handleRemove(window)}
                        data-testid="schedule-remove"
                      >
                        <IconX size={12} />
                      </ActionIcon>
                    </Tooltip>
                  )
                }
              >
                {label}
              </Badge>
            );
          })}
        </Group>
      )}
      {isReadOnly ? null : (
        <Group gap="sm" align="flex-end">
          <ClockTimeInput
            label={t('schedule.start')}
            value={start}
            onChange={setStart}
            w={130}
            testId="schedule-start"
          />
          <ClockTimeInput
            label={t('schedule.end')}
            value={end}
            onChange={setEnd}
            w={130}
            testId="schedule-end"
          />
          <Button
            variant="light"
            leftSection={<IconPlus size={16} />}
            onClick={handleAdd}
            disabled={isFull || start === '' || end === ''}
            data-testid="schedule-add"
          >
            {t('schedule.add')}
          </Button>
        </Group>
      )}
      <MessageDialog
        opened={isIncoherent}
        onClose={() => setIsIncoherent(false)}
        title={t('dialog.error')}
        message={t('errors.schedule-incoherent')}
        kind="error"
        testId="schedule-incoherent"
      />
    </Stack>
  );
}
