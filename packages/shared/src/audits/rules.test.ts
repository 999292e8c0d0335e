import { describe, expect, it } from 'vitest';
import {
  answerIssue,
  auditCopySuffix,
  auditResultPath,
  auditTruncation,
  changeQuestionType,
  conditionCandidates,
  copyName,
  countLive,
  dropConditionsOn,
  expandedSectionsOnOpen,
  keepArchived,
  liveSections,
  missingRequired,
  newQuestion,
  parseAuditResultPath,
  removalArchives,
  removeItem,
  scoreResult,
  setScoring,
  truncate,
  validateAudit,
  withDerivedScore,
} from './rules';
import type {
  AuditAnswerInput,
  AuditChoice,
  AuditQuestion,
  AuditQuestionOf,
  AuditSection,
} from './schemas';
import { auditDefaults, auditQuestionTypes, isAnswered } from './scoring';

/* ------------------------------------------------------------------ fixtures */

const archivedBefore = '2026-11-01T08:00:00.000Z';
const now = '2026-11-24T10:00:00.000Z';
const today = '2026-11-24';

function counter(prefix = 'id') {
  let n = 0;
  return () => {
    n += 1;
    return `${prefix}${n}`;
  };
}

const base = (id: string) => ({
  id,
  text: `Question ${id}`,
  score: 1 as number | null,
  required: false,
  conditions: [] as { question_id: string; value: boolean }[],
  archived_at: null as string | null,
});

function choice(id: string, score: number, archived_at: string | null = null): AuditChoice {
  return { id, text: `Choice ${id}`, score, archived_at };
}

function yesNo(
  id: string,
  patch: Partial<AuditQuestionOf<'yes_or_no'>> = {},
): AuditQuestionOf<'yes_or_no'> {
  return {
    ...base(id),
    type: 'yes_or_no',
    options: {
      multiple_selection: false,
      choices: [
        { id: `${id}-yes`, text: 'true', score: 1, archived_at: null },
        { id: `${id}-no`, text: 'false', score: 0, archived_at: null },
      ],
    },
    ...patch,
  };
}

function choices(
  id: string,
  items: AuditChoice[],
  multiple_selection: boolean,
  patch: Partial<AuditQuestionOf<'multiple_choice'>> = {},
): AuditQuestionOf<'multiple_choice'> {
  return {
    ...base(id),
    type: 'multiple_choice',
    options: { multiple_selection, choices: items },
    ...patch,
  };
}

function textQuestion(
  id: string,
  patch: Partial<AuditQuestionOf<'text_input'>> = {},
): AuditQuestionOf<'text_input'> {
  return { ...base(id), type: 'text_input', options: { max_characters: null }, ...patch };
}

function rating(
  id: string,
  options: Partial<AuditQuestionOf<'rating'>['options']> = {},
  patch: Partial<AuditQuestionOf<'rating'>> = {},
): AuditQuestionOf<'rating'> {
  return {
    ...base(id),
    type: 'rating',
    options: { min_rating: 0, max_rating: 10, precision: 1, ...options },
    ...patch,
  };
}

function numberQuestion(
  id: string,
  options: Partial<AuditQuestionOf<'number'>['options']> = {},
  patch: Partial<AuditQuestionOf<'number'>> = {},
): AuditQuestionOf<'number'> {
  return {
    ...base(id),
    type: 'number',
    options: { min_number: 0, max_number: 10, ...options },
    ...patch,
  };
}

function dateQuestion(
  id: string,
  date_limit: AuditQuestionOf<'date'>['options']['date_limit'],
): AuditQuestionOf<'date'> {
  return { ...base(id), type: 'date', options: { date_limit } };
}

function fileQuestion(
  id: string,
  file_extensions: AuditQuestionOf<'file_upload'>['options']['file_extensions'],
): AuditQuestionOf<'file_upload'> {
  return { ...base(id), type: 'file_upload', options: { file_extensions } };
}

function section(
  id: string,
  questions: AuditQuestion[],
  patch: Partial<AuditSection> = {},
): AuditSection {
  return { id, title: `Section ${id}`, questions, archived_at: null, ...patch };
}

const allQuestions = (sections: AuditSection[]) => sections.flatMap((s) => s.questions);
const findQuestion = (sections: AuditSection[], id: string) =>
  allQuestions(sections).find((question) => question.id === id);
const choicesOf = (question: AuditQuestion | undefined): AuditChoice[] =>
  question && 'choices' in question.options ? question.options.choices : [];

/* ------------------------------------------------------------------ builder */

describe('newQuestion (spec 002 §3, §9 defaults)', () => {
  it('scores 1 and holds its type’s default options', () => {
    const rate = newQuestion('rating', counter(), 'Cleanliness');
    expect(rate).toMatchObject({
      text: 'Cleanliness',
      type: 'rating',
      score: 1,
      conditions: [],
      archived_at: null,
      options: { min_rating: 0, max_rating: 10, precision: 1 },
    });
    expect(newQuestion('number', counter()).options).toEqual({ min_number: 0, max_number: 10 });
    expect(newQuestion('text_input', counter()).options).toEqual({ max_characters: null });
    expect(newQuestion('date', counter()).options).toEqual({ date_limit: 'no_limit' });
    for (const type of auditQuestionTypes) expect(newQuestion(type, counter()).score).toBe(1);
    expect(auditDefaults.textLimit).toBe(200);
  });

  it('a yes/no question has exactly the two choices true and false, single selection', () => {
    const question = newQuestion('yes_or_no', counter());
    if (question.type !== 'yes_or_no') throw new Error('not a yes/no question');
    expect(question.options.multiple_selection).toBe(false);
    expect(question.options.choices.map((item) => item.text)).toEqual(['true', 'false']);
    expect(question.options.choices.every((item) => item.archived_at === null)).toBe(true);
  });

  it('gives every id a fresh one and a new question of every type other than a choice list saves', () => {
    const question = newQuestion('yes_or_no', counter());
    const ids = [question.id, ...choicesOf(question).map((item) => item.id)];
    expect(new Set(ids).size).toBe(3);
    const next = counter('q');
    const questions = auditQuestionTypes
      .filter((type) => type !== 'multiple_choice')
      .map((type) => newQuestion(type, next, `A ${type} question`));
    expect(validateAudit({ name: 'Hygiene', sections: [section('s', questions)] })).toBeNull();
  });
});

describe('changeQuestionType (spec 002 §4: a type change resets the options)', () => {
  it('resets the options to the new type’s defaults and keeps the rest', () => {
    const custom = rating(
      'r',
      { min_rating: 2, max_rating: 4, precision: 0.5 },
      { required: true },
    );
    const number = changeQuestionType(custom, 'number', counter());
    expect(number).toMatchObject({ id: 'r', text: 'Question r', type: 'number', required: true });
    expect(number.options).toEqual({ min_number: 0, max_number: 10 });
    const back = changeQuestionType(number, 'rating', counter());
    expect(back.options).toEqual({ min_rating: 0, max_rating: 10, precision: 1 });
  });

  it('a list of choices becomes the two yes/no choices', () => {
    const list = choices('m', [choice('a', 3), choice('b', 2), choice('c', 4)], true);
    const question = changeQuestionType(list, 'yes_or_no', counter('new'));
    expect(choicesOf(question).map((item) => item.text)).toEqual(['true', 'false']);
    expect(choicesOf(question).some((item) => ['a', 'b', 'c'].includes(item.id))).toBe(false);
    if (question.type !== 'yes_or_no') throw new Error('not a yes/no question');
    expect(question.options.multiple_selection).toBe(false);
  });

  it('keeps scoring on or off: a choice question’s score derives from its choices', () => {
    const scored = textQuestion('t', { score: 1 });
    const yes = changeQuestionType(scored, 'yes_or_no', counter());
    const highest = Math.max(...choicesOf(yes).map((item) => item.score));
    expect(yes.score).toBe(highest);
    expect(changeQuestionType(yes, 'date', counter()).score).toBe(1);
    const list = changeQuestionType(scored, 'multiple_choice', counter());
    expect(list.score).toBe(Math.max(...choicesOf(list).map((item) => item.score)));

    const unscored = textQuestion('u', { score: null });
    expect(changeQuestionType(unscored, 'yes_or_no', counter()).score).toBeNull();
    expect(changeQuestionType(unscored, 'multiple_choice', counter()).score).toBeNull();
    expect(changeQuestionType(unscored, 'rating', counter()).score).toBeNull();
    expect(changeQuestionType(yesNo('y', { score: null }), 'number', counter()).score).toBeNull();
  });
});

describe('setScoring and withDerivedScore (spec 002 §4, the scoring toggle)', () => {
  const items = [choice('a', 3), choice('b', 2), choice('c', 5, archivedBefore)];

  it('multiple selection: the sum of its live choices; single: the highest', () => {
    expect(setScoring(choices('m', items, true, { score: null }), true).score).toBe(5);
    expect(setScoring(choices('s', items, false, { score: null }), true).score).toBe(3);
    expect(setScoring(yesNo('y', { score: null }), true).score).toBe(1);
  });

  it('other questions: 1 when on, null when off', () => {
    expect(setScoring(textQuestion('t', { score: null }), true).score).toBe(1);
    expect(setScoring(numberQuestion('n'), false).score).toBeNull();
    expect(setScoring(choices('m', items, true), false).score).toBeNull();
  });

  it('a choice question’s score follows its edited choices; unscored stays null', () => {
    const edited = choices('m', [choice('a', 3), choice('b', 7), items[2]!], true, { score: 5 });
    expect(withDerivedScore(edited).score).toBe(10);
    expect(
      withDerivedScore({ ...edited, options: { ...edited.options, multiple_selection: false } })
        .score,
    ).toBe(7);
    expect(withDerivedScore({ ...edited, score: null }).score).toBeNull();
    expect(withDerivedScore(numberQuestion('n', {}, { score: 4 })).score).toBe(4);
  });
});

describe('removals (spec 002 §4: archive once published or dated, else remove)', () => {
  it('removals archive once published or with a publishing date', () => {
    expect(removalArchives({ published: false, publishing_date: null })).toBe(false);
    expect(removalArchives({ published: true, publishing_date: null })).toBe(true);
    expect(removalArchives({ published: false, publishing_date: archivedBefore })).toBe(true);
  });

  const structure = () => [
    section('s1', [
      yesNo('y'),
      choices('m', [choice('a', 3), choice('b', 2)], true, { score: 5 }),
      textQuestion('t', { conditions: [{ question_id: 'y', value: true }] }),
    ]),
    section('s2', [
      numberQuestion(
        'n',
        {},
        {
          conditions: [
            { question_id: 'y', value: false },
            { question_id: 'z', value: true },
          ],
        },
      ),
      yesNo('z'),
    ]),
  ];

  it('before publishing, a section, a question or a choice is deleted', () => {
    const sections = structure();
    const snapshot = structuredClone(sections);
    expect(
      removeItem(sections, { kind: 'section', sectionId: 's2' }, null).map((s) => s.id),
    ).toEqual(['s1']);
    const noText = removeItem(sections, { kind: 'question', questionId: 't' }, null);
    expect(allQuestions(noText).map((q) => q.id)).toEqual(['y', 'm', 'n', 'z']);
    const noChoice = removeItem(sections, { kind: 'choice', questionId: 'm', choiceId: 'a' }, null);
    expect(choicesOf(findQuestion(noChoice, 'm')).map((c) => c.id)).toEqual(['b']);
    expect(findQuestion(noChoice, 'm')?.score).toBe(2);
    expect(sections).toEqual(snapshot);
  });

  it('after publishing, a removal only sets archived_at', () => {
    const sections = structure();
    const section2 = removeItem(sections, { kind: 'section', sectionId: 's2' }, now);
    expect(section2.map((s) => [s.id, s.archived_at])).toEqual([
      ['s1', null],
      ['s2', now],
    ]);
    const noText = removeItem(sections, { kind: 'question', questionId: 't' }, now);
    expect(allQuestions(noText).map((q) => [q.id, q.archived_at])).toEqual([
      ['y', null],
      ['m', null],
      ['t', now],
      ['n', null],
      ['z', null],
    ]);
    const noChoice = removeItem(sections, { kind: 'choice', questionId: 'm', choiceId: 'a' }, now);
    expect(choicesOf(findQuestion(noChoice, 'm')).map((c) => [c.id, c.archived_at])).toEqual([
      ['a', now],
      ['b', null],
    ]);
    // The archived choice no longer counts in the question's score.
    expect(findQuestion(noChoice, 'm')?.score).toBe(2);
  });

  it('an item archived earlier keeps its first date', () => {
    const sections = [section('s', [textQuestion('t', { archived_at: archivedBefore })])];
    const again = removeItem(sections, { kind: 'question', questionId: 't' }, now);
    expect(findQuestion(again, 't')?.archived_at).toBe(archivedBefore);
  });

  it('a removed question’s conditions go with it, in every section', () => {
    for (const archivedAt of [null, now]) {
      const after = removeItem(structure(), { kind: 'question', questionId: 'y' }, archivedAt);
      expect(findQuestion(after, 't')?.conditions).toEqual([]);
      expect(findQuestion(after, 'n')?.conditions).toEqual([{ question_id: 'z', value: true }]);
      expect(validateAudit({ name: 'Hygiene', sections: after })).toBeNull();
    }
  });
});

describe('keepArchived (the server’s guard of the archiving rule)', () => {
  const previous = [
    section('s1', [
      choices('m', [choice('a', 3), choice('b', 2), choice('old', 1, archivedBefore)], true, {
        score: 5,
      }),
      textQuestion('gone'),
      textQuestion('kept-archived', { archived_at: archivedBefore }),
    ]),
    section('s2', [numberQuestion('moved'), textQuestion('left-with-s2')]),
    section('s3', [textQuestion('in-s3', { archived_at: archivedBefore })], {
      archived_at: archivedBefore,
    }),
  ];

  it('items missing from a save come back archived; a moved question is not duplicated', () => {
    const next = [
      section('s1', [choices('m', [choice('a', 3)], true, { score: 3 }), numberQuestion('moved')]),
    ];
    const merged = keepArchived(previous, next, now);
    const ids = allQuestions(merged).map((question) => question.id);
    expect(ids.filter((id) => id === 'moved')).toHaveLength(1);
    expect(new Set(ids)).toEqual(
      new Set(['m', 'moved', 'gone', 'kept-archived', 'left-with-s2', 'in-s3']),
    );
    const s1 = merged.find((s) => s.id === 's1')!;
    expect(s1.archived_at).toBeNull();
    expect(s1.questions.find((q) => q.id === 'moved')?.archived_at).toBeNull();
    expect(s1.questions.find((q) => q.id === 'gone')?.archived_at).toBe(now);
    expect(s1.questions.find((q) => q.id === 'kept-archived')?.archived_at).toBe(archivedBefore);
    expect(choicesOf(findQuestion(merged, 'm')).map((c) => [c.id, c.archived_at])).toEqual(
      expect.arrayContaining([
        ['a', null],
        ['b', now],
        ['old', archivedBefore],
      ]),
    );
    expect(choicesOf(findQuestion(merged, 'm'))).toHaveLength(3);
    const s2 = merged.find((s) => s.id === 's2')!;
    expect(s2.archived_at).toBe(now);
    expect(s2.questions.map((q) => [q.id, q.archived_at])).toEqual([['left-with-s2', now]]);
    const s3 = merged.find((s) => s.id === 's3')!;
    expect(s3.archived_at).toBe(archivedBefore);
    expect(s3.questions.map((q) => [q.id, q.archived_at])).toEqual([['in-s3', archivedBefore]]);
    expect(countLive(merged)).toEqual({ sections: 1, questions: 2 });
  });

  it('an archived item stays archived with its original date, whatever the save says', () => {
    const next = structuredClone(previous);
    next[0]!.questions[2] = { ...next[0]!.questions[2]!, archived_at: null };
    next[2] = { ...next[2]!, archived_at: now };
    const m = next[0]!.questions[0] as AuditQuestionOf<'multiple_choice'>;
    m.options.choices[2] = { ...m.options.choices[2]!, archived_at: null };
    const merged = keepArchived(previous, next, now);
    expect(findQuestion(merged, 'kept-archived')?.archived_at).toBe(archivedBefore);
    expect(merged.find((s) => s.id === 's3')?.archived_at).toBe(archivedBefore);
    expect(choicesOf(findQuestion(merged, 'm')).find((c) => c.id === 'old')?.archived_at).toBe(
      archivedBefore,
    );
  });

  it('a save that leaves everything in place changes nothing', () => {
    expect(keepArchived(previous, structuredClone(previous), now)).toEqual(previous);
  });
});

describe('liveSections, countLive and conditionCandidates', () => {
  const sections = [
    section('s1', [
      yesNo('y1'),
      yesNo('y2', { archived_at: archivedBefore }),
      textQuestion('t', { conditions: [{ question_id: 'y4', value: true }] }),
      choices('m', [choice('a', 1)], false),
    ]),
    section('s2', [yesNo('y3')], { archived_at: archivedBefore }),
    section('s4', [yesNo('y4'), numberQuestion('n')]),
  ];

  it('leaves out archived sections and questions', () => {
    expect(liveSections(sections).map((s) => [s.id, s.questions.map((q) => q.id)])).toEqual([
      ['s1', ['y1', 't', 'm']],
      ['s4', ['y4', 'n']],
    ]);
    expect(countLive(sections)).toEqual({ sections: 2, questions: 5 });
    expect(countLive([])).toEqual({ sections: 0, questions: 0 });
  });

  it('offers only live yes/no questions, not the question itself, not one already used', () => {
    const question = findQuestion(sections, 't')!;
    expect(conditionCandidates(sections, question).map((q) => q.id)).toEqual(['y1']);
    expect(conditionCandidates(sections, findQuestion(sections, 'y1')!).map((q) => q.id)).toEqual([
      'y4',
    ]);
    expect(conditionCandidates(sections, findQuestion(sections, 'n')!).map((q) => q.id)).toEqual([
      'y1',
      'y4',
    ]);
  });
});

/* ------------------------------------------------------------------ validations */

describe('validateAudit (spec 002 §5)', () => {
  const validate = (questions: AuditQuestion[], name = 'Hygiene') =>
    validateAudit({ name, sections: [section('s', questions)] });
  const codeOf = (questions: AuditQuestion[]) => validate(questions)?.code ?? null;

  it('accepts a complete audit', () => {
    expect(
      validate([
        yesNo('y'),
        choices('m', [choice('a', 0), choice('b', 2)], true, { score: 2 }),
        textQuestion('t', { conditions: [{ question_id: 'y', value: false }] }),
        rating('r'),
        numberQuestion('n'),
        dateQuestion('d', 'only_past'),
        fileQuestion('f', ['pdf']),
      ]),
    ).toBeNull();
  });

  it('the name is required', () => {
    expect(validate([], '')).toEqual({ code: 'audit/name-required' });
    expect(validate([], '   ')).toEqual({ code: 'audit/name-required' });
  });

  it('a section needs a name, a question a text, with where the issue is', () => {
    expect(
      validateAudit({ name: 'Hygiene', sections: [section('s', [], { title: ' ' })] }),
    ).toEqual({ code: 'audit/section-title-required', sectionId: 's' });
    expect(
      validateAudit({
        name: 'Hygiene',
        sections: [
          section('s', [textQuestion('t')]),
          section('s2', [textQuestion('x', { text: '' })]),
        ],
      }),
    ).toEqual({ code: 'audit/question-text-required', sectionId: 's2', questionId: 'x' });
  });

  it('a text limit is at least 1 (or none)', () => {
    expect(codeOf([textQuestion('t', { options: { max_characters: 0 } })])).toBe(
      'audit/text-limit-invalid',
    );
    expect(codeOf([textQuestion('t', { options: { max_characters: -5 } })])).toBe(
      'audit/text-limit-invalid',
    );
    expect(codeOf([textQuestion('t', { options: { max_characters: 1 } })])).toBeNull();
    expect(codeOf([textQuestion('t', { options: { max_characters: 200 } })])).toBeNull();
    expect(codeOf([textQuestion('t', { options: { max_characters: null } })])).toBeNull();
  });

  it('a choice scores at least 0 (archived choices left out)', () => {
    expect(codeOf([choices('m', [choice('a', -1), choice('b', 2)], false)])).toBe(
      'audit/choice-score-invalid',
    );
    const yes = yesNo('y');
    const negative = { ...yes.options.choices[1]!, score: -0.5 };
    expect(
      codeOf([
        yesNo('y', { options: { ...yes.options, choices: [yes.options.choices[0]!, negative] } }),
      ]),
    ).toBe('audit/choice-score-invalid');
    expect(codeOf([choices('m', [choice('a', 0)], false, { score: 0 })])).toBeNull();
    expect(
      codeOf([choices('m', [choice('a', 2), choice('old', -3, archivedBefore)], false)]),
    ).toBeNull();
  });

  it('a question other than a choice list scores at least 1', () => {
    for (const score of [0, 0.5, -1])
      expect(codeOf([textQuestion('t', { score })])).toBe('audit/question-score-invalid');
    expect(codeOf([rating('r', {}, { score: 0 })])).toBe('audit/question-score-invalid');
    expect(codeOf([numberQuestion('n', {}, { score: 1 })])).toBeNull();
    expect(codeOf([numberQuestion('n', {}, { score: 12 })])).toBeNull();
    expect(codeOf([numberQuestion('n', {}, { score: null })])).toBeNull();
  });

  it('a number’s lower bound is at least -999999999 and not above the upper one', () => {
    expect(codeOf([numberQuestion('n', { min_number: -999_999_999 })])).toBeNull();
    expect(codeOf([numberQuestion('n', { min_number: -1_000_000_000 })])).toBe(
      'audit/number-bounds-invalid',
    );
    expect(codeOf([numberQuestion('n', { min_number: 5, max_number: 4 })])).toBe(
      'audit/number-bounds-invalid',
    );
    expect(codeOf([numberQuestion('n', { min_number: 5, max_number: 5 })])).toBeNull();
    expect(codeOf([numberQuestion('n', { min_number: -20.5, max_number: -3 })])).toBeNull();
  });

  it('a rating’s precision is 1, 0.5, 0.1 or 0.01 and its minimum is below its maximum', () => {
    for (const precision of [1, 0.5, 0.1, 0.01])
      expect(codeOf([rating('r', { precision })])).toBeNull();
    for (const precision of [0.2, 0.25, 2, 0, 0.001])
      expect(codeOf([rating('r', { precision })])).toBe('audit/rating-bounds-invalid');
    expect(codeOf([rating('r', { min_rating: 5, max_rating: 5 })])).toBe(
      'audit/rating-bounds-invalid',
    );
    expect(codeOf([rating('r', { min_rating: 6, max_rating: 1 })])).toBe(
      'audit/rating-bounds-invalid',
    );
    expect(codeOf([rating('r', { min_rating: 1, max_rating: 5 })])).toBeNull();
  });

  it('a file question allows at least one extension', () => {
    expect(codeOf([fileQuestion('f', [])])).toBe('audit/extensions-required');
    expect(codeOf([fileQuestion('f', ['jpg'])])).toBeNull();
  });

  it('a yes/no question keeps its two choices true and false, single selection', () => {
    const yes = yesNo('y');
    expect(codeOf([yesNo('y', { options: { ...yes.options, multiple_selection: true } })])).toBe(
      'audit/yes-no-choices',
    );
    expect(
      codeOf([yesNo('y', { options: { ...yes.options, choices: [yes.options.choices[0]!] } })]),
    ).toBe('audit/yes-no-choices');
    expect(
      codeOf([
        yesNo('y', {
          options: { ...yes.options, choices: [...yes.options.choices, choice('maybe', 0)] },
        }),
      ]),
    ).toBe('audit/yes-no-choices');
    expect(
      codeOf([
        yesNo('y', {
          options: {
            ...yes.options,
            choices: [...yes.options.choices, choice('maybe', 0, archivedBefore)],
          },
        }),
      ]),
    ).toBeNull();
  });

  it('a choice list needs a live choice, each with a text', () => {
    expect(codeOf([choices('m', [], false)])).toBe('audit/choices-required');
    expect(codeOf([choices('m', [choice('a', 1, archivedBefore)], false)])).toBe(
      'audit/choices-required',
    );
    expect(codeOf([choices('m', [{ ...choice('a', 1), text: '  ' }], false)])).toBe(
      'audit/choices-required',
    );
  });

  it('a condition names another live yes/no question, once', () => {
    const on = (question_id: string) => [{ question_id, value: true }];
    expect(codeOf([numberQuestion('n'), textQuestion('t', { conditions: on('n') })])).toBe(
      'audit/condition-invalid',
    );
    expect(codeOf([textQuestion('t', { conditions: on('nowhere') })])).toBe(
      'audit/condition-invalid',
    );
    expect(codeOf([yesNo('y', { conditions: on('y') })])).toBe('audit/condition-invalid');
    expect(
      codeOf([
        yesNo('y'),
        textQuestion('t', {
          conditions: [
            { question_id: 'y', value: true },
            { question_id: 'y', value: false },
          ],
        }),
      ]),
    ).toBe('audit/condition-invalid');
    expect(
      codeOf([
        yesNo('y', { archived_at: archivedBefore }),
        textQuestion('t', { conditions: on('y') }),
      ]),
    ).toBe('audit/condition-invalid');
    // A yes/no question of another section is fine.
    expect(
      validateAudit({
        name: 'Hygiene',
        sections: [
          section('s1', [textQuestion('t', { conditions: on('y') })]),
          section('s2', [yesNo('y')]),
        ],
      }),
    ).toBeNull();
  });

  it('ids are unique inside the audit', () => {
    expect(
      validateAudit({
        name: 'Hygiene',
        sections: [section('s1', [textQuestion('q')]), section('s2', [numberQuestion('q')])],
      }),
    ).toEqual({ code: 'audit/duplicate-id' });
    expect(codeOf([textQuestion('s')])).toBe('audit/duplicate-id');
    expect(codeOf([choices('m', [choice('m', 1)], false)])).toBe('audit/duplicate-id');
    expect(codeOf([yesNo('y'), choices('m', [choice('y-yes', 1)], false)])).toBe(
      'audit/duplicate-id',
    );
  });

  it('archived items keep what they were and are not validated', () => {
    const broken = [
      textQuestion('t', { text: '', score: 0, options: { max_characters: 0 } }),
      fileQuestion('f', []),
      rating('r', { precision: 0.3, min_rating: 5, max_rating: 1 }),
    ];
    expect(validate(broken.map((q) => ({ ...q, archived_at: archivedBefore })))).toBeNull();
    expect(
      validateAudit({
        name: 'Hygiene',
        sections: [
          section('s', [textQuestion('ok')]),
          section('old', broken, { title: '', archived_at: archivedBefore }),
        ],
      }),
    ).toBeNull();
  });
});

/* ------------------------------------------------------------------ answers */

describe('answerIssue (an answer fits its question)', () => {
  const answer = (patch: Omit<AuditAnswerInput, 'question_id'>): AuditAnswerInput => ({
    question_id: 'q',
    ...patch,
  });

  it('only the field of the question’s type', () => {
    expect(answerIssue(textQuestion('q'), answer({ number: 3 }), today)).toBe('audit/answer-type');
    expect(answerIssue(numberQuestion('q'), answer({ text: '3' }), today)).toBe(
      'audit/answer-type',
    );
    expect(answerIssue(rating('q'), answer({ number: 3 }), today)).toBe('audit/answer-type');
    expect(answerIssue(dateQuestion('q', 'no_limit'), answer({ text: today }), today)).toBe(
      'audit/answer-type',
    );
    expect(answerIssue(fileQuestion('q', ['pdf']), answer({ text: 'a.pdf' }), today)).toBe(
      'audit/answer-type',
    );
    expect(
      answerIssue(choices('q', [choice('a', 1)], false), answer({ answer_yes: true }), today),
    ).toBe('audit/answer-type');
    expect(answerIssue(yesNo('q'), answer({ rating: 1 }), today)).toBe('audit/answer-type');
    // null fields are no answer; a comment goes with any type; clearing always fits.
    expect(
      answerIssue(textQuestion('q'), answer({ text: 'ok', number: null, comment: 'seen' }), today),
    ).toBeNull();
    for (const question of [
      textQuestion('q'),
      yesNo('q'),
      choices('q', [choice('a', 1)], false),
      rating('q'),
      numberQuestion('q'),
      dateQuestion('q', 'only_future'),
      fileQuestion('q', ['pdf']),
    ])
      expect(answerIssue(question, answer({}), today)).toBeNull();
  });

  it('a text within its limit, counted in characters', () => {
    const limited = textQuestion('q', { options: { max_characters: 5 } });
    expect(answerIssue(limited, answer({ text: 'abcde' }), today)).toBeNull();
    expect(answerIssue(limited, answer({ text: 'abcdef' }), today)).toBe('audit/answer-too-long');
    expect(answerIssue(limited, answer({ text: '😀😀😀😀😀' }), today)).toBeNull();
    expect(answerIssue(textQuestion('q'), answer({ text: 'x'.repeat(5000) }), today)).toBeNull();
  });

  it('known live choices, one unless multiple selection', () => {
    const items = [choice('a', 1), choice('b', 2), choice('old', 3, archivedBefore)];
    const single = choices('q', items, false);
    const multiple = choices('q', items, true);
    expect(answerIssue(single, answer({ choices: ['a'] }), today)).toBeNull();
    expect(answerIssue(single, answer({ choices: ['a', 'b'] }), today)).toBe('audit/answer-choice');
    expect(answerIssue(multiple, answer({ choices: ['a', 'b'] }), today)).toBeNull();
    expect(answerIssue(multiple, answer({ choices: ['a', 'a'] }), today)).toBe(
      'audit/answer-choice',
    );
    expect(answerIssue(multiple, answer({ choices: ['zzz'] }), today)).toBe('audit/answer-choice');
    expect(answerIssue(multiple, answer({ choices: ['old'] }), today)).toBe('audit/answer-choice');
    expect(answerIssue(multiple, answer({ choices: [] }), today)).toBeNull();
  });

  it('a yes/no answer: one of its choices, consistent with answer_yes', () => {
    const question = yesNo('q');
    expect(answerIssue(question, answer({ answer_yes: false }), today)).toBeNull();
    expect(answerIssue(question, answer({ choices: ['q-yes'] }), today)).toBeNull();
    expect(
      answerIssue(question, answer({ choices: ['q-yes'], answer_yes: true }), today),
    ).toBeNull();
    expect(
      answerIssue(question, answer({ choices: ['q-no'], answer_yes: false }), today),
    ).toBeNull();
    expect(answerIssue(question, answer({ choices: ['q-yes'], answer_yes: false }), today)).toBe(
      'audit/answer-choice',
    );
    expect(answerIssue(question, answer({ choices: ['q-no'], answer_yes: true }), today)).toBe(
      'audit/answer-choice',
    );
    expect(answerIssue(question, answer({ choices: ['q-yes', 'q-no'] }), today)).toBe(
      'audit/answer-choice',
    );
    expect(answerIssue(question, answer({ choices: ['other'] }), today)).toBe(
      'audit/answer-choice',
    );
  });

  it('a rating within its bounds, on its precision’s steps', () => {
    expect(answerIssue(rating('q'), answer({ rating: 0 }), today)).toBeNull();
    expect(answerIssue(rating('q'), answer({ rating: 10 }), today)).toBeNull();
    expect(answerIssue(rating('q'), answer({ rating: 11 }), today)).toBe(
      'audit/answer-out-of-bounds',
    );
    expect(answerIssue(rating('q'), answer({ rating: -1 }), today)).toBe(
      'audit/answer-out-of-bounds',
    );
    expect(answerIssue(rating('q'), answer({ rating: 7.5 }), today)).toBe('audit/answer-precision');
    const half = rating('q', { precision: 0.5 });
    expect(answerIssue(half, answer({ rating: 7.5 }), today)).toBeNull();
    expect(answerIssue(half, answer({ rating: 7.3 }), today)).toBe('audit/answer-precision');
    const tenth = rating('q', { precision: 0.1 });
    for (const value of [7.3, 0.3, 0.7, 9.9, 2.2])
      expect(answerIssue(tenth, answer({ rating: value }), today)).toBeNull();
    expect(answerIssue(tenth, answer({ rating: 7.35 }), today)).toBe('audit/answer-precision');
    const hundredth = rating('q', { precision: 0.01 });
    for (const value of [7.37, 0.07, 1.01, 9.99, 0.29])
      expect(answerIssue(hundredth, answer({ rating: value }), today)).toBeNull();
    expect(answerIssue(hundredth, answer({ rating: 7.375 }), today)).toBe('audit/answer-precision');
    expect(answerIssue(hundredth, answer({ rating: 10.01 }), today)).toBe(
      'audit/answer-out-of-bounds',
    );
  });

  it('a number within its bounds', () => {
    const question = numberQuestion('q', { min_number: -5, max_number: 12.5 });
    for (const value of [-5, 0, 7.25, 12.5])
      expect(answerIssue(question, answer({ number: value }), today)).toBeNull();
    expect(answerIssue(question, answer({ number: -5.01 }), today)).toBe(
      'audit/answer-out-of-bounds',
    );
    expect(answerIssue(question, answer({ number: 13 }), today)).toBe('audit/answer-out-of-bounds');
  });

  it('a date within its limit, against today', () => {
    const future = dateQuestion('q', 'only_future');
    const past = dateQuestion('q', 'only_past');
    const free = dateQuestion('q', 'no_limit');
    expect(answerIssue(future, answer({ date: '2026-11-25' }), today)).toBeNull();
    expect(answerIssue(future, answer({ date: '2026-11-23' }), today)).toBe(
      'audit/answer-date-limit',
    );
    expect(answerIssue(future, answer({ date: '2025-12-31' }), today)).toBe(
      'audit/answer-date-limit',
    );
    expect(answerIssue(past, answer({ date: '2026-11-23' }), today)).toBeNull();
    expect(answerIssue(past, answer({ date: '2026-11-25' }), today)).toBe(
      'audit/answer-date-limit',
    );
    expect(answerIssue(past, answer({ date: '2027-01-01' }), today)).toBe(
      'audit/answer-date-limit',
    );
    // Today fits both limits: the date pickers (web and tablet) offer it as their bound.
    expect(answerIssue(future, answer({ date: today }), today)).toBeNull();
    expect(answerIssue(past, answer({ date: today }), today)).toBeNull();
    expect(answerIssue(free, answer({ date: '1999-01-01' }), today)).toBeNull();
    expect(answerIssue(free, answer({ date: '2099-01-01' }), today)).toBeNull();
  });

  it('files of the allowed extensions only, jpeg counting as jpg', () => {
    const question = fileQuestion('q', ['jpg', 'pdf']);
    const url = (name: string) => `/api/files/audit-results/r/${name}`;
    expect(
      answerIssue(
        question,
        answer({ file_urls: [url('a.jpg'), url('b.PDF'), url('c.jpeg')] }),
        today,
      ),
    ).toBeNull();
    expect(answerIssue(question, answer({ file_urls: [url('a.JPEG')] }), today)).toBeNull();
    expect(answerIssue(question, answer({ file_urls: [url('a.jpg'), url('b.png')] }), today)).toBe(
      'audit/answer-file',
    );
    expect(answerIssue(question, answer({ file_urls: [url('noextension')] }), today)).toBe(
      'audit/answer-file',
    );
    expect(answerIssue(question, answer({ file_urls: [url('a.pdf.exe')] }), today)).toBe(
      'audit/answer-file',
    );
    expect(
      answerIssue(fileQuestion('q', ['png']), answer({ file_urls: [url('a.jpeg')] }), today),
    ).toBe('audit/answer-file');
  });
});

describe('missingRequired (what blocks a submission)', () => {
  const sections = [
    section('s1', [
      yesNo('y', { required: true }),
      textQuestion('t', { required: true, conditions: [{ question_id: 'y', value: false }] }),
      textQuestion('old', { required: true, archived_at: archivedBefore }),
    ]),
    section('s2', [
      numberQuestion('n', {}, { required: true }),
      textQuestion('optional'),
      // Required, conditioned on a question of another section.
      dateQuestion('d', 'no_limit'),
    ]),
    section('gone', [textQuestion('in-gone', { required: true })], { archived_at: archivedBefore }),
  ];
  sections[1]!.questions[2] = {
    ...sections[1]!.questions[2]!,
    required: true,
    conditions: [{ question_id: 'y', value: true }],
  };
  const missing = (answers: AuditAnswerInput[]) =>
    missingRequired(sections, answers, isAnswered).map((question) => question.id);

  it('lists the visible required questions without an answer, in order', () => {
    expect(missing([])).toEqual(['y', 'n']);
    expect(missing([{ question_id: 'y', answer_yes: false }])).toEqual(['t', 'n']);
    expect(
      missing([
        { question_id: 'y', choices: ['y-yes'] },
        { question_id: 'n', number: 0 },
      ]),
    ).toEqual(['d']);
    expect(
      missing([
        { question_id: 'y', answer_yes: false },
        { question_id: 't', text: '   ' },
        { question_id: 'n', number: 3 },
      ]),
    ).toEqual(['t']);
  });

  it('a hidden required question does not block', () => {
    expect(
      missing([
        { question_id: 'y', answer_yes: true },
        { question_id: 'n', number: 3 },
        { question_id: 'd', date: today },
      ]),
    ).toEqual([]);
    expect(
      missing([
        { question_id: 'y', answer_yes: false },
        { question_id: 'n', number: 3 },
        { question_id: 't', text: 'done' },
      ]),
    ).toEqual([]);
  });
});

describe('scoreResult (section scores over visible scored questions)', () => {
  const sections = [
    section('s1', [
      yesNo('y'),
      choices('m', [choice('a', 3), choice('b', 2), choice('old', 9, archivedBefore)], true, {
        score: 5,
      }),
    ]),
    section('s2', [
      textQuestion('t', { conditions: [{ question_id: 'y', value: true }] }),
      numberQuestion('u', {}, { score: null }),
      rating('r', {}, { score: 4, conditions: [{ question_id: 'y', value: false }] }),
    ]),
    section('gone', [textQuestion('g')], { archived_at: archivedBefore }),
  ];

  it('scores each section, a condition reaching across sections', () => {
    const result = scoreResult(sections, [
      { question_id: 'y', answer_yes: true },
      { question_id: 'm', choices: ['a', 'old'] },
      { question_id: 't', text: 'All clean' },
      { question_id: 'u', number: 4 },
      { question_id: 'r', rating: 8 },
      { question_id: 'g', text: 'archived' },
    ]);
    expect(result.section_scores).toEqual([
      { section_id: 's1', score: 4, max_score: 6 },
      { section_id: 's2', score: 1, max_score: 1 },
    ]);
    expect(result.score).toBe(5);
    expect(result.max_score).toBe(7);
    // Hidden (r) and unscored (u) questions earn nothing and have no answer score.
    expect(Object.fromEntries(result.answer_scores)).toEqual({ y: 1, m: 3, t: 1 });
  });

  it('the other answer shows the other question; unanswered scored questions count 0', () => {
    const result = scoreResult(sections, [{ question_id: 'y', answer_yes: false }]);
    expect(result.section_scores).toEqual([
      { section_id: 's1', score: 0, max_score: 6 },
      { section_id: 's2', score: 0, max_score: 4 },
    ]);
    expect(Object.fromEntries(result.answer_scores)).toEqual({ y: 0, m: 0, r: 0 });
    const rated = scoreResult(sections, [
      { question_id: 'y', choices: ['y-no'] },
      { question_id: 'r', rating: 2 },
    ]);
    expect([rated.score, rated.max_score]).toEqual([4, 10]);
  });

  it('nothing answered: only unconditioned questions count', () => {
    expect(scoreResult(sections, [])).toMatchObject({ score: 0, max_score: 6 });
    expect(scoreResult([], [])).toMatchObject({ score: 0, max_score: 0, section_scores: [] });
  });
});

/* ------------------------------------------------------------------ texts and paths */

describe('truncate (spec 002 §9)', () => {
  it('uses the spec’s lengths', () => {
    expect(auditTruncation).toEqual({
      questionInList: 35,
      questionInResults: 180,
      answer: 120,
      sectionTitle: 150,
    });
    expect(expandedSectionsOnOpen).toBe(3);
  });

  it('cuts a longer text with an ellipsis and leaves a fitting one alone', () => {
    for (const max of Object.values(auditTruncation)) {
      const fits = 'a'.repeat(max);
      expect(truncate(fits, max)).toBe(fits);
      const long = `${'b'.repeat(max)}c`;
      expect(truncate(long, max)).toBe(`${'b'.repeat(max)}…`);
    }
    expect(truncate('Are the fridges below 4 °C at opening?', 35)).toBe(
      'Are the fridges below 4 °C at openi…',
    );
    expect(truncate('', 35)).toBe('');
  });

  it('counts astral characters as one and never splits them', () => {
    expect(truncate('🍅'.repeat(35), 35)).toBe('🍅'.repeat(35));
    const cut = truncate('🍅'.repeat(36), 35);
    expect(cut).toBe(`${'🍅'.repeat(35)}…`);
    expect([...cut]).toHaveLength(36);
    // No lone surrogate half left at the cut.
    expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});

describe('copyName (spec 002 §4, §9)', () => {
  it('names the copy with the suffix (Copy)', () => {
    expect(auditCopySuffix).toBe('(Copy)');
    expect(copyName('Hygiene check')).toBe('Hygiene check (Copy)');
    expect(copyName(copyName('Hygiene check'))).toBe('Hygiene check (Copy) (Copy)');
  });
});

describe('auditResultPath and parseAuditResultPath (spec 002 §7)', () => {
  const ids = {
    database_id: '0b3f6c1e-5d2a-4c8e-9f10-2a3b4c5d6e7f',
    audit_id: '1c4e7a2b-6e3b-4d9f-8a21-3b4c5d6e7f80',
    id: '2d5f8b3c-7f4c-4eaf-9b32-4c5d6e7f8091',
  };

  it('round-trips', () => {
    const path = auditResultPath(ids);
    expect(path).toBe(
      `databases/${ids.database_id}/audits/${ids.audit_id}/audit_results/${ids.id}`,
    );
    expect(parseAuditResultPath(path)).toEqual({
      databaseId: ids.database_id,
      auditId: ids.audit_id,
      resultId: ids.id,
    });
  });

  it('refuses what is not a result path', () => {
    const { database_id: d, audit_id: a, id: r } = ids;
    for (const path of [
      '',
      `databases/${d}/audits/${a}`,
      `databases/${d}/audits/${a}/audit_results/${r}/x`,
      `databases/${d}/audits/${a}/results/${r}`,
      `stores/${d}/audits/${a}/audit_results/${r}`,
      `databases/not-a-uuid/audits/${a}/audit_results/${r}`,
      `databases/${d}/audits/${a}/audit_results/${r.slice(0, -1)}`,
      `databases/${d}/audits/../audits/${a}/audit_results/${r}`,
      `https://example.com/databases/${d}/audits/${a}/audit_results/${r}`,
    ])
      expect(parseAuditResultPath(path)).toBeNull();
  });
});

describe('found by the rules review', () => {
  const yesNo = (id: string, conditions: { question_id: string; value: boolean }[] = []) => ({
    ...newQuestion('yes_or_no', idMaker(id), `Question ${id}`),
    id,
    conditions,
  });
  let next = 0;
  function idMaker(prefix: string) {
    return () => `${prefix}-${next++}`;
  }

  it('removing a section drops the conditions naming its questions, so the audit still saves', () => {
    const sections: AuditSection[] = [
      { id: 's1', title: 'One', archived_at: null, questions: [yesNo('y')] },
      {
        id: 's2',
        title: 'Two',
        archived_at: null,
        questions: [yesNo('t', [{ question_id: 'y', value: true }])],
      },
    ];
    for (const archivedAt of [null, '2026-11-24T10:00:00.000Z']) {
      const after = removeItem(sections, { kind: 'section', sectionId: 's1' }, archivedAt);
      const t = after
        .flatMap((section) => section.questions)
        .find((question) => question.id === 't');
      expect(t?.conditions).toEqual([]);
      expect(validateAudit({ name: 'A', sections: after })).toBeNull();
    }
  });

  it("keeps ' (Copy)' on a long name, within the name limit, without splitting a character", () => {
    const copy = copyName(`${'x'.repeat(199)}😀`);
    expect(copy.endsWith(' (Copy)')).toBe(true);
    expect([...copy].length).toBeLessThanOrEqual(200);
    expect(copyName('Audit')).toBe('Audit (Copy)');
  });

  it('never offers a condition that would make two questions depend on each other', () => {
    const a = yesNo('a');
    const b = yesNo('b', [{ question_id: 'a', value: true }]);
    const sections: AuditSection[] = [
      { id: 's', title: 'S', archived_at: null, questions: [a, b] },
    ];
    expect(conditionCandidates(sections, a).map((question) => question.id)).toEqual([]);
    expect(conditionCandidates(sections, b).map((question) => question.id)).toEqual([]);
  });

  it('dropConditionsOn removes the conditions on a question that stopped being yes/no', () => {
    const sections: AuditSection[] = [
      {
        id: 's',
        title: 'S',
        archived_at: null,
        questions: [yesNo('a'), yesNo('b', [{ question_id: 'a', value: false }])],
      },
    ];
    const after = dropConditionsOn(sections, new Set(['a']));
    expect(after[0]!.questions[1]!.conditions).toEqual([]);
  });
});
