import { Checkbox, Group, Radio, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { type Frequency, type MonthPosition, monthPositions } from '@mise/shared/tasks/constants';
import { buildRecurrence, parseRecurrence, type RecurrenceModel } from '@mise/shared/tasks/rules';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NumericInput } from '../../../shared/ui/numeric-input';
import { describeRecurrence } from './describe-recurrence';

const weekdayIndexes = [0, 1, 2, 3, 4, 5, 6] as const;
const monthNumbers = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as const;
/** Display order of the frequencies; their codes are rrule's (0 yearly … 3 daily). */
const frequencyOrder: Frequency[] = [3, 2, 1, 0];

type RecurrenceFieldsProps = {
  model: RecurrenceModel;
  onChange: (model: RecurrenceModel) => void;
  isReadOnly: boolean;
};

/** The editor's fields over a model (frequency, interval, days, day of month or position, month). */
export function RecurrenceFields({ model, onChange, isReadOnly }: RecurrenceFieldsProps) {
  const { t } = useTranslation();
  const set = (patch: Partial<RecurrenceModel>) => onChange({ ...model, ...patch });
  const weekdayOptions = weekdayIndexes.map((day) => ({
    value: String(day),
    label: t(`recurrence.weekdayNames.${day}`),
  }));
  const isMonthly = model.frequency === 0 || model.frequency === 1;

  return (
    <Stack gap="sm" data-testid="recurrence-editor">
      <SegmentedControl
        value={String(model.frequency)}
        onChange={(value) => set({ frequency: Number(value) as Frequency })}
        readOnly={isReadOnly}
        data={frequencyOrder.map((frequency) => ({
          value: String(frequency),
          label: t(`recurrence.frequencies.${frequency}`),
        }))}
        data-testid="recurrence-frequency"
      />
      <NumericInput
        label={t(`recurrence.intervalLabel.${model.frequency}`)}
        // An emptied field reads as 1 in the rule and becomes 1 again when left.
        value={model.interval || null}
        onChange={(value) => set({ interval: value ?? 0 })}
        onBlur={() => set({ interval: Math.max(1, Math.trunc(model.interval) || 1) })}
        min={1}
        max={999}
        allowDecimal={false}
        allowNegative={false}
        readOnly={isReadOnly}
        w={200}
        data-testid="recurrence-interval"
      />
      {model.frequency === 2 ? (
        <Group gap="md" data-testid="recurrence-weekdays">
          {weekdayIndexes.map((day) => (
            <Checkbox
              key={day}
              label={t(`recurrence.weekdayNames.${day}`)}
              // No day chosen reads as Monday (spec 001 §5).
              checked={model.weekdays.includes(day) || (model.weekdays.length === 0 && day === 0)}
              disabled={isReadOnly}
              onChange={(event) =>
                set({
                  weekdays: event.currentTarget.checked
                    ? [...model.weekdays.filter((item) => item !== day), day].sort()
                    : model.weekdays.filter((item) => item !== day),
                })
              }
              data-testid={`recurrence-weekday-${day}`}
            />
          ))}
        </Group>
      ) : null}
      {model.frequency === 0 ? (
        <Select
          label={t('recurrence.month')}
          data={monthNumbers.map((month) => ({
            value: String(month),
            label: t(`recurrence.monthNames.${month}`),
          }))}
          value={String(model.month)}
          onChange={(value) => set({ month: Number(value ?? 1) })}
          allowDeselect={false}
          readOnly={isReadOnly}
          w={200}
          data-testid="recurrence-month"
        />
      ) : null}
      {isMonthly ? (
        <Radio.Group
          value={model.monthMode}
          onChange={(value) => set({ monthMode: value as RecurrenceModel['monthMode'] })}
        >
          <Stack gap="xs">
            <Group gap="sm" align="center">
              <Radio
                value="day"
                label={t('recurrence.onDay')}
                disabled={isReadOnly}
                data-testid="recurrence-mode-day"
              />
              <NumericInput
                aria-label={t('recurrence.onDay')}
                value={model.monthDay || null}
                onChange={(value) => set({ monthDay: value ?? 0 })}
                onBlur={() => set({ monthDay: Math.min(31, Math.max(1, model.monthDay || 1)) })}
                min={1}
                max={31}
                clampBehavior="strict"
                allowDecimal={false}
                allowNegative={false}
                readOnly={isReadOnly || model.monthMode !== 'day'}
                w={90}
                data-testid="recurrence-month-day"
              />
            </Group>
            <Group gap="sm" align="center">
              <Radio
                value="position"
                label={t('recurrence.onThe')}
                disabled={isReadOnly}
                data-testid="recurrence-mode-position"
              />
              <Select
                aria-label={t('recurrence.position')}
                data={monthPositions.map((position) => ({
                  value: String(position),
                  label: t(`recurrence.positions.${position}`),
                }))}
                value={String(model.position)}
                onChange={(value) => set({ position: Number(value ?? 1) as MonthPosition })}
                allowDeselect={false}
                readOnly={isReadOnly || model.monthMode !== 'position'}
                w={140}
                data-testid="recurrence-position"
              />
              <Select
                aria-label={t('recurrence.weekday')}
                data={weekdayOptions}
                value={String(model.positionWeekday)}
                onChange={(value) => set({ positionWeekday: Number(value ?? 0) })}
                allowDeselect={false}
                readOnly={isReadOnly || model.monthMode !== 'position'}
                w={160}
                data-testid="recurrence-position-weekday"
              />
            </Group>
          </Stack>
        </Radio.Group>
      ) : null}
      <Text size="sm" c="dimmed" data-testid="recurrence-description">
        {describeRecurrence(model, t)}
      </Text>
    </Stack>
  );
}

type RecurrenceEditorProps = {
  /** The rule string (RFC 5545 RRULE part). */
  value: string;
  onChange: (rule: string) => void;
  isReadOnly: boolean;
};

/**
 * The recurrence editor over a rule string (spec 001 §2.6, §5). The model is kept while
 * editing (days chosen survive a switch to daily and back); the rule is written through
 * buildRecurrence.
 */
export function RecurrenceEditor({ value, onChange, isReadOnly }: RecurrenceEditorProps) {
  const [model, setModel] = useState<RecurrenceModel>(() => parseRecurrence(value));

  // A rule changed from outside (reset to the database's, reload) replaces the model.
  useEffect(() => {
    setModel((current) => (buildRecurrence(current) === value ? current : parseRecurrence(value)));
  }, [value]);

  function handleChange(next: RecurrenceModel) {
    setModel(next);
    const rule = buildRecurrence(next);
    if (rule !== value) onChange(rule);
  }

  return <RecurrenceFields model={model} onChange={handleChange} isReadOnly={isReadOnly} />;
}
