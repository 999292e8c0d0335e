import { DatePickerInput, DatesProvider } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import 'dayjs/locale/de';
import 'dayjs/locale/en';
import 'dayjs/locale/fr';
import 'dayjs/locale/pl';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../i18n/i18n';

/** A range of calendar days as the API sends them (YYYY-MM-DD), both included. */
export type DateRange = { start: string | null; end: string | null };

type DateRangePickerProps = {
  value: DateRange;
  onChange: (value: DateRange) => void;
  label?: ReactNode;
  /** Latest selectable day (YYYY-MM-DD). */
  maxDate?: string;
  minDate?: string;
  clearable?: boolean;
  testId?: string;
};

/** Picks a start and end day; shows them as dd/mm/yyyy, in the interface language. */
export function DateRangePicker({
  value,
  onChange,
  label,
  maxDate,
  minDate,
  clearable = false,
  testId = 'date-range',
}: DateRangePickerProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? currentLanguage();

  function handleChange(range: [string | null, string | null]) {
    onChange({ start: range[0], end: range[1] });
  }

  return (
    <DatesProvider settings={{ locale: language, firstDayOfWeek: 1 }}>
      <DatePickerInput
        type="range"
        label={label ?? t('dateRange.label')}
        placeholder={t('dateRange.placeholder')}
        value={[value.start, value.end]}
        onChange={handleChange}
        valueFormat="DD/MM/YYYY"
        leftSection={<IconCalendar size={16} />}
        maxDate={maxDate}
        minDate={minDate}
        clearable={clearable}
        allowSingleDateInRange
        data-testid={testId}
        miw={240}
      />
    </DatesProvider>
  );
}
