import { useTranslation } from 'react-i18next';
import type { DeviceElement } from '../../shared/api/types';
import '../tasks/forms/forms.css';

type ElementPickerProps = {
  elements: DeviceElement[];
  selected: string | null;
  onSelect: (id: string) => void;
  label: string;
};

/** The store's elements of a module as large choices (one chosen). */
export function ElementPicker({ elements, selected, onSelect, label }: ElementPickerProps) {
  const { t } = useTranslation();
  if (elements.length === 0) return <p className="muted">{t('unscheduled.noElements')}</p>;
  return (
    <fieldset className="stack fieldset-plain">
      <legend className="field__label">{label}</legend>
      <div className="element-picker">
        {elements.map((element) => (
          <button
            key={element.id}
            type="button"
            className="choice"
            aria-pressed={selected === element.id}
            onClick={() => onSelect(element.id)}
          >
            {element.name}
          </button>
        ))}
      </div>
    </fieldset>
  );
}
