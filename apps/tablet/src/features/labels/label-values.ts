import { allergens, type LabelType, labelTypes } from '@mise/shared/catalogue/constants';
import type { LabelValues } from '@mise/shared/catalogue/rules';
import type { ElementLabel } from '../../shared/api/types';

function isLabelType(value: string): value is LabelType {
  return (labelTypes as readonly string[]).includes(value);
}

/** A label as the tablet reads it, in the shape the shared printing rule takes. */
export function toLabelValues(label: ElementLabel): LabelValues {
  return {
    active: true,
    name: label.name,
    // A type this version does not know prints as a name label (no date rather than a wrong one).
    type: isLabelType(label.type) ? label.type : 'name',
    expiration_duration: label.expiration_duration ?? 0,
    defrosting_duration: label.defrosting_duration ?? 0,
    expiration_text: label.expiration_text,
    cumulate_expiration_duration: label.cumulate_expiration_duration,
    show_expiration_hour: label.show_expiration_hour,
    show_expiration_weekday: label.show_expiration_weekday,
  };
}

/**
 * The duration an employee may adjust before printing (spec 001 §3.4 editable types): the
 * expiration of expiration_editable, the defrosting of defrosting_editable; none otherwise.
 */
export function editableDuration(
  type: LabelType,
): 'expiration_duration' | 'defrosting_duration' | null {
  if (type === 'expiration_editable') return 'expiration_duration';
  if (type === 'defrosting_editable') return 'defrosting_duration';
  return null;
}

/** The allergen letters of an element (spec 001 §3.5), in the spec's order. */
export function allergenLetters(keys: readonly string[]): string[] {
  return allergens
    .filter((allergen) => keys.includes(allergen.key))
    .map((allergen) => allergen.letter);
}

/** Accents and case ignored: "creme" finds "Crème brûlée". */
export function searchText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();
}
