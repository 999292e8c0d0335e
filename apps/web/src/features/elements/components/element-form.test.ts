import { describe, expect, it } from 'vitest';
import { buildElement, buildLabel, fieldStates } from '../test/build-element';
import {
  buildElementInput,
  buildLocksInput,
  draftFromElement,
  isDraftDirty,
  labelInputs,
  newElementDraft,
} from './element-form';

describe('element form rules', () => {
  it('creates with every field but the images, durations of 0 as null', () => {
    const draft = newElementDraft('database');
    draft.values = { ...draft.values, name: '  Poulet ', cooling_duration: 0 };
    const input = buildElementInput(draft, newElementDraft('database'), 'database', true);
    expect(input).toMatchObject({ name: 'Poulet', cooling_duration: null, reheating_duration: 60 });
    expect(input).not.toHaveProperty('illustration_url');
    expect(input).not.toHaveProperty('allergen_illustration_url');
    expect(buildLocksInput(draft, draft, true)).toMatchObject({ name: true, labels: true });
  });

  it('sends only what changed, never a locked store field, and null for a reset one', () => {
    const element = buildElement({
      level: 'store',
      maximum_polarity: 30,
      field_states: fieldStates('inherited', {
        minimum_temperature: 'locked',
        maximum_polarity: 'overridden',
      }),
    });
    const baseline = draftFromElement(element);
    const draft = {
      ...baseline,
      values: { ...baseline.values, minimum_temperature: -5, maximum_temperature: 3 },
      // The editor turns an edited inherited field into an overridden one.
      states: {
        ...baseline.states,
        maximum_temperature: 'overridden' as const,
        maximum_polarity: 'inherited' as const,
      },
    };
    expect(isDraftDirty(draft, baseline)).toBe(true);
    expect(buildElementInput(draft, baseline, 'store', false)).toEqual({
      maximum_temperature: 3,
      maximum_polarity: null,
    });
    expect(isDraftDirty(baseline, draftFromElement(element))).toBe(false);
  });

  it('sends labels in display order with their own or origin ids', () => {
    const own = buildLabel({ name: ' DLC ', type: 'freeform_expiration', expiration_text: 'x' });
    const inherited = buildLabel({
      id: null,
      origin_id: own.id,
      state: 'inherited',
      type: 'opening',
    });
    const [first, second] = labelInputs([
      { ...inherited, key: 'b' },
      { ...own, key: 'a' },
    ]);
    expect(first).not.toHaveProperty('id');
    expect(first).toMatchObject({ origin_id: own.id, expiration_text: null });
    expect(second).toMatchObject({ id: own.id, name: 'DLC', expiration_text: 'x' });
    expect(second).not.toHaveProperty('origin_id');
  });

  it('normalises labels to their type before sending them (S6)', () => {
    const [defrosting, name] = labelInputs([
      {
        ...buildLabel({
          type: 'defrosting',
          expiration_text: 'a\nb\nc\nd\ne\nf',
          show_expiration_hour: true,
          show_expiration_weekday: true,
          defrosting_duration: 12,
        }),
        key: 'a',
      },
      {
        ...buildLabel({
          type: 'name',
          expiration_duration: 48,
          cumulate_expiration_duration: true,
        }),
        key: 'b',
      },
    ]);
    expect(defrosting).toMatchObject({
      expiration_text: null,
      show_expiration_hour: false,
      show_expiration_weekday: false,
      defrosting_duration: 12,
    });
    expect(name).toMatchObject({ expiration_duration: 0, cumulate_expiration_duration: false });
  });

  it('sends an image only to clear it: removed (null) or reset at store level (S1)', () => {
    const element = buildElement({ illustration_url: '/api/files/a.png' });
    const baseline = draftFromElement(element);
    const changedUrl = { ...baseline, values: { ...baseline.values, illustration_url: '/x.png' } };
    expect(buildElementInput(changedUrl, baseline, 'database', false)).toEqual({});
    const removed = { ...baseline, values: { ...baseline.values, illustration_url: null } };
    expect(buildElementInput(removed, baseline, 'database', false)).toEqual({
      illustration_url: null,
    });
  });
});
