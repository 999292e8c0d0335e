import { useState } from 'react';

const isStringList = (value: unknown): value is readonly string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/**
 * Two form values are the same: lists of keys compare as sets (hidden modules come back from
 * the server in its own order), lists of records (contacts) by content, the rest by value.
 */
export function isSameFormValues<Values extends object>(first: Values, second: Values): boolean {
  return (Object.keys(first) as (keyof Values)[]).every((key) => {
    const one: unknown = first[key];
    const other: unknown = second[key];
    if (isStringList(one) && isStringList(other)) {
      return one.length === other.length && one.every((item) => other.includes(item));
    }
    if (typeof one === 'object' && one !== null && typeof other === 'object' && other !== null) {
      return JSON.stringify(one) === JSON.stringify(other);
    }
    return Object.is(one, other);
  });
}

/**
 * The edited copy of a server record (a database, a store, an account, a distributor) for a
 * screen whose Save sends it. A new read of the record (a save, an upload, a refetch) never
 * drops what the user typed: the draft takes the new values only while it holds no edit.
 * `isDirty` drives the unsaved-changes prompt; `adopt(saved)` takes a save's answer (the
 * server may have trimmed or normalised what was sent).
 */
export function useRecordDraft<Item, Values extends object>(
  record: Item,
  toValues: (record: Item) => Values,
) {
  const [values, setValues] = useState<Values>(() => toValues(record));
  const [source, setSource] = useState(record);
  if (record !== source) {
    setSource(record);
    if (isSameFormValues(values, toValues(source))) setValues(toValues(record));
  }
  return {
    values,
    setValues,
    isDirty: !isSameFormValues(values, toValues(record)),
    adopt: (saved: Item) => setValues(toValues(saved)),
  };
}
