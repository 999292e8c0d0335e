import { temperatureInRange } from '@mise/shared/tasks/checks';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { keypadValueOf, parseKeypadValue } from '../../../shared/ui/numeric-keypad';
import {
  isPossibleTemperature,
  nowSeconds,
  type ResultPicture,
  resultEntries,
  type TaskFormProps,
  type TemperaturesResult,
} from './form-types';
import { KeypadField } from './keypad-field';
import { PictureField } from './picture-field';
import { SubmitBar } from './submit-bar';
import './forms.css';

type Entry = TemperaturesResult['entries'][number];

/** The common corrective actions offered when a reading is out of range (or free text). */
export const correctiveChoices = [
  'moved',
  'thrownAway',
  'thermostat',
  'technician',
  'other',
] as const;
type CorrectiveChoice = (typeof correctiveChoices)[number];

type Draft = {
  temperature: string;
  control: string;
  corrective: CorrectiveChoice | null;
  correctiveText: string;
  comment: string;
  pictures: ResultPicture[];
  /** When the temperature was typed (seconds), null until then. */
  timestamp: number | null;
};

const maxPictures = 10;

/** "Corrective action: <what was done>" first, then the employee's own comment. */
export function composeComment(
  t: TFunction,
  draft: Pick<Draft, 'corrective' | 'correctiveText' | 'comment'>,
  isOutOfRange: boolean,
): string {
  const comment = draft.comment.trim();
  const action = correctiveText(t, draft);
  if (!isOutOfRange || !action) return comment;
  const line = `${t('forms.temperatures.correctivePrefix')}: ${action}`;
  return comment ? `${line}\n${comment}` : line;
}

function correctiveText(t: TFunction, draft: Pick<Draft, 'corrective' | 'correctiveText'>): string {
  if (!draft.corrective) return '';
  if (draft.corrective === 'other') return draft.correctiveText.trim();
  return t(`forms.temperatures.choices.${draft.corrective}`);
}

/** A recorded entry back into a draft: its corrective action line becomes free text. */
function draftOf(t: TFunction, entry: Entry | undefined): Draft {
  const prefix = `${t('forms.temperatures.correctivePrefix')}: `;
  const [first = '', ...rest] = (entry?.comment ?? '').split('\n');
  const hasAction = first.startsWith(prefix);
  return {
    temperature: keypadValueOf(entry?.temperature),
    control: keypadValueOf(entry?.control_temperature),
    corrective: hasAction ? 'other' : null,
    correctiveText: hasAction ? first.slice(prefix.length) : '',
    comment: hasAction ? rest.join('\n') : (entry?.comment ?? ''),
    pictures: entry?.pictures ?? [],
    timestamp: entry?.timestamp ?? null,
  };
}

/**
 * Temperatures (spec 002 §3, §4): every element of the task with its range, its temperature
 * and an optional control temperature, a comment and pictures (required when the element says
 * so). A reading out of range (temperature or control) turns red at once and needs a
 * corrective action, kept at the start of the entry's comment.
 */
export function TemperaturesForm({
  task,
  elements,
  initialResult,
  isReadOnly,
  footer,
  isFooterComplete = true,
  onSubmit,
}: TaskFormProps<TemperaturesResult>) {
  const { t } = useTranslation();
  const initialEntries = resultEntries<Entry>(initialResult) ?? [];
  const initialOf = (id: string) => initialEntries.find((entry) => entry.element === id);
  const [drafts, setDrafts] = useState<Record<string, Draft>>(() =>
    Object.fromEntries(
      task.elements.map((element) => [element.id, draftOf(t, initialOf(element.id))]),
    ),
  );
  const [activeField, setActiveField] = useState<string | null>(null);

  const update = (id: string, change: Partial<Draft>) =>
    setDrafts((current) => ({ ...current, [id]: { ...current[id]!, ...change } }));

  const rows = task.elements.map((element) => {
    const draft = drafts[element.id]!;
    const temperature = parseKeypadValue(draft.temperature);
    const control = parseKeypadValue(draft.control);
    const isOutOfRange =
      !temperatureInRange(temperature, element.minimum_temperature, element.maximum_temperature) ||
      !temperatureInRange(control, element.minimum_temperature, element.maximum_temperature);
    const isPossible = isPossibleTemperature(temperature) && isPossibleTemperature(control);
    const settings = elements.get(element.id);
    const isPictureRequired = settings?.temperature_require_picture ?? false;
    const hasPicture =
      isPictureRequired || (settings?.temperature_picture ?? false) || draft.pictures.length > 0;
    return {
      element,
      draft,
      temperature,
      control,
      isOutOfRange,
      isPossible,
      isPictureRequired,
      hasPicture,
    };
  });

  const missing = rows.flatMap((row) => {
    const name = row.element.name;
    const lines: string[] = [];
    if (row.temperature === null) lines.push(t('forms.temperatures.needsTemperature', { name }));
    if (!row.isPossible) lines.push(t('forms.temperatures.needsPossible', { name }));
    if (row.isOutOfRange && !correctiveText(t, row.draft))
      lines.push(t('forms.temperatures.needsCorrective', { name }));
    if (row.isPictureRequired && row.draft.pictures.length === 0)
      lines.push(t('forms.needsPicture', { name }));
    return lines;
  });
  if (!isFooterComplete) missing.push(t('forms.needsReason'));

  const handleSubmit = async () => {
    const now = nowSeconds();
    await onSubmit({
      entries: rows.map((row): Entry => {
        const previous = initialOf(row.element.id);
        return {
          element: row.element.id,
          temperature: row.temperature,
          // The first reading, kept when a correction changes the temperature.
          first_temperature:
            previous?.first_temperature ??
            (previous && previous.temperature !== row.temperature ? previous.temperature : null),
          control_temperature: row.control,
          comment: composeComment(t, row.draft, row.isOutOfRange),
          pictures: row.draft.pictures,
          timestamp: row.draft.timestamp ?? now,
        };
      }),
    });
  };

  return (
    <div className="task-form">
      {rows.map(({ element, draft, isOutOfRange, isPossible, isPictureRequired, hasPicture }) => {
        const temperatureField = `${element.id}:temperature`;
        const controlField = `${element.id}:control`;
        const isInvalid = isOutOfRange || !isPossible;
        return (
          <section
            key={element.id}
            className={`card entry${isInvalid ? ' entry--invalid' : ''}`}
            aria-label={element.name}
            data-out-of-range={isOutOfRange || undefined}
          >
            <div className="entry__title">
              <h3>{element.name}</h3>
              <span className="muted">
                {rangeText(t, element.minimum_temperature, element.maximum_temperature)}
              </span>
              {isOutOfRange ? (
                <span className="badge error-text">{t('forms.temperatures.outOfRange')}</span>
              ) : null}
            </div>
            <div className="entry__fields">
              <KeypadField
                label={t('forms.temperatures.temperature')}
                accessibleName={t('forms.fieldOf', {
                  field: t('forms.temperatures.temperature'),
                  name: element.name,
                })}
                value={draft.temperature}
                onChange={(value) =>
                  update(element.id, { temperature: value, timestamp: nowSeconds() })
                }
                unit="°C"
                isInvalid={isInvalid}
                isActive={activeField === temperatureField}
                onActivate={() => setActiveField(temperatureField)}
                onClose={() => setActiveField(null)}
                isReadOnly={isReadOnly}
              />
              <KeypadField
                label={t('forms.temperatures.control')}
                accessibleName={t('forms.fieldOf', {
                  field: t('forms.temperatures.control'),
                  name: element.name,
                })}
                value={draft.control}
                onChange={(value) => update(element.id, { control: value })}
                unit="°C"
                isInvalid={isInvalid && draft.control !== ''}
                isActive={activeField === controlField}
                onActivate={() => setActiveField(controlField)}
                onClose={() => setActiveField(null)}
                isReadOnly={isReadOnly}
              />
            </div>
            {!isPossible ? (
              <p className="error-text">{t('forms.temperatures.impossible')}</p>
            ) : null}
            {isOutOfRange && !isReadOnly ? (
              <fieldset className="corrective">
                <legend className="field__label error-text">
                  {t('forms.temperatures.correctiveTitle')}
                </legend>
                <div className="choices">
                  {correctiveChoices.map((choice) => (
                    <button
                      key={choice}
                      type="button"
                      className="choice"
                      aria-pressed={draft.corrective === choice}
                      onClick={() => update(element.id, { corrective: choice })}
                    >
                      {t(`forms.temperatures.choices.${choice}`)}
                    </button>
                  ))}
                </div>
                {draft.corrective === 'other' ? (
                  <label className="field">
                    <span className="field__label">{t('forms.temperatures.otherText')}</span>
                    <textarea
                      className="textarea"
                      maxLength={300}
                      value={draft.correctiveText}
                      onChange={(event) =>
                        update(element.id, { correctiveText: event.target.value })
                      }
                    />
                  </label>
                ) : null}
              </fieldset>
            ) : null}
            {isReadOnly ? (
              <p style={{ whiteSpace: 'pre-wrap' }}>
                <span className="field__label">{t('forms.comment')}: </span>
                {composeComment(t, draft, isOutOfRange) || '–'}
              </p>
            ) : (
              <label className="field">
                <span className="field__label">{t('forms.comment')}</span>
                <textarea
                  className="textarea"
                  maxLength={1500}
                  value={draft.comment}
                  onChange={(event) => update(element.id, { comment: event.target.value })}
                />
              </label>
            )}
            {hasPicture ? (
              <PictureField
                subject={element.name}
                pictures={draft.pictures}
                onChange={(pictures) => update(element.id, { pictures })}
                isRequired={isPictureRequired}
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

function rangeText(t: TFunction, minimum: number | null, maximum: number | null): string {
  if (minimum !== null && maximum !== null)
    return t('forms.temperatures.range', { min: minimum, max: maximum });
  if (minimum !== null) return t('forms.temperatures.rangeMin', { min: minimum });
  if (maximum !== null) return t('forms.temperatures.rangeMax', { max: maximum });
  return t('forms.temperatures.noRange');
}
