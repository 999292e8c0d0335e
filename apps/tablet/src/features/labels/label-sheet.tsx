import type { LabelPrint } from '@mise/shared/catalogue/rules';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../shared/ui/format';

export type LabelSheetProps = {
  printed: LabelPrint;
  typeName: string;
  allergenLetters: string[];
  employeeName: string;
  storeName: string;
  /** The store's time zone: dates read on the store's clock. */
  timeZone: string | undefined;
};

/**
 * What the printed label carries (62 mm roll, docs/decisions.md): product, label, dates,
 * allergen letters, who printed it and where. The same markup is the on-screen preview.
 */
export function LabelSheet({
  printed,
  typeName,
  allergenLetters,
  employeeName,
  storeName,
  timeZone,
}: LabelSheetProps) {
  const { t } = useTranslation();
  const format = (date: Date, withHour: boolean, withWeekday: boolean) =>
    formatDate(date, { withTime: withHour, withWeekday, zone: timeZone });
  return (
    <>
      <p className="label-sheet__product">{printed.elementName}</p>
      <p className="label-sheet__type">
        {printed.labelName}
        {printed.labelName !== typeName ? ` · ${typeName}` : null}
      </p>
      {printed.defrostedAt ? (
        <p data-testid="label-defrosted">
          {t('label.preview.defrostedAt', { date: format(printed.defrostedAt, true, false) })}
        </p>
      ) : null}
      {printed.expiresAt ? (
        <p className="label-sheet__expires" data-testid="label-expires">
          {t('label.preview.expiresAt', {
            date: format(printed.expiresAt, printed.showHour, printed.showWeekday),
          })}
        </p>
      ) : null}
      {printed.text ? <p className="label-sheet__text">{printed.text}</p> : null}
      {allergenLetters.length > 0 ? (
        <p data-testid="label-allergens">
          {t('labels.allergens', { letters: allergenLetters.join(' ') })}
        </p>
      ) : null}
      <p className="label-sheet__small">
        {t('labels.printedBy', {
          name: employeeName,
          date: format(printed.printedAt, true, false),
        })}
      </p>
      <p className="label-sheet__small">{storeName}</p>
    </>
  );
}
