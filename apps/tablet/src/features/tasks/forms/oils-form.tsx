import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { keypadValueOf, parseKeypadValue } from '../../../shared/ui/numeric-keypad';
import {
  isPossibleTemperature,
  type OilsResult,
  type ResultPicture,
  resultEntries,
  type TaskFormProps,
} from './form-types';
import { KeypadField } from './keypad-field';
import { PictureField } from './picture-field';
import { SubmitBar } from './submit-bar';
import './forms.css';

type Entry = OilsResult['entries'][number];
const toggles = ['cleaned', 'oil_changed', 'oil_filtered', 'filter_changed'] as const;
type Toggle = (typeof toggles)[number];
type Draft = Record<Toggle, boolean> & {
  polarity: string;
  temperature: string;
  pictures: ResultPicture[];
};

const toggleLabels: Record<Toggle, string> = {
  cleaned: 'forms.oils.cleaned',
  oil_changed: 'forms.oils.oilChanged',
  oil_filtered: 'forms.oils.oilFiltered',
  filter_changed: 'forms.oils.filterChanged',
};
const maxPictures = 10;

/**
 * Oils (spec 002 §3): per fryer, cleaned, oil changed, oil filtered, filter changed, the
 * polarity (0–100 %) against its maximum (red above it: the oil should be changed), the
 * temperature, and pictures when the element requires them. Polarity and temperature may stay
 * empty (not measured).
 */
export function OilsForm({
  task,
  elements,
  initialResult,
  isReadOnly,
  footer,
  isFooterComplete = true,
  onSubmit,
}: TaskFormProps<OilsResult>) {
  const { t } = useTranslation();
  const initialEntries = resultEntries<Entry>(initialResult) ?? [];
  const [drafts, setDrafts] = useState<Record<string, Draft>>(() =>
    Object.fromEntries(
      task.elements.map((element) => {
        const entry = initialEntries.find((item) => item.element === element.id);
        return [
          element.id,
          {
            cleaned: entry?.cleaned ?? false,
            oil_changed: entry?.oil_changed ?? false,
            oil_filtered: entry?.oil_filtered ?? false,
            filter_changed: entry?.filter_changed ?? false,
            polarity: keypadValueOf(entry?.polarity),
            temperature: keypadValueOf(entry?.temperature),
            pictures: entry?.pictures ?? [],
          } satisfies Draft,
        ];
      }),
    ),
  );
  const [activeField, setActiveField] = useState<string | null>(null);
  const update = (id: string, change: Partial<Draft>) =>
    setDrafts((current) => ({ ...current, [id]: { ...current[id]!, ...change } }));

  const rows = task.elements.map((element) => {
    const draft = drafts[element.id]!;
    const settings = elements.get(element.id);
    const maximum = element.maximum_polarity ?? settings?.maximum_polarity ?? null;
    const polarity = parseKeypadValue(draft.polarity);
    const temperature = parseKeypadValue(draft.temperature);
    return {
      element,
      draft,
      maximum,
      polarity,
      temperature,
      isPolarityPossible: polarity === null || polarity <= 100,
      isAboveMaximum: polarity !== null && maximum !== null && polarity > maximum,
      isTemperaturePossible: isPossibleTemperature(temperature),
      isPictureRequired: settings?.oils_require_picture ?? false,
    };
  });

  const missing = rows.flatMap((row) => {
    const name = row.element.name;
    const lines: string[] = [];
    if (!row.isPolarityPossible) lines.push(t('forms.oils.needsPossiblePolarity', { name }));
    if (!row.isTemperaturePossible) lines.push(t('forms.temperatures.needsPossible', { name }));
    if (row.isPictureRequired && row.draft.pictures.length === 0)
      lines.push(t('forms.needsPicture', { name }));
    return lines;
  });
  if (!isFooterComplete) missing.push(t('forms.needsReason'));

  const handleSubmit = () =>
    onSubmit({
      entries: rows.map(
        (row): Entry => ({
          element: row.element.id,
          cleaned: row.draft.cleaned,
          oil_changed: row.draft.oil_changed,
          oil_filtered: row.draft.oil_filtered,
          filter_changed: row.draft.filter_changed,
          polarity: row.polarity,
          temperature: row.temperature,
          pictures: row.draft.pictures,
        }),
      ),
    });

  return (
    <div className="task-form">
      {rows.map((row) => {
        const { element, draft, maximum } = row;
        const polarityField = `${element.id}:polarity`;
        const temperatureField = `${element.id}:temperature`;
        const isPolarityRed = row.isAboveMaximum || !row.isPolarityPossible;
        return (
          <section
            key={element.id}
            className={`card entry${isPolarityRed ? ' entry--invalid' : ''}`}
            aria-label={element.name}
          >
            <div className="entry__title">
              <h3>{element.name}</h3>
            </div>
            <div className="choices">
              {toggles.map((toggle) => (
                <button
                  key={toggle}
                  type="button"
                  className="choice choice--toggle"
                  aria-pressed={draft[toggle]}
                  aria-label={t('forms.fieldOf', {
                    field: t(toggleLabels[toggle]),
                    name: element.name,
                  })}
                  disabled={isReadOnly}
                  onClick={() => update(element.id, { [toggle]: !draft[toggle] })}
                >
                  {draft[toggle] ? '✓ ' : ''}
                  {t(toggleLabels[toggle])}
                </button>
              ))}
            </div>
            <div className="entry__fields">
              <KeypadField
                label={t('forms.oils.polarity')}
                accessibleName={t('forms.fieldOf', {
                  field: t('forms.oils.polarity'),
                  name: element.name,
                })}
                value={draft.polarity}
                onChange={(value) => update(element.id, { polarity: value })}
                unit="%"
                allowNegative={false}
                isInvalid={isPolarityRed}
                hint={maximum === null ? undefined : t('forms.oils.maximum', { max: maximum })}
                isActive={activeField === polarityField}
                onActivate={() => setActiveField(polarityField)}
                onClose={() => setActiveField(null)}
                isReadOnly={isReadOnly}
              />
              <KeypadField
                label={t('forms.oils.temperature')}
                accessibleName={t('forms.fieldOf', {
                  field: t('forms.oils.temperature'),
                  name: element.name,
                })}
                value={draft.temperature}
                onChange={(value) => update(element.id, { temperature: value })}
                unit="°C"
                isInvalid={!row.isTemperaturePossible}
                isActive={activeField === temperatureField}
                onActivate={() => setActiveField(temperatureField)}
                onClose={() => setActiveField(null)}
                isReadOnly={isReadOnly}
              />
            </div>
            {row.isAboveMaximum ? (
              <p className="error-text">{t('forms.oils.aboveMaximum')}</p>
            ) : null}
            {row.isPictureRequired || draft.pictures.length > 0 ? (
              <PictureField
                subject={element.name}
                pictures={draft.pictures}
                onChange={(pictures) => update(element.id, { pictures })}
                isRequired={row.isPictureRequired}
                max={maxPictures}
                isReadOnly={isReadOnly}
              />
            ) : null}
          </section>
        );
      })}
      {isReadOnly ? null : (
        <>
          {footer}
          <SubmitBar missing={missing} onSubmit={handleSubmit} />
        </>
      )}
    </div>
  );
}
