import {
  maxRetentionMonths,
  type RetentionRecordType,
  type RetentionResponse,
  retentionBelowMinimum,
  retentionRecordTypes,
  type UpdateRetentionBody,
} from '@mise/shared/records/retention';

/** What the form edits: per type the months typed, or null for the default (an empty field). */
export type RetentionValues = Record<RetentionRecordType, number | null>;

/** Why a typed value is refused before it is sent: an error code of the catalogue, or the maximum. */
export type RetentionFieldError =
  | 'retention/below-minimum'
  | 'too-long'
  | 'validation/invalid-input';

export function retentionValues(data: RetentionResponse): RetentionValues {
  return Object.fromEntries(
    retentionRecordTypes.map((type) => [type, data.types[type].months]),
  ) as RetentionValues;
}

/** The body of a save: only the types whose value differs from the stored setting. */
export function changedRetention(
  values: RetentionValues,
  stored: RetentionResponse,
): UpdateRetentionBody {
  const body: UpdateRetentionBody = {};
  for (const type of retentionRecordTypes) {
    if (values[type] !== stored.types[type].months) body[type] = values[type];
  }
  return body;
}

/**
 * The values of a body the server would refuse, by type: under the legal minimum (the shared
 * rule the server applies, so the message is the server's), over 20 years, or not whole months.
 */
export function retentionFieldErrors(
  body: UpdateRetentionBody,
): Partial<Record<RetentionRecordType, RetentionFieldError>> {
  const errors: Partial<Record<RetentionRecordType, RetentionFieldError>> = {};
  for (const type of retentionRecordTypes) {
    const months = body[type];
    if (months === undefined || months === null) continue;
    if (retentionBelowMinimum({ [type]: months }) !== null) {
      errors[type] = 'retention/below-minimum';
    } else if (months > maxRetentionMonths) {
      errors[type] = 'too-long';
    } else if (!Number.isInteger(months)) {
      errors[type] = 'validation/invalid-input';
    }
  }
  return errors;
}
