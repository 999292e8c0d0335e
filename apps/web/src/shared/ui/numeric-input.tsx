import { NumberInput, type NumberInputProps } from '@mantine/core';
import { type FocusEvent, useState } from 'react';

type NumericInputProps = Omit<NumberInputProps, 'value' | 'onChange' | 'defaultValue'> & {
  /** The field's number, or null when it is empty. */
  value: number | null;
  /** A number as soon as the text reads as one; null while it does not ('', '-', '-0.'). */
  onChange: (value: number | null) => void;
};

/** What the user typed, and the number it stood for when it was typed. */
type TypedText = { text: string; value: number | null };

/**
 * The numeric field of every screen. Mantine's NumberInput reports text that is not yet a
 * number ('-' typed over a selected value, '-0', '1.') as a string; a controlled field that
 * turns it into null would empty the input and drop the minus sign, so typing "-15" over
 * "-18" showed and saved 15. This field keeps the typed text on screen as long as the value
 * it stands for is still the one the form holds; any other value (a reset, a discard, a
 * server answer) replaces it.
 */
export function NumericInput({ value, onChange, onBlur, ...props }: NumericInputProps) {
  const [typed, setTyped] = useState<TypedText | null>(null);
  const shown = typed !== null && typed.value === value ? typed.text : (value ?? '');

  function handleChange(next: number | string) {
    const number = typeof next === 'number' ? next : toNumber(next);
    setTyped({ text: String(next), value: number });
    onChange(number);
  }

  function handleBlur(event: FocusEvent<HTMLInputElement>) {
    // Leaving the field: what is not a number ('-') is shown as the empty field it stands for.
    if (typed !== null && typed.value === null) setTyped(null);
    onBlur?.(event);
  }

  return <NumberInput {...props} value={shown} onChange={handleChange} onBlur={handleBlur} />;
}

/** '12', '-3.5' read as numbers; '', '-', '.' and anything unfinished as null. */
function toNumber(text: string): number | null {
  if (!/^-?(\d+\.?\d*|\.\d+)$/.test(text)) return null;
  const number = Number(text);
  return Number.isFinite(number) ? number : null;
}
