import { TimePicker, type TimePickerProps } from '@mantine/dates';
import { useTranslation } from 'react-i18next';

type ClockTimeInputProps = Omit<TimePickerProps, 'format' | 'value' | 'onChange'> & {
  /** "hh:mm" (24-hour) or '' when empty. */
  value: string;
  /** Called with "hh:mm" once both fields are filled, '' once both are empty. */
  onChange: (value: string) => void;
  /** Test ids: `<testId>-hours`, `<testId>-minutes`, and `<testId>` on the hidden value. */
  testId: string;
};

/**
 * A time of day in the 24-hour format whatever the browser's locale (spec 001 §2.9, §9; a
 * browser `<input type="time">` shows AM/PM in an American English browser): Mantine's
 * TimePicker, an hours and a minutes field.
 */
export function ClockTimeInput({ testId, ...props }: ClockTimeInputProps) {
  const { t } = useTranslation();
  return (
    <TimePicker
      format="24h"
      hoursInputLabel={t('common.hours')}
      minutesInputLabel={t('common.minutes')}
      hoursInputProps={{ 'data-testid': `${testId}-hours` }}
      minutesInputProps={{ 'data-testid': `${testId}-minutes` }}
      hiddenInputProps={{ 'data-testid': testId }}
      {...props}
    />
  );
}
