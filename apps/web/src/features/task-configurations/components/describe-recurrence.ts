import type { RecurrenceModel } from '@mise/shared/tasks/rules';
import type { TFunction } from 'i18next';

/** "A, B and C" in the interface language (keys recurrence.describe.list*). */
function joinList(items: readonly string[], t: TFunction): string {
  if (items.length <= 1) return items[0] ?? '';
  const head = items.slice(0, -1).join(t('recurrence.describe.listSeparator'));
  return t('recurrence.describe.listLast', { list: head, last: items.at(-1) });
}

/**
 * A recurrence in words, in the user's language: "Every 2 weeks on Monday and Thursday",
 * "Every month on the last Friday", "Tous les jours"... Weekdays are 0 = Monday … 6 = Sunday;
 * a weekly rule without days reads Monday (spec 001 §5).
 */
export function describeRecurrence(model: RecurrenceModel, t: TFunction): string {
  const count = Math.max(1, Math.trunc(model.interval) || 1);
  const weekday = (day: number) => t(`recurrence.weekdays.${day}`);
  const position = t(`recurrence.positions.${model.position}`);
  const month = t(`recurrence.months.${model.month}`);
  switch (model.frequency) {
    case 3:
      return t('recurrence.describe.daily', { count });
    case 2: {
      const days = [...new Set(model.weekdays)].filter((day) => day >= 0 && day <= 6).sort();
      const items = (days.length ? days : [0]).map((day) =>
        t('recurrence.describe.weekdayItem', { day: weekday(day) }),
      );
      return t('recurrence.describe.weekly', { count, days: joinList(items, t) });
    }
    case 1:
      return model.monthMode === 'day'
        ? t('recurrence.describe.monthlyDay', { count, day: model.monthDay })
        : t('recurrence.describe.monthlyPosition', {
            count,
            position,
            weekday: weekday(model.positionWeekday),
          });
    default:
      return model.monthMode === 'day'
        ? t('recurrence.describe.yearlyDay', { count, day: model.monthDay, month })
        : t('recurrence.describe.yearlyPosition', {
            count,
            position,
            weekday: weekday(model.positionWeekday),
            month,
          });
  }
}
