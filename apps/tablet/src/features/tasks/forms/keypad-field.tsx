import { useId } from 'react';
import { NumericKeypad } from '../../../shared/ui/numeric-keypad';
import './forms.css';

type KeypadFieldProps = {
  /** The visible label ("Temperature"). */
  label: string;
  /** The accessible name, with what it is about ("Temperature – Fridge 1"). */
  accessibleName: string;
  value: string;
  onChange: (value: string) => void;
  unit?: string;
  isInvalid?: boolean;
  allowNegative?: boolean;
  /** A line under the value: the range, the maximum. */
  hint?: string;
  /** Open: the keypad shows under the field (one keypad open at a time on a form). */
  isActive: boolean;
  onActivate: () => void;
  onClose: () => void;
  isReadOnly?: boolean;
};

/**
 * A number field of a form: a large display the employee taps, which opens the keypad under
 * it. No small text box anywhere: the keypad is the input.
 */
export function KeypadField({
  label,
  accessibleName,
  value,
  onChange,
  unit,
  isInvalid = false,
  allowNegative = true,
  hint,
  isActive,
  onActivate,
  onClose,
  isReadOnly = false,
}: KeypadFieldProps) {
  const hintId = useId();
  const shown = value === '' ? '–' : value;
  return (
    <div className="keypad-field">
      <span className="field__label">{label}</span>
      {isActive && !isReadOnly ? (
        <NumericKeypad
          label={accessibleName}
          value={value}
          onChange={onChange}
          unit={unit}
          isInvalid={isInvalid}
          allowNegative={allowNegative}
          describedBy={hint ? hintId : undefined}
          onDone={onClose}
          autoFocus
        />
      ) : (
        <button
          type="button"
          className={`keypad-field__display${isInvalid ? ' keypad-field__display--invalid' : ''}`}
          aria-label={`${accessibleName}: ${shown}${value === '' ? '' : ` ${unit ?? ''}`}`.trim()}
          aria-describedby={hint ? hintId : undefined}
          data-invalid={isInvalid || undefined}
          disabled={isReadOnly}
          onClick={onActivate}
        >
          <span className="keypad-field__value">{shown}</span>
          {unit ? <span className="keypad-field__unit">{unit}</span> : null}
        </button>
      )}
      {hint ? (
        <span id={hintId} className="muted keypad-field__hint">
          {hint}
        </span>
      ) : null}
    </div>
  );
}
