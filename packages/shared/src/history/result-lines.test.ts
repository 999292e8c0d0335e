import { describe, expect, it } from 'vitest';
import { resultColumns, resultLines, type TemperatureControlResultLine } from './result-lines';
import { resultAnomalies } from './rules';
import { buildHistoryTask as buildTask, taskElement as element } from './test-support';

const picture = (path: string) => ({ path, timestamp: 1_790_000_000 });

describe('resultColumns', () => {
  it('lists each module’s columns in the spec’s display order', () => {
    expect(resultColumns('temperatures')).toEqual([
      'element',
      'first_temperature',
      'temperature',
      'control_temperature',
      'comment',
      'pictures',
    ]);
    expect(resultColumns('traceability')).toEqual(['element', 'pictures']);
    expect(resultColumns('actions')).toEqual(['action', 'done', 'picture']);
    expect(resultColumns('oils')).toEqual([
      'element',
      'cleaned',
      'oil_changed',
      'oil_filtered',
      'filter_changed',
      'polarity',
      'temperature',
      'pictures',
    ]);
    expect(resultColumns('temperature_control')).toEqual([
      'element',
      'mode',
      'start_temperature',
      'start_timestamp',
      'end_temperature',
      'end_timestamp',
      'target_temperature',
      'duration_seconds',
      'comment',
    ]);
  });
});

describe('resultLines', () => {
  it('has no line for a task without a result (late, postponed) or with an unreadable one', () => {
    expect(resultLines(buildTask('temperatures', { status: 'late' }))).toEqual([]);
    expect(
      resultLines(
        buildTask('temperatures', {
          status: 'postponed',
          postponed_to: { start: '2026-11-23T07:00:00Z', end: '2026-11-23T08:00:00Z' },
        }),
      ),
    ).toEqual([]);
    expect(resultLines(buildTask('oils', { result: { something: 'else' } }))).toEqual([]);
    expect(resultLines(buildTask('oils', { result: 'broken' }))).toEqual([]);
  });

  describe('temperatures', () => {
    const fridge = element('fridge', 'Frigo 1', { minimum_temperature: 0, maximum_temperature: 4 });
    const freezer = element('freezer', 'Congélateur', {
      minimum_temperature: -25,
      maximum_temperature: -18,
    });
    const entry = (values: Record<string, unknown>) => ({
      first_temperature: null,
      control_temperature: null,
      comment: '',
      pictures: [],
      timestamp: 1_790_000_000,
      ...values,
    });

    it('names the element from task.elements and keeps the reading, comment and picture count', () => {
      const task = buildTask('temperatures', {
        elements: [fridge, freezer],
        result: {
          entries: [
            entry({
              element: 'fridge',
              first_temperature: 5,
              temperature: 3.5,
              comment: 'porte ouverte',
              pictures: [picture('a.jpg'), picture('b.jpg')],
            }),
            entry({ element: 'freezer', temperature: -20 }),
          ],
        },
      });
      const [first, second] = resultLines(task);
      expect(first).toMatchObject({
        module: 'temperatures',
        element_id: 'fridge',
        element: 'Frigo 1',
        first_temperature: 5,
        temperature: 3.5,
        control_temperature: null,
        comment: 'porte ouverte',
        // When the reading was taken, as the tablet sent it.
        timestamp: 1_790_000_000,
        pictures: 2,
        picture_paths: ['a.jpg', 'b.jpg'],
        isNotTaken: false,
        isOutOfRange: false,
        hasAnomaly: false,
        // The first temperature is outside 0..4 and shows red; the reading itself is in range.
        alertColumns: ['first_temperature'],
      });
      expect(second).toMatchObject({
        element: 'Congélateur',
        temperature: -20,
        isOutOfRange: false,
      });
    });

    it('flags a reading outside the bounds, bounds included in range (spec 002 §4)', () => {
      const lines = resultLines(
        buildTask('temperatures', {
          elements: [fridge],
          result: {
            entries: [
              entry({ element: 'fridge', temperature: 4 }),
              entry({ element: 'fridge', temperature: 0 }),
              entry({ element: 'fridge', temperature: 4.1 }),
              entry({ element: 'fridge', temperature: -0.5 }),
            ],
          },
        }),
      );
      expect(lines.map((line) => line.module === 'temperatures' && line.isOutOfRange)).toEqual([
        false,
        false,
        true,
        true,
      ]);
      expect(lines[2]!.alertColumns).toEqual(['temperature']);
      expect(lines[2]!.hasAnomaly).toBe(true);
    });

    it('flags a control temperature outside the bounds even when the temperature is in range', () => {
      const [line] = resultLines(
        buildTask('temperatures', {
          elements: [fridge],
          result: {
            entries: [entry({ element: 'fridge', temperature: 3, control_temperature: 6 })],
          },
        }),
      );
      expect(line).toMatchObject({ isOutOfRange: true, alertColumns: ['control_temperature'] });
    });

    it('reads a null temperature as not taken (Non prise), never as out of range', () => {
      const [line] = resultLines(
        buildTask('temperatures', {
          elements: [fridge],
          result: { entries: [entry({ element: 'fridge', temperature: null })] },
        }),
      );
      expect(line).toMatchObject({
        temperature: null,
        isNotTaken: true,
        isOutOfRange: false,
        hasAnomaly: true,
        alertColumns: ['temperature'],
      });
    });

    it('falls back to the element id when the element is not on the task', () => {
      const [line] = resultLines(
        buildTask('temperatures', {
          result: { entries: [entry({ element: 'gone', temperature: 99 })] },
        }),
      );
      // No bounds: every reading is in range.
      expect(line).toMatchObject({ element: 'gone', isOutOfRange: false });
    });
  });

  it('traceability: one line per element with its picture count', () => {
    const lines = resultLines(
      buildTask('traceability', {
        elements: [element('beef', 'Bœuf haché'), element('fish', 'Saumon')],
        result: {
          entries: [
            { element: 'beef', pictures: [picture('1.jpg'), picture('2.jpg'), picture('3.jpg')] },
            { element: 'fish', pictures: [] },
          ],
        },
      }),
    );
    expect(lines).toEqual([
      {
        module: 'traceability',
        element_id: 'beef',
        element: 'Bœuf haché',
        pictures: 3,
        picture_paths: ['1.jpg', '2.jpg', '3.jpg'],
        alertColumns: [],
        hasAnomaly: false,
      },
      {
        module: 'traceability',
        element_id: 'fish',
        element: 'Saumon',
        pictures: 0,
        picture_paths: [],
        alertColumns: [],
        hasAnomaly: false,
      },
    ]);
  });

  it('actions: name, done and photo; an action not done is an anomaly', () => {
    const task = buildTask('actions', {
      actions: [
        { name: 'Nettoyer le plan de travail', requires_picture: true },
        { name: 'Vider les poubelles', requires_picture: false },
      ],
      result: {
        entries: [
          {
            index: 0,
            action: 'Nettoyer le plan de travail',
            done: true,
            requires_picture: true,
            picture: picture('plan.jpg'),
          },
          { index: 1, action: '', done: false, requires_picture: false, picture: null },
        ],
      },
    });
    const [cleaned, bins] = resultLines(task);
    expect(cleaned).toMatchObject({
      module: 'actions',
      index: 0,
      action: 'Nettoyer le plan de travail',
      done: true,
      requires_picture: true,
      hasPicture: true,
      pictures: 1,
      picture_paths: ['plan.jpg'],
      alertColumns: [],
      hasAnomaly: false,
    });
    // An empty action name reads the task's action at that index.
    expect(bins).toMatchObject({
      action: 'Vider les poubelles',
      done: false,
      hasPicture: false,
      pictures: 0,
      alertColumns: ['done'],
      hasAnomaly: true,
    });
    expect(resultAnomalies('actions', [], task.result)).toEqual(['action-not-done']);
  });

  it('oils: the checks, polarity in percent or null when not taken, temperature optional', () => {
    const fryer = element('fryer', 'Friteuse 1', { maximum_polarity: 24 });
    const lines = resultLines(
      buildTask('oils', {
        elements: [fryer],
        result: {
          entries: [
            {
              element: 'fryer',
              cleaned: true,
              oil_changed: false,
              oil_filtered: true,
              filter_changed: false,
              polarity: 18.5,
              temperature: 175,
              pictures: [picture('oil.jpg')],
            },
            {
              element: 'fryer',
              cleaned: false,
              oil_changed: true,
              oil_filtered: false,
              filter_changed: true,
              polarity: null,
              temperature: null,
              pictures: [],
            },
            {
              element: 'fryer',
              cleaned: false,
              oil_changed: false,
              oil_filtered: false,
              filter_changed: false,
              polarity: 25,
              temperature: null,
              pictures: [],
            },
          ],
        },
      }),
    );
    expect(lines[0]).toMatchObject({
      module: 'oils',
      element: 'Friteuse 1',
      cleaned: true,
      oil_changed: false,
      oil_filtered: true,
      filter_changed: false,
      polarity: 18.5,
      temperature: 175,
      pictures: 1,
      isPolarityTooHigh: false,
      hasAnomaly: false,
    });
    expect(lines[1]).toMatchObject({
      cleaned: false,
      oil_changed: true,
      filter_changed: true,
      polarity: null,
      temperature: null,
      isPolarityTooHigh: false,
      alertColumns: [],
    });
    expect(lines[2]).toMatchObject({
      polarity: 25,
      isPolarityTooHigh: true,
      alertColumns: ['polarity'],
      hasAnomaly: true,
    });
  });

  describe('temperature control', () => {
    const chicken = element('chicken', 'Poulet rôti');
    const control = (values: Record<string, unknown>) => ({
      element: 'chicken',
      mode: 'cooling',
      target_temperature: 10,
      start_temperature: 63,
      start_timestamp: 1_790_000_000,
      end_temperature: 8,
      end_timestamp: 1_790_003_600,
      comment: '',
      ...values,
    });
    const lineOf = (values: Record<string, unknown>) =>
      resultLines(
        buildTask('temperature_control', {
          elements: [chicken],
          result: { entries: [control(values)] },
        }),
      )[0] as TemperatureControlResultLine;

    it('keeps mode, temperatures, timestamps, target and comment with the duration', () => {
      expect(lineOf({ comment: 'cellule' })).toEqual({
        module: 'temperature_control',
        element_id: 'chicken',
        element: 'Poulet rôti',
        mode: 'cooling',
        start_temperature: 63,
        start_timestamp: 1_790_000_000,
        end_temperature: 8,
        end_timestamp: 1_790_003_600,
        target_temperature: 10,
        comment: 'cellule',
        start_employee: '',
        end_employee: '',
        duration_seconds: 3600,
        isFailed: false,
        alertColumns: [],
        hasAnomaly: false,
      });
    });

    it('names who recorded the start and the end when the result says', () => {
      expect(
        lineOf({
          start_employee: { id: 'e-1', name: 'Léa', surname: 'Petit' },
          end_employee: { id: 'e-2', name: 'Hugo', surname: 'Bernard' },
        }),
      ).toMatchObject({ start_employee: 'Léa Petit', end_employee: 'Hugo Bernard' });
      expect(lineOf({ start_employee: null, end_employee: 'not an employee' })).toMatchObject({
        start_employee: '',
        end_employee: '',
      });
    });

    it('never shows a duration under 60 seconds (spec 002 §9), null without both timestamps', () => {
      expect(lineOf({ end_timestamp: 1_790_000_012 }).duration_seconds).toBe(60);
      expect(lineOf({ end_timestamp: 1_790_000_000 }).duration_seconds).toBe(60);
      expect(lineOf({ end_timestamp: 1_790_000_061 }).duration_seconds).toBe(61);
      expect(lineOf({ end_timestamp: null }).duration_seconds).toBeNull();
    });

    it('fails a cooling ending above the target and a reheating ending below it (spec 002 §4)', () => {
      expect(lineOf({ end_temperature: 10 })).toMatchObject({ isFailed: false });
      expect(lineOf({ end_temperature: 10.5 })).toMatchObject({
        isFailed: true,
        hasAnomaly: true,
        alertColumns: ['end_temperature', 'target_temperature'],
      });
      expect(
        lineOf({ mode: 'reheating', target_temperature: 63, end_temperature: 63 }).isFailed,
      ).toBe(false);
      expect(
        lineOf({ mode: 'reheating', target_temperature: 63, end_temperature: 60 }),
      ).toMatchObject({ mode: 'reheating', isFailed: true });
      // Not finished yet: nothing to judge.
      expect(lineOf({ end_temperature: null, end_timestamp: null }).isFailed).toBe(false);
    });
  });

  it('agrees with resultAnomalies on which lines are anomalies', () => {
    const fridge = element('fridge', 'Frigo', { minimum_temperature: 0, maximum_temperature: 4 });
    const result = {
      entries: [
        { element: 'fridge', temperature: 2, first_temperature: null, control_temperature: null },
        {
          element: 'fridge',
          temperature: null,
          first_temperature: null,
          control_temperature: null,
        },
        { element: 'fridge', temperature: 9, first_temperature: null, control_temperature: null },
      ],
    };
    const lines = resultLines(buildTask('temperatures', { elements: [fridge], result }));
    expect(lines.map((line) => line.hasAnomaly)).toEqual([false, true, true]);
    expect(resultAnomalies('temperatures', [fridge], result).sort()).toEqual([
      'temperature-not-taken',
      'temperature-out-of-range',
    ]);
  });

  it('skips entries that are not objects and reads wrongly typed values as absent', () => {
    const lines = resultLines(
      buildTask('temperatures', {
        result: { entries: [null, 'x', { element: 'e', temperature: '4', comment: 12 }] },
      }),
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      temperature: null,
      isNotTaken: true,
      comment: '',
      pictures: 0,
    });
  });
});
