import { describe, expect, it } from 'vitest';
import {
  communicationPeriod,
  communicationState,
  completionPercentage,
  invalidQuizQuestion,
  isQuizAnswerCorrect,
  isQuizPassed,
  median,
} from './rules';

describe('communication state from its dates (spec 002 §4)', () => {
  const period = { start: '2026-12-01T00:00:00.000Z', end: '2026-12-10T23:59:59.000Z' };
  it('is coming before the start and exactly at it', () => {
    expect(communicationState(period, new Date('2026-11-30T12:00:00Z'))).toBe('coming');
    expect(communicationState(period, new Date('2026-12-01T00:00:00.000Z'))).toBe('coming');
  });
  it('is running just after the start and just before the end', () => {
    expect(communicationState(period, new Date('2026-12-01T00:00:00.001Z'))).toBe('running');
    expect(communicationState(period, new Date('2026-12-10T23:59:58.999Z'))).toBe('running');
  });
  it('is passed exactly at the end and after', () => {
    expect(communicationState(period, new Date('2026-12-10T23:59:59.000Z'))).toBe('passed');
    expect(communicationState(period, new Date('2027-01-01T00:00:00Z'))).toBe('passed');
  });
});

describe('communication period (spec 002 §4, §9: 00:00:00 to 23:59:59)', () => {
  it('reads the days in the zone, across a change of offset', () => {
    expect(
      communicationPeriod({ start_day: '2026-03-28', end_day: '2026-03-29' }, 'Europe/Paris'),
    ).toEqual({
      start: new Date('2026-03-27T23:00:00.000Z'),
      end: new Date('2026-03-29T21:59:59.000Z'),
    });
    expect(communicationPeriod({ start_day: '2026-07-01', end_day: '2026-07-01' }, 'UTC')).toEqual({
      start: new Date('2026-07-01T00:00:00.000Z'),
      end: new Date('2026-07-01T23:59:59.000Z'),
    });
  });
});

describe('median time and completion percentage (spec 002 §4)', () => {
  it('takes the middle value of an odd count and the mean of the two middle ones of an even count', () => {
    expect(median([30, 10, 20])).toBe(20);
    expect(median([40, 10, 30, 20])).toBe(25);
    expect(median([7, 8])).toBe(7.5);
    expect(median([])).toBeNull();
  });
  it('rounds the share of employees with a result to a whole per cent', () => {
    expect(completionPercentage(1, 3)).toBe(33);
    expect(completionPercentage(2, 3)).toBe(67);
    expect(completionPercentage(1, 8)).toBe(13);
    expect(completionPercentage(0, 0)).toBe(0);
    expect(completionPercentage(5, 4)).toBe(100);
  });
});

describe('quizzes (spec 002 §5)', () => {
  const question = {
    id: 'q',
    text: 'Which are allergens?',
    answers: [
      { id: 'gluten', text: 'Gluten', correct: true },
      { id: 'milk', text: 'Milk', correct: true },
      { id: 'salt', text: 'Salt', correct: false },
    ],
  };
  it('needs at least one answer and one correct answer per question', () => {
    expect(invalidQuizQuestion([question])).toBeNull();
    const noCorrect = { ...question, id: 'n', answers: [{ id: 'a', text: 'A', correct: false }] };
    expect(invalidQuizQuestion([question, noCorrect])).toBe(noCorrect);
    expect(invalidQuizQuestion([{ ...question, answers: [] }])?.id).toBe('q');
  });
  it('is right only with every correct answer and no wrong one', () => {
    expect(isQuizAnswerCorrect(question, ['gluten', 'milk'])).toBe(true);
    expect(isQuizAnswerCorrect(question, ['gluten'])).toBe(false);
    expect(isQuizAnswerCorrect(question, ['gluten', 'milk', 'salt'])).toBe(false);
    expect(isQuizPassed([question], { q: ['milk', 'gluten'] })).toBe(true);
    expect(isQuizPassed([question], {})).toBe(false);
    expect(isQuizPassed([], {})).toBe(true);
  });
});
