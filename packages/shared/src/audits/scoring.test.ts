import { describe, expect, it } from 'vitest';
import {
  answerScore,
  formatPercent,
  isQuestionVisible,
  questionScore,
  resultScore,
  type ScoredAnswer,
  type ScoredQuestion,
} from './scoring';

const choices = [
  { id: 'a', text: 'Clean', score: 3 },
  { id: 'b', text: 'Labelled', score: 2 },
  { id: 'c', text: 'Old', score: 5, archived_at: '2026-11-01T00:00:00Z' },
];
const multiple: ScoredQuestion = {
  id: 'm',
  type: 'multiple_choice',
  score: 5,
  options: { multiple_selection: true, choices },
};
const single: ScoredQuestion = { ...multiple, id: 's', score: 3, options: { choices } };
const yesNo: ScoredQuestion = {
  id: 'y',
  type: 'yes_or_no',
  score: 1,
  options: {
    choices: [
      { id: 'yes', text: 'true', score: 1 },
      { id: 'no', text: 'false', score: 0 },
    ],
  },
};

describe('questionScore (spec 002 §4, the scoring toggle)', () => {
  it('multiple selection: the sum of its live choices’ scores', () => {
    expect(questionScore(multiple, true)).toBe(5);
  });
  it('single selection: the highest live choice score', () => {
    expect(questionScore(single, true)).toBe(3);
  });
  it('other questions: 1 when on, null when off', () => {
    for (const type of ['text_input', 'file_upload', 'rating', 'number', 'date'] as const)
      expect(questionScore({ id: type, type, score: null }, true)).toBe(1);
    expect(questionScore(multiple, false)).toBeNull();
    expect(questionScore({ id: 't', type: 'text_input', score: 1 }, false)).toBeNull();
  });
});

describe('answerScore', () => {
  it('sums the chosen choices with multiple selection, ignoring archived ones', () => {
    expect(answerScore(multiple, { question_id: 'm', choices: ['a', 'b', 'c'] })).toBe(5);
    expect(answerScore(multiple, { question_id: 'm', choices: ['b'] })).toBe(2);
  });
  it('a yes/no answer scores its choice, given as answer_yes or as a choice', () => {
    expect(answerScore(yesNo, { question_id: 'y', answer_yes: true })).toBe(1);
    expect(answerScore(yesNo, { question_id: 'y', answer_yes: false })).toBe(0);
    expect(answerScore(yesNo, { question_id: 'y', choices: ['yes'] })).toBe(1);
  });
  it('other answered questions earn their score; unanswered 0; unscored null', () => {
    const text: ScoredQuestion = { id: 't', type: 'text_input', score: 1 };
    expect(answerScore(text, { question_id: 't', text: 'ok' })).toBe(1);
    expect(answerScore(text, { question_id: 't', text: '   ' })).toBe(0);
    expect(answerScore(text, undefined)).toBe(0);
    expect(answerScore({ ...text, score: null }, { question_id: 't', text: 'ok' })).toBeNull();
    const rating: ScoredQuestion = { id: 'r', type: 'rating', score: 1 };
    expect(answerScore(rating, { question_id: 'r', rating: 0 })).toBe(1);
  });
});

describe('conditions: a question shows when its yes/no conditions hold', () => {
  const follow: ScoredQuestion = {
    id: 'f',
    type: 'text_input',
    score: 1,
    conditions: [{ question_id: 'y', value: false }],
  };
  const questions = new Map([yesNo, follow].map((question) => [question.id, question]));
  const with_ = (answers: ScoredAnswer[]) => new Map(answers.map((a) => [a.question_id, a]));
  it('shows after the matching answer only', () => {
    expect(isQuestionVisible(follow, questions, with_([]))).toBe(false);
    expect(
      isQuestionVisible(follow, questions, with_([{ question_id: 'y', answer_yes: true }])),
    ).toBe(false);
    expect(
      isQuestionVisible(follow, questions, with_([{ question_id: 'y', answer_yes: false }])),
    ).toBe(true);
    expect(
      isQuestionVisible(follow, questions, with_([{ question_id: 'y', choices: ['no'] }])),
    ).toBe(true);
  });
  it('a hidden or archived question never shows; a cycle does not loop', () => {
    expect(isQuestionVisible({ ...follow, archived_at: '2026-11-01' }, questions, with_([]))).toBe(
      false,
    );
    const loop: ScoredQuestion = {
      ...yesNo,
      id: 'l',
      conditions: [{ question_id: 'l', value: true }],
    };
    expect(
      isQuestionVisible(
        loop,
        new Map([['l', loop]]),
        with_([{ question_id: 'l', answer_yes: true }]),
      ),
    ).toBe(false);
  });
});

describe('resultScore and formatPercent (spec 002 §9)', () => {
  it('counts only visible scored questions', () => {
    const follow: ScoredQuestion = {
      id: 'f',
      type: 'text_input',
      score: 1,
      conditions: [{ question_id: 'y', value: false }],
    };
    const unscored: ScoredQuestion = { id: 'u', type: 'number', score: null };
    const result = resultScore(
      [multiple, yesNo, follow, unscored],
      [
        { question_id: 'm', choices: ['a'] },
        { question_id: 'y', answer_yes: true },
        { question_id: 'u', number: 4 },
      ],
    );
    expect(result).toEqual({ score: 4, maximum: 6, percent: (4 / 6) * 100 });
    expect(resultScore([unscored], []).percent).toBeNull();
  });
  it('shows 2 decimals only when not whole', () => {
    expect(formatPercent(80)).toBe('80');
    expect(formatPercent((4 / 6) * 100)).toBe('66.67');
    expect(formatPercent(87.5)).toBe('87.50');
    expect(formatPercent(99.999)).toBe('100');
  });
});
