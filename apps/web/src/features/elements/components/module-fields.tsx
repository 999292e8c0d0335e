import { MultiSelect, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import {
  allergens,
  durationRange,
  type ElementFieldKey,
  polarityRange,
  temperatureRange,
} from '@mise/shared/catalogue/constants';
import type { ElementValues } from '@mise/shared/catalogue/schemas';
import { useTranslation } from 'react-i18next';
import { ImageUpload } from '../../../shared/ui/image-upload';
import { NumericInput } from '../../../shared/ui/numeric-input';
import { uploadElementImage } from '../api/upload-element-files';
import { canRemoveImage } from './element-form';
import { useElementForm } from './element-form-context';
import { FieldRow } from './field-state-control';
import { RemoveImageButton } from './illustration-picker';
import { ProbeField } from './probe-field';

type NumberKey = {
  [Key in keyof ElementValues]: ElementValues[Key] extends number | null ? Key : never;
}[keyof ElementValues];
type BooleanKey = {
  [Key in keyof ElementValues]: ElementValues[Key] extends boolean ? Key : never;
}[keyof ElementValues];

type NumberFieldProps = {
  field: NumberKey;
  label: string;
  range: { min: number; max: number };
  /** Durations: 0 is shown empty (it is stored as null). */
  isDuration?: boolean;
  suffix?: string;
};

export function NumberField({ field, label, range, isDuration = false, suffix }: NumberFieldProps) {
  const { draft, setValue, isFieldReadOnly } = useElementForm();
  const value = draft.values[field];
  const shown = isDuration && value === 0 ? null : value;
  return (
    <FieldRow field={field}>
      <NumericInput
        label={label}
        value={shown}
        min={range.min}
        max={range.max}
        clampBehavior="strict"
        allowDecimal={!isDuration}
        suffix={suffix}
        readOnly={isFieldReadOnly(field)}
        onChange={(next) => setValue(field, next)}
        data-testid={`field-${field}`}
      />
    </FieldRow>
  );
}

export function SwitchField({ field, label }: { field: BooleanKey; label: string }) {
  const { draft, setValue, isFieldReadOnly } = useElementForm();
  return (
    <FieldRow field={field}>
      <Switch
        label={label}
        checked={draft.values[field]}
        disabled={isFieldReadOnly(field)}
        onChange={(event) => setValue(field, event.currentTarget.checked)}
        data-testid={`field-${field}`}
      />
    </FieldRow>
  );
}

/** The module's own active toggle (spec 001 §2.5: each module tab has one). */
export function ModuleActiveSwitch({ field }: { field: BooleanKey & ElementFieldKey }) {
  const { t } = useTranslation();
  return <SwitchField field={field} label={t(`element.moduleActive.${field}`)} />;
}

export function TemperaturesTab() {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <ModuleActiveSwitch field="temperatures_module_active" />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NumberField
          field="minimum_temperature"
          label={t('element.fields.minimum_temperature')}
          range={temperatureRange}
          suffix=" °C"
        />
        <NumberField
          field="maximum_temperature"
          label={t('element.fields.maximum_temperature')}
          range={temperatureRange}
          suffix=" °C"
        />
      </SimpleGrid>
      <SwitchField
        field="temperature_delivery_item"
        label={t('element.fields.temperature_delivery_item')}
      />
      <SwitchField
        field="temperature_require_picture"
        label={t('element.fields.temperature_require_picture')}
      />
      <SwitchField field="temperature_picture" label={t('element.fields.temperature_picture')} />
      <ProbeField />
    </Stack>
  );
}

export function TraceabilityTab() {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <ModuleActiveSwitch field="traceability_module_active" />
      <Text size="sm" c="dimmed">
        {t('element.traceabilityNoParameters')}
      </Text>
    </Stack>
  );
}

export function OilsTab() {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <ModuleActiveSwitch field="oils_module_active" />
      <NumberField
        field="maximum_polarity"
        label={t('element.fields.maximum_polarity')}
        range={polarityRange}
        suffix=" %"
      />
      <SwitchField field="oils_require_picture" label={t('element.fields.oils_require_picture')} />
    </Stack>
  );
}

export function TemperatureControlTab() {
  const { t } = useTranslation();
  const minutes = ` ${t('element.minutesUnit')}`;
  return (
    <Stack gap="sm">
      <ModuleActiveSwitch field="temperature_control_module_active" />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NumberField
          field="reheating_temperature"
          label={t('element.fields.reheating_temperature')}
          range={temperatureRange}
          suffix=" °C"
        />
        <NumberField
          field="reheating_duration"
          label={t('element.fields.reheating_duration')}
          range={durationRange}
          isDuration
          suffix={minutes}
        />
        <NumberField
          field="cooling_temperature"
          label={t('element.fields.cooling_temperature')}
          range={temperatureRange}
          suffix=" °C"
        />
        <NumberField
          field="cooling_duration"
          label={t('element.fields.cooling_duration')}
          range={durationRange}
          isDuration
          suffix={minutes}
        />
      </SimpleGrid>
    </Stack>
  );
}

export function RecipeTab() {
  const { t } = useTranslation();
  const {
    level,
    draft,
    setValue,
    isFieldReadOnly,
    elementId,
    version,
    runUpload,
    acceptServerElement,
  } = useElementForm();
  const allergenOptions = allergens.map((allergen) => ({
    value: allergen.key,
    label: `${allergen.letter} – ${t(`allergenNames.${allergen.key}`)}`,
  }));
  return (
    <Stack gap="sm">
      <ModuleActiveSwitch field="mise_display_active" />
      <FieldRow field="allergens">
        <MultiSelect
          label={t('element.fields.allergens')}
          data={allergenOptions}
          value={draft.values.allergens}
          onChange={(next) => setValue('allergens', next as ElementValues['allergens'])}
          readOnly={isFieldReadOnly('allergens')}
          clearable={!isFieldReadOnly('allergens')}
          searchable
          data-testid="field-allergens"
        />
      </FieldRow>
      <FieldRow field="allergen_illustration_url">
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('element.fields.allergen_illustration_url')}
          </Text>
          <ImageUpload
            imageUrl={draft.values.allergen_illustration_url}
            name={draft.values.name}
            label={t('element.upload')}
            isSquare
            isDisabled={!elementId || isFieldReadOnly('allergen_illustration_url')}
            onUpload={async (file, onProgress) => {
              if (!elementId) return;
              acceptServerElement(
                await runUpload(() =>
                  uploadElementImage(
                    level,
                    elementId,
                    version,
                    'allergenIllustration',
                    file,
                    onProgress,
                  ),
                ),
              );
            }}
            testId="allergen-illustration"
          />
          {!isFieldReadOnly('allergen_illustration_url') &&
          canRemoveImage(draft, 'allergen_illustration_url') ? (
            <RemoveImageButton field="allergen_illustration_url" />
          ) : null}
          {elementId ? null : (
            <Text size="xs" c="dimmed">
              {t('element.saveFirst')}
            </Text>
          )}
        </Stack>
      </FieldRow>
    </Stack>
  );
}
