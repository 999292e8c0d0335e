import { Select, SimpleGrid, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { type LabelType, labelHoursRange, labelTypes } from '@mise/shared/catalogue/constants';
import {
  freeformTooLong,
  fromLabelHours,
  type LabelValues,
  labelTypeFields,
  normalizeLabel,
  toLabelHours,
} from '@mise/shared/catalogue/rules';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../shared/ui/form-dialog';
import { NumericInput } from '../../../shared/ui/numeric-input';

type LabelDialogProps = {
  opened: boolean;
  /** The label edited, or newLabelValues() for a new one. */
  initial: LabelValues;
  isNew: boolean;
  onClose: () => void;
  onSubmit: (values: LabelValues) => void;
};

type DurationInput = { days: number | ''; hours: number | '' };

const asNumber = (value: number | '') => (value === '' ? 0 : value);
const maxDays = Math.floor(labelHoursRange.max / 24);

/**
 * The label create/edit dialog (spec 001 §5): name required; expiration days and hours
 * (hours hidden for customer_expiration and hourless_expiration); defrosting days, hours and
 * cumulate for defrosting types; show hour and weekday for expiration types; a freeform text
 * that shows 'freeform-line-limit' as it is typed and blocks the dialog while too long.
 */
export function LabelDialog({ opened, initial, isNew, onClose, onSubmit }: LabelDialogProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<LabelValues>(initial);
  const [expiration, setExpiration] = useState<DurationInput>(
    fromLabelHours(initial.expiration_duration),
  );
  const [defrosting, setDefrosting] = useState<DurationInput>(
    fromLabelHours(initial.defrosting_duration),
  );
  const [isSubmitted, setIsSubmitted] = useState(false);
  const fields = labelTypeFields(values.type);
  const isTextTooLong = fields.freeform && freeformTooLong(values.expiration_text);
  const isNameMissing = values.name.trim() === '';
  const isExpirationMissing =
    fields.expiration &&
    (expiration.days === '' || (fields.expirationHours && expiration.hours === ''));
  const isDefrostingMissing =
    fields.defrosting && (defrosting.days === '' || defrosting.hours === '');

  function setValue<Key extends keyof LabelValues>(key: Key, value: LabelValues[Key]) {
    setValues((current) => ({ ...current, [key]: value }));
  }

  function handleSubmit() {
    setIsSubmitted(true);
    if (isNameMissing || isTextTooLong || isExpirationMissing || isDefrostingMissing) return;
    onSubmit(
      normalizeLabel({
        ...values,
        name: values.name.trim(),
        expiration_duration: fields.expiration
          ? toLabelHours(
              asNumber(expiration.days),
              fields.expirationHours ? asNumber(expiration.hours) : 0,
            )
          : 0,
        defrosting_duration: fields.defrosting
          ? toLabelHours(asNumber(defrosting.days), asNumber(defrosting.hours))
          : 0,
        expiration_text: fields.freeform ? (values.expiration_text ?? '') : null,
        cumulate_expiration_duration: fields.cumulate && values.cumulate_expiration_duration,
        show_expiration_hour: fields.hourAndWeekday && values.show_expiration_hour,
        show_expiration_weekday: fields.hourAndWeekday && values.show_expiration_weekday,
      }),
    );
  }

  const required = (isMissing: boolean) => (isSubmitted && isMissing ? t('forms.required') : null);
  const numberChange = (value: number | null): number | '' => value ?? '';
  const numberValue = (value: number | ''): number | null => (value === '' ? null : value);

  return (
    <FormDialog
      opened={opened}
      onClose={onClose}
      title={isNew ? t('label.create') : t('label.edit')}
      primaryLabel={isNew ? t('common.create') : t('common.ok')}
      onPrimary={handleSubmit}
      isPrimaryDisabled={isTextTooLong}
      primaryTestId="label-submit"
      testId="label-dialog"
    >
      <TextInput
        label={t('label.name')}
        value={values.name}
        onChange={(event) => setValue('name', event.currentTarget.value)}
        error={isSubmitted && isNameMissing ? t('errors.label/invalid-name') : null}
        withAsterisk
        data-autofocus
        data-testid="label-name"
      />
      <Select
        label={t('label.type')}
        data={labelTypes.map((type) => ({ value: type, label: t(`label.types.${type}`) }))}
        value={values.type}
        onChange={(type) => type && setValue('type', type as LabelType)}
        allowDeselect={false}
        comboboxProps={{ withinPortal: false }}
        data-testid="label-type"
      />
      {fields.expiration ? (
        <SimpleGrid cols={2}>
          <NumericInput
            label={t('label.expirationDays')}
            value={numberValue(expiration.days)}
            min={0}
            max={maxDays}
            allowDecimal={false}
            clampBehavior="strict"
            onChange={(value) =>
              setExpiration((current) => ({ ...current, days: numberChange(value) }))
            }
            error={required(expiration.days === '')}
            data-testid="label-expiration-days"
          />
          {fields.expirationHours ? (
            <NumericInput
              label={t('label.expirationHours')}
              value={numberValue(expiration.hours)}
              min={0}
              max={23}
              allowDecimal={false}
              clampBehavior="strict"
              onChange={(value) =>
                setExpiration((current) => ({ ...current, hours: numberChange(value) }))
              }
              error={required(expiration.hours === '')}
              data-testid="label-expiration-hours"
            />
          ) : null}
        </SimpleGrid>
      ) : null}
      {fields.defrosting ? (
        <>
          <SimpleGrid cols={2}>
            <NumericInput
              label={t('label.defrostingDays')}
              value={numberValue(defrosting.days)}
              min={0}
              max={maxDays}
              allowDecimal={false}
              clampBehavior="strict"
              onChange={(value) =>
                setDefrosting((current) => ({ ...current, days: numberChange(value) }))
              }
              error={required(defrosting.days === '')}
              data-testid="label-defrosting-days"
            />
            <NumericInput
              label={t('label.defrostingHours')}
              value={numberValue(defrosting.hours)}
              min={0}
              max={23}
              allowDecimal={false}
              clampBehavior="strict"
              onChange={(value) =>
                setDefrosting((current) => ({ ...current, hours: numberChange(value) }))
              }
              error={required(defrosting.hours === '')}
              data-testid="label-defrosting-hours"
            />
          </SimpleGrid>
          <Switch
            label={t('label.cumulate')}
            checked={values.cumulate_expiration_duration}
            onChange={(event) =>
              setValue('cumulate_expiration_duration', event.currentTarget.checked)
            }
            data-testid="label-cumulate"
          />
        </>
      ) : null}
      {fields.hourAndWeekday ? (
        <>
          <Switch
            label={t('label.showHour')}
            checked={values.show_expiration_hour}
            onChange={(event) => setValue('show_expiration_hour', event.currentTarget.checked)}
            data-testid="label-show-hour"
          />
          <Switch
            label={t('label.showWeekday')}
            checked={values.show_expiration_weekday}
            onChange={(event) => setValue('show_expiration_weekday', event.currentTarget.checked)}
            data-testid="label-show-weekday"
          />
        </>
      ) : null}
      {fields.freeform ? (
        <Textarea
          label={t('label.freeformText')}
          value={values.expiration_text ?? ''}
          onChange={(event) => setValue('expiration_text', event.currentTarget.value)}
          rows={5}
          error={isTextTooLong ? t('errors.freeform-line-limit') : null}
          data-testid="label-freeform"
        />
      ) : null}
      {fields.freeform ? null : (
        <Text size="xs" c="dimmed">
          {t('label.durationHint')}
        </Text>
      )}
    </FormDialog>
  );
}
