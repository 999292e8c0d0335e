import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import './numeric-keypad.css';

/** A key of the keypad: a digit, the decimal point, the minus sign, erase or clear. */
export type KeypadKey =
  | '0'
  | '1'
  | '2'
  | '3'
  | '4'
  | '5'
  | '6'
  | '7'
  | '8'
  | '9'
  | '.'
  | 'minus'
  | 'erase'
  | 'clear';

export type KeypadRules = {
  allowNegative: boolean;
  allowDecimal: boolean;
  /** Characters at most, minus sign and point included. */
  maxLength: number;
};

const defaultRules: KeypadRules = { allowNegative: true, allowDecimal: true, maxLength: 7 };

/**
 * The value after a key: kept as typed ("-0.5", "3."), one decimal point at most, the minus
 * key toggles the sign (allowed on an empty value: "-" then digits), a lone leading zero is
 * replaced by the next digit. A key that would break a rule leaves the value as it was.
 */
export function applyKeypadKey(
  value: string,
  key: KeypadKey,
  rules: KeypadRules = defaultRules,
): string {
  const isNegative = value.startsWith('-');
  const digits = isNegative ? value.slice(1) : value;
  const sign = isNegative ? '-' : '';
  switch (key) {
    case 'clear':
      return '';
    case 'erase':
      return value.slice(0, -1);
    case 'minus':
      if (!rules.allowNegative) return value;
      if (isNegative) return digits;
      return value.length < rules.maxLength ? `-${digits}` : value;
    case '.': {
      if (!rules.allowDecimal || digits.includes('.')) return value;
      const next = `${sign}${digits === '' ? '0' : digits}.`;
      return next.length <= rules.maxLength ? next : value;
    }
    default: {
      const next = digits === '0' ? `${sign}${key}` : `${value}${key}`;
      return next.length <= rules.maxLength ? next : value;
    }
  }
}

/** The number a keypad value stands for; null while nothing (or only "-" / ".") is typed. */
export function parseKeypadValue(value: string): number | null {
  if (!/\d/.test(value)) return null;
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) return null;
  return parsed === 0 ? 0 : parsed;
}

/** A number as the keypad shows it (a stored result opened again, a correction). */
export function keypadValueOf(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}

/** Typed text accepted as a keypad value (physical keyboard, paste): else null. */
function sanitizeTyped(text: string, rules: KeypadRules): string | null {
  const normalized = text.replace(',', '.').replace(/\s/g, '');
  if (normalized.length > rules.maxLength) return null;
  const pattern = rules.allowDecimal
    ? rules.allowNegative
      ? /^-?\d*\.?\d*$/
      : /^\d*\.?\d*$/
    : rules.allowNegative
      ? /^-?\d*$/
      : /^\d*$/;
  return pattern.test(normalized) ? normalized : null;
}

type NumericKeypadProps = {
  /** What is typed (accessible name of the display). */
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Shown after the value: °C, %. */
  unit?: string;
  isInvalid?: boolean;
  allowNegative?: boolean;
  allowDecimal?: boolean;
  maxLength?: number;
  /** Id of a text describing the value (range, error). */
  describedBy?: string;
  /** Shows an OK key that calls it (closes the keypad, moves on). */
  onDone?: () => void;
  autoFocus?: boolean;
};

const digitRows: KeypadKey[][] = [
  ['7', '8', '9'],
  ['4', '5', '6'],
  ['1', '2', '3'],
];

/**
 * A large on-screen keypad for wet hands: the keypad is the input. The display above it is a
 * real text field that opens no system keyboard (inputMode none) but takes a physical
 * keyboard's digits, point or comma, minus, Backspace and Escape (clear).
 */
export function NumericKeypad({
  label,
  value,
  onChange,
  unit,
  isInvalid = false,
  allowNegative = true,
  allowDecimal = true,
  maxLength = 7,
  describedBy,
  onDone,
  autoFocus = false,
}: NumericKeypadProps) {
  const { t } = useTranslation();
  const rules: KeypadRules = { allowNegative, allowDecimal, maxLength };
  const press = (key: KeypadKey) => onChange(applyKeypadKey(value, key, rules));

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === '-') {
      event.preventDefault();
      press('minus');
    } else if (event.key === 'Escape' && value !== '') {
      event.preventDefault();
      event.stopPropagation();
      press('clear');
    } else if (event.key === 'Enter' && onDone) {
      event.preventDefault();
      onDone();
    }
  };

  return (
    <div className="numeric-keypad">
      <div
        className={`numeric-keypad__display${isInvalid ? ' numeric-keypad__display--invalid' : ''}`}
      >
        <input
          className="numeric-keypad__value"
          aria-label={label}
          aria-invalid={isInvalid || undefined}
          aria-describedby={describedBy}
          inputMode="none"
          autoComplete="off"
          // biome-ignore lint/a11y/noAutofocus: the keypad opens on the field the employee chose.
          autoFocus={autoFocus}
          value={value}
          placeholder="–"
          onKeyDown={handleKeyDown}
          onChange={(event) => {
            const typed = sanitizeTyped(event.target.value, rules);
            if (typed !== null) onChange(typed);
          }}
        />
        {unit ? <span className="numeric-keypad__unit">{unit}</span> : null}
      </div>
      <div className="numeric-keypad__keys">
        {digitRows.flat().map((key) => (
          <KeyButton key={key} label={key} onPress={() => press(key)} />
        ))}
        {allowNegative ? (
          <KeyButton label="−" name={t('keypad.minus')} onPress={() => press('minus')} />
        ) : (
          <span />
        )}
        <KeyButton label="0" onPress={() => press('0')} />
        {allowDecimal ? (
          <KeyButton label="." name={t('keypad.point')} onPress={() => press('.')} />
        ) : (
          <span />
        )}
        <KeyButton label="⌫" name={t('keypad.erase')} onPress={() => press('erase')} />
        <KeyButton label={t('keypad.clear')} onPress={() => press('clear')} />
        {onDone ? (
          <button
            type="button"
            className="button button--primary numeric-keypad__key"
            onClick={onDone}
          >
            {t('keypad.done')}
          </button>
        ) : (
          <span />
        )}
      </div>
    </div>
  );
}

function KeyButton({
  label,
  name,
  onPress,
}: {
  label: string;
  name?: string;
  onPress: () => void;
}) {
  return (
    <button
      type="button"
      className="button numeric-keypad__key"
      aria-label={name}
      // The display keeps the focus: a physical keyboard goes on typing after a tap.
      onMouseDown={(event) => event.preventDefault()}
      onClick={onPress}
    >
      {label}
    </button>
  );
}
