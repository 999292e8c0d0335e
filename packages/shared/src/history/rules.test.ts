import { describe, expect, it } from 'vitest';
import type { TaskStatus } from '../tasks/constants';
import { maxHistoryRangeDays, scoreWeights } from './constants';
import {
  displayedDurationSeconds,
  emptyScoreCounts,
  equipmentState,
  equipmentStateOfCounts,
  historyIncludes,
  probeDayOutOfRange,
  rangeDays,
  readingInRange,
  resultAnomalies,
  scoreClassOf,
  scoreWindowStart,
  storeScore,
  taskAnomalies,
  validateHistoryRange,
} from './rules';

const fridge = { id: 'f1', minimum_temperature: 0, maximum_temperature: 4, maximum_polarity: null };
const fryer = {
  id: 'o1',
  minimum_temperature: null,
  maximum_temperature: null,
  maximum_polarity: 25,
};

describe('history range (spec 002 §5: 31 days)', () => {
  it('counts calendar days with both ends included', () => {
    expect(rangeDays('2026-01-01', '2026-01-01')).toBe(1);
    expect(rangeDays('2026-01-01', '2026-01-31')).toBe(31);
    // Across the spring DST change the count stays whole days.
    expect(rangeDays('2026-03-20', '2026-04-05')).toBe(17);
    expect(rangeDays('2024-02-28', '2024-03-01')).toBe(3);
    expect(rangeDays('2026-01-31', '2026-01-01')).toBe(-29);
  });

  it('refuses days that do not exist as invalid input', () => {
    expect(validateHistoryRange('2026-02-30', '2026-03-02')).toBe('validation/invalid-input');
    expect(validateHistoryRange('2026-01-01', '2026-13-01')).toBe('validation/invalid-input');
    expect(validateHistoryRange('2026-1-1', '2026-01-02')).toBe('validation/invalid-input');
    expect(validateHistoryRange('2026-01-02', '2026-01-01')).toBe('validation/invalid-input');
  });

  it('accepts 31 days and refuses 32 with date-range-too-long', () => {
    expect(maxHistoryRangeDays).toBe(31);
    expect(validateHistoryRange('2026-01-01', '2026-01-31')).toBeNull();
    expect(validateHistoryRange('2026-01-01', '2026-02-01')).toBe('date-range-too-long');
    expect(validateHistoryRange('2026-02-01', '2026-03-03')).toBeNull();
    expect(validateHistoryRange('2026-02-01', '2026-03-04')).toBe('date-range-too-long');
  });

  it('refuses an end before the start', () => {
    expect(validateHistoryRange('2026-01-02', '2026-01-01')).toBe('validation/invalid-input');
  });
});

describe('temperature reading state (spec 002 §4)', () => {
  it('is in range when the temperature and the control temperature lie within min and max', () => {
    expect(readingInRange({ temperature: 0 }, fridge)).toBe(true);
    expect(readingInRange({ temperature: 4 }, fridge)).toBe(true);
    expect(readingInRange({ temperature: 4.1 }, fridge)).toBe(false);
    expect(readingInRange({ temperature: -0.5 }, fridge)).toBe(false);
    expect(readingInRange({ temperature: 3, control_temperature: 6 }, fridge)).toBe(false);
    expect(readingInRange({ temperature: 3, control_temperature: null }, fridge)).toBe(true);
  });

  it('a fridge read in and out of range the same day is mixed', () => {
    expect(equipmentState([true, true])).toBe('in-range');
    expect(equipmentState([false])).toBe('out-of-range');
    expect(equipmentStateOfCounts(0, 0)).toBe('no-data');
    expect(equipmentStateOfCounts(3, 0)).toBe('in-range');
    expect(equipmentStateOfCounts(0, 2)).toBe('out-of-range');
    expect(equipmentStateOfCounts(2, 1)).toBe('mixed');
    expect(equipmentState([true, false, true])).toBe('mixed');
    expect(equipmentState([])).toBe('no-data');
  });
});

describe('temperature control (spec 002 §4, §9)', () => {
  const control = (mode: string, end: number, target: number) => ({
    entries: [{ element: 'f1', mode, end_temperature: end, target_temperature: target }],
  });
  it('fails when cooling ends above the target or reheating below it', () => {
    expect(resultAnomalies('temperature_control', [fridge], control('cooling', 10, 10))).toEqual(
      [],
    );
    expect(resultAnomalies('temperature_control', [fridge], control('cooling', 10.5, 10))).toEqual([
      'temperature-control-failed',
    ]);
    expect(resultAnomalies('temperature_control', [fridge], control('reheating', 63, 63))).toEqual(
      [],
    );
    expect(resultAnomalies('temperature_control', [fridge], control('reheating', 60, 63))).toEqual([
      'temperature-control-failed',
    ]);
  });

  it('never displays a duration under 60 seconds', () => {
    expect(displayedDurationSeconds(1000, 1010)).toBe(60);
    expect(displayedDurationSeconds(1000, 1000)).toBe(60);
    expect(displayedDurationSeconds(1000, 4600)).toBe(3600);
    expect(displayedDurationSeconds(null, 4600)).toBeNull();
  });
});

describe('anomaly rule', () => {
  it('flags a reading out of range and a reading not taken', () => {
    const result = (temperature: number | null) => ({
      entries: [{ element: 'f1', temperature, control_temperature: null }],
    });
    expect(resultAnomalies('temperatures', [fridge], result(3))).toEqual([]);
    expect(resultAnomalies('temperatures', [fridge], result(7))).toEqual([
      'temperature-out-of-range',
    ]);
    expect(resultAnomalies('temperatures', [fridge], result(null))).toEqual([
      'temperature-not-taken',
    ]);
  });

  it('flags an action not done, and oil polarity above the maximum', () => {
    expect(
      resultAnomalies('actions', [], {
        entries: [
          { index: 0, done: true },
          { index: 1, done: false },
        ],
      }),
    ).toEqual(['action-not-done']);
    expect(resultAnomalies('actions', [], { entries: [{ index: 0, done: true }] })).toEqual([]);
    expect(
      resultAnomalies('oils', [fryer], { entries: [{ element: 'o1', polarity: 25 }] }),
    ).toEqual([]);
    expect(
      resultAnomalies('oils', [fryer], { entries: [{ element: 'o1', polarity: 26 }] }),
    ).toEqual(['polarity-too-high']);
    expect(
      resultAnomalies('oils', [fryer], { entries: [{ element: 'o1', polarity: null }] }),
    ).toEqual([]);
  });

  it('never flags traceability or an unreadable result', () => {
    expect(
      resultAnomalies('traceability', [], { entries: [{ element: 'x', pictures: [] }] }),
    ).toEqual([]);
    expect(resultAnomalies('temperatures', [fridge], null)).toEqual([]);
    expect(resultAnomalies('temperatures', [fridge], { entries: 'nope' })).toEqual([]);
  });

  it('adds lateness: done late, late and non-finalized are anomalies; postponed and on-time are not', () => {
    expect(taskAnomalies('done', [])).toEqual([]);
    expect(taskAnomalies('done-late', [])).toEqual(['late']);
    expect(taskAnomalies('late', [])).toEqual(['late']);
    expect(taskAnomalies('non-finalized', [])).toEqual(['late']);
    expect(taskAnomalies('done', ['action-not-done'])).toEqual(['action-not-done']);
    expect(taskAnomalies('postponed', ['action-not-done'])).toEqual([]);
    expect(taskAnomalies('on-time', [])).toEqual([]);
  });
});

describe('history filter (spec 002 §2)', () => {
  const statuses: TaskStatus[] = [
    'done',
    'done-late',
    'late',
    'on-time',
    'postponed',
    'non-finalized',
  ];
  it('completed shows done and done-late only', () => {
    expect(statuses.filter((status) => historyIncludes(status, false, 'completed'))).toEqual([
      'done',
      'done-late',
    ]);
  });
  it('all excludes on-time tasks', () => {
    expect(statuses.filter((status) => historyIncludes(status, false, 'all'))).toEqual([
      'done',
      'done-late',
      'late',
      'postponed',
      'non-finalized',
    ]);
  });
  it('anomaly shows anomalous tasks only, never on-time ones', () => {
    expect(historyIncludes('done', true, 'anomaly')).toBe(true);
    expect(historyIncludes('done', false, 'anomaly')).toBe(false);
    expect(historyIncludes('on-time', true, 'anomaly')).toBe(false);
  });
});

describe('restaurant score', () => {
  it('has no score when nothing was due', () => {
    expect(storeScore(emptyScoreCounts)).toBeNull();
  });

  it('is 100 when every due task was done on time without anomaly', () => {
    expect(storeScore({ ...emptyScoreCounts, onTime: 40 })).toBe(100);
  });

  it('credits late tasks half, missed tasks nothing, and halves results with an anomaly', () => {
    expect(scoreWeights).toEqual({ onTime: 1, late: 0.5, missed: 0, anomalyFactor: 0.5 });
    // (1 + 0.5 + 0.5 + 0.25 + 0) / 5 = 0.45
    expect(
      storeScore({ onTime: 1, onTimeWithAnomaly: 1, late: 1, lateWithAnomaly: 1, missed: 1 }),
    ).toBe(45);
    expect(storeScore({ ...emptyScoreCounts, missed: 3 })).toBe(0);
    // 2/3 rounds to 67.
    expect(storeScore({ ...emptyScoreCounts, onTime: 2, missed: 1 })).toBe(67);
  });

  it('classes tasks: on-time and postponed are not due', () => {
    expect(scoreClassOf('done', false)).toBe('onTime');
    expect(scoreClassOf('done', true)).toBe('onTimeWithAnomaly');
    expect(scoreClassOf('done-late', false)).toBe('late');
    expect(scoreClassOf('done-late', true)).toBe('lateWithAnomaly');
    expect(scoreClassOf('late', false)).toBe('missed');
    expect(scoreClassOf('non-finalized', false)).toBe('missed');
    expect(scoreClassOf('on-time', false)).toBeNull();
    expect(scoreClassOf('postponed', false)).toBeNull();
  });

  it('counts 30 days ending today', () => {
    expect(scoreWindowStart('2026-11-23', 30)).toBe('2026-10-25');
    expect(scoreWindowStart('2026-03-01', 30)).toBe('2026-01-31');
  });
});

describe('probeDayOutOfRange', () => {
  const bounds = { minimum_temperature: 0, maximum_temperature: 4 };
  it('is out of range when the lowest reading is under the minimum or the highest over the maximum', () => {
    expect(probeDayOutOfRange({ minimum: 0, maximum: 4 }, bounds)).toBe(false);
    expect(probeDayOutOfRange({ minimum: -0.5, maximum: 3 }, bounds)).toBe(true);
    expect(probeDayOutOfRange({ minimum: 1, maximum: 4.1 }, bounds)).toBe(true);
  });
  it('ignores a bound left empty', () => {
    expect(
      probeDayOutOfRange(
        { minimum: -30, maximum: 2 },
        { minimum_temperature: null, maximum_temperature: 4 },
      ),
    ).toBe(false);
    expect(
      probeDayOutOfRange(
        { minimum: -30, maximum: 90 },
        { minimum_temperature: null, maximum_temperature: null },
      ),
    ).toBe(false);
  });
});
