/*
 * Audit builder and answer rules (spec 002 §4, §5, §9; issue 16): what a new question holds,
 * what a type change resets, when a removal archives instead of deleting, how a copy is named,
 * every validation of a template, and whether an answer fits its question. Pure: the builder,
 * the perform screens and the server share them.
 */
import type {
  AuditAnswerInput,
  AuditChoice,
  AuditQuestion,
  AuditQuestionOf,
  AuditSection,
} from './schemas';
import { auditLimits, ratingPrecisions } from './schemas';
import {
  type AuditQuestionType,
  answerScore,
  auditDefaults,
  isQuestionVisible,
  questionScore,
} from './scoring';

/** Spec 002 §9: truncations of texts in lists and results. */
export const auditTruncation = {
  questionInList: 35,
  questionInResults: 180,
  answer: 120,
  sectionTitle: 150,
} as const;
/** Spec 002 §2, §9: the first 3 sections are expanded on open. */
export const expandedSectionsOnOpen = 3;
/** Spec 002 §9: the copy's suffix. */
export const auditCopySuffix = '(Copy)';

/** A text cut to `max` characters with an ellipsis. */
export function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max).join('').trimEnd()}…`;
}

/** The copy's name: the audit's name and ' (Copy)'. */
export function copyName(name: string): string {
  const room = auditLimits.nameMax - auditCopySuffix.length - 1;
  const chars = [...name];
  const kept = chars.length > room ? chars.slice(0, room).join('').trimEnd() : name;
  return `${kept} ${auditCopySuffix}`;
}

/** Drops every condition naming one of `questionIds` (a question removed or no longer yes/no). */
export function dropConditionsOn(
  sections: AuditSection[],
  questionIds: ReadonlySet<string>,
): AuditSection[] {
  return sections.map((section) => ({
    ...section,
    questions: section.questions.map((question) =>
      question.conditions.some((condition) => questionIds.has(condition.question_id))
        ? {
            ...question,
            conditions: question.conditions.filter(
              (condition) => !questionIds.has(condition.question_id),
            ),
          }
        : question,
    ),
  }));
}

/** The two fixed choices of a yes/no question: texts 'true' and 'false', single selection. */
export function yesNoChoices(newId: () => string): AuditChoice[] {
  return [
    { id: newId(), text: 'true', score: 1, archived_at: null },
    { id: newId(), text: 'false', score: 0, archived_at: null },
  ];
}

/** The default options of a type (spec 002 §3, §9). */
export function defaultOptions(
  type: AuditQuestionType,
  newId: () => string,
): AuditQuestion['options'] {
  const options: { [K in AuditQuestionType]: AuditQuestionOf<K>['options'] } = {
    text_input: { max_characters: null },
    multiple_choice: {
      multiple_selection: false,
      choices: [{ id: newId(), text: '', score: 1, archived_at: null }],
    },
    yes_or_no: { multiple_selection: false, choices: yesNoChoices(newId) },
    file_upload: { file_extensions: ['jpg', 'png', 'pdf'] },
    rating: {
      min_rating: auditDefaults.rating.min,
      max_rating: auditDefaults.rating.max,
      precision: auditDefaults.rating.precision,
    },
    number: { min_number: auditDefaults.number.min, max_number: auditDefaults.number.max },
    date: { date_limit: 'no_limit' },
  };
  return options[type];
}

/** A new question: score 1 (scoring on), not required, the type's default options. */
export function newQuestion(
  type: AuditQuestionType,
  newId: () => string,
  text = '',
): AuditQuestion {
  const question = {
    id: newId(),
    text,
    type,
    score: auditDefaults.questionScore,
    required: false,
    conditions: [],
    archived_at: null,
    options: defaultOptions(type, newId),
  } as AuditQuestion;
  return { ...question, score: questionScore(question, true) } as AuditQuestion;
}

/**
 * Spec 002 §4: changing a question's type resets its options (to the new type's defaults);
 * its score follows the scoring toggle for the new type.
 */
export function changeQuestionType(
  question: AuditQuestion,
  type: AuditQuestionType,
  newId: () => string,
): AuditQuestion {
  if (question.type === type) return question;
  const next = { ...question, type, options: defaultOptions(type, newId) } as AuditQuestion;
  return { ...next, score: questionScore(next, question.score !== null) } as AuditQuestion;
}

/** Spec 002 §4: the scoring toggle on a question. */
export function setScoring(question: AuditQuestion, isScoring: boolean): AuditQuestion {
  return { ...question, score: questionScore(question, isScoring) } as AuditQuestion;
}

/** A choice question's score follows its choices (call after editing choices). */
export function withDerivedScore(question: AuditQuestion): AuditQuestion {
  if (question.score === null) return question;
  if (question.type !== 'multiple_choice' && question.type !== 'yes_or_no') return question;
  return { ...question, score: questionScore(question, true) } as AuditQuestion;
}

/**
 * Spec 002 §4: once published, or with a publishing date, removing a section, a question or
 * a choice only archives it; before that it is removed.
 */
export function removalArchives(audit: {
  published: boolean;
  publishing_date: string | null;
}): boolean {
  return audit.published || audit.publishing_date !== null;
}

type Removal =
  | { kind: 'section'; sectionId: string }
  | { kind: 'question'; questionId: string }
  | { kind: 'choice'; questionId: string; choiceId: string };

/** Removes (or archives, `archivedAt` given) a section, question or choice. */
export function removeItem(
  sections: AuditSection[],
  removal: Removal,
  archivedAt: string | null,
): AuditSection[] {
  const drop = <T extends { id: string; archived_at: string | null }>(items: T[], id: string) =>
    archivedAt === null
      ? items.filter((item) => item.id !== id)
      : items.map((item) =>
          item.id === id && !item.archived_at ? { ...item, archived_at: archivedAt } : item,
        );
  if (removal.kind === 'section') {
    // Conditions naming a question of the removed section go with it.
    const removed = sections.find((section) => section.id === removal.sectionId);
    const ids = new Set(removed?.questions.map((question) => question.id) ?? []);
    return dropConditionsOn(drop(sections, removal.sectionId), ids);
  }
  return sections.map((section) => ({
    ...section,
    questions:
      removal.kind === 'question'
        ? drop(section.questions, removal.questionId).map((question) =>
            // A condition on a removed question goes with it.
            ({
              ...question,
              conditions: question.conditions.filter(
                (condition) => condition.question_id !== removal.questionId,
              ),
            }),
          )
        : section.questions.map((question) =>
            question.id === removal.questionId &&
            (question.type === 'multiple_choice' || question.type === 'yes_or_no')
              ? withDerivedScore({
                  ...question,
                  options: {
                    ...question.options,
                    choices: drop(question.options.choices, removal.choiceId),
                  },
                })
              : question,
          ),
  }));
}

/**
 * The server's guard of the same rule: items of the stored structure missing from the saved one
 * come back archived (at `now`) when removals archive, and an archived item stays archived.
 */
export function keepArchived(
  previous: AuditSection[],
  next: AuditSection[],
  now: string,
): AuditSection[] {
  const nextSections = new Map(next.map((section) => [section.id, section]));
  const nextQuestionIds = new Set(next.flatMap((s) => s.questions.map((q) => q.id)));
  const previousSections = new Map(previous.map((section) => [section.id, section]));
  const previousQuestions = new Map(
    previous.flatMap((s) => s.questions.map((q) => [q.id, q] as const)),
  );
  const archive = <T extends { archived_at: string | null }>(item: T): T =>
    item.archived_at ? item : { ...item, archived_at: now };

  const merged = next.map((section) => {
    const before = previousSections.get(section.id);
    const questions = section.questions.map((question) => {
      const old = previousQuestions.get(question.id);
      let kept = old?.archived_at ? { ...question, archived_at: old.archived_at } : question;
      if (
        old &&
        (old.type === 'multiple_choice' || old.type === 'yes_or_no') &&
        (kept.type === 'multiple_choice' || kept.type === 'yes_or_no')
      ) {
        const nextChoices = new Map(kept.options.choices.map((choice) => [choice.id, choice]));
        const choices = kept.options.choices.map((choice) => {
          const oldChoice = old.options.choices.find((item) => item.id === choice.id);
          return oldChoice?.archived_at
            ? { ...choice, archived_at: oldChoice.archived_at }
            : choice;
        });
        for (const oldChoice of old.options.choices) {
          if (!nextChoices.has(oldChoice.id)) choices.push(archive(oldChoice));
        }
        kept = { ...kept, options: { ...kept.options, choices } };
      }
      return kept;
    });
    // Questions that left the audit altogether come back archived in their old section.
    for (const old of before?.questions ?? []) {
      if (!nextQuestionIds.has(old.id)) questions.push(archive(old));
    }
    const section2 = { ...section, questions };
    return before?.archived_at ? { ...section2, archived_at: before.archived_at } : section2;
  });
  for (const old of previous) {
    if (nextSections.has(old.id)) continue;
    const questions = old.questions
      .filter((question) => !nextQuestionIds.has(question.id))
      .map(archive);
    merged.push({ ...archive(old), questions });
  }
  return merged;
}

/** Sections and questions that are not archived. */
export function liveSections(sections: AuditSection[]): AuditSection[] {
  return sections
    .filter((section) => !section.archived_at)
    .map((section) => ({
      ...section,
      questions: section.questions.filter((question) => !question.archived_at),
    }));
}

export function countLive(sections: AuditSection[]): { sections: number; questions: number } {
  const live = liveSections(sections);
  return {
    sections: live.length,
    questions: live.reduce((sum, section) => sum + section.questions.length, 0),
  };
}

/** The yes/no questions a question may still add as a condition (spec 002 §5). */
export function conditionCandidates(
  sections: AuditSection[],
  question: AuditQuestion,
): AuditQuestion[] {
  const used = new Set(question.conditions.map((condition) => condition.question_id));
  const questions = liveSections(sections).flatMap((section) => section.questions);
  const byId = new Map(questions.map((item) => [item.id, item]));
  // A question that (through its own conditions) already depends on this one would make a
  // cycle in which neither ever shows.
  const dependsOnQuestion = (candidate: AuditQuestion, seen = new Set<string>()): boolean =>
    candidate.conditions.some((condition) => {
      if (condition.question_id === question.id) return true;
      if (seen.has(condition.question_id)) return false;
      seen.add(condition.question_id);
      const source = byId.get(condition.question_id);
      return source ? dependsOnQuestion(source, seen) : false;
    });
  return questions.filter(
    (candidate) =>
      candidate.type === 'yes_or_no' &&
      candidate.id !== question.id &&
      !used.has(candidate.id) &&
      !dependsOnQuestion(candidate),
  );
}

export type AuditIssueCode =
  | 'audit/name-required'
  | 'audit/section-title-required'
  | 'audit/question-text-required'
  | 'audit/text-limit-invalid'
  | 'audit/choice-score-invalid'
  | 'audit/question-score-invalid'
  | 'audit/choices-required'
  | 'audit/yes-no-choices'
  | 'audit/number-bounds-invalid'
  | 'audit/rating-bounds-invalid'
  | 'audit/extensions-required'
  | 'audit/condition-invalid'
  | 'audit/duplicate-id';

export type AuditIssue = {
  code: AuditIssueCode;
  /** Where: the section's and question's ids, when the issue is inside one. */
  sectionId?: string;
  questionId?: string;
};

/**
 * Every validation of spec 002 §5 over a template, archived items left out (they keep what they
 * were): the first issue found, or null.
 */
export function validateAudit(audit: {
  name: string;
  sections: AuditSection[];
}): AuditIssue | null {
  if (audit.name.trim() === '') return { code: 'audit/name-required' };
  const ids = new Set<string>();
  const all = audit.sections.flatMap((section) => [
    section.id,
    ...section.questions.flatMap((question) => [
      question.id,
      ...('choices' in question.options ? question.options.choices.map((choice) => choice.id) : []),
    ]),
  ]);
  for (const id of all) {
    if (ids.has(id)) return { code: 'audit/duplicate-id' };
    ids.add(id);
  }
  const questions = new Map(
    liveSections(audit.sections).flatMap((section) =>
      section.questions.map((question) => [question.id, question] as const),
    ),
  );
  for (const section of liveSections(audit.sections)) {
    if (section.title.trim() === '') {
      return { code: 'audit/section-title-required', sectionId: section.id };
    }
    for (const question of section.questions) {
      const issue = questionIssue(question, questions);
      if (issue) return { code: issue, sectionId: section.id, questionId: question.id };
    }
  }
  return null;
}

function questionIssue(
  question: AuditQuestion,
  questions: ReadonlyMap<string, AuditQuestion>,
): AuditIssueCode | null {
  if (question.text.trim() === '') return 'audit/question-text-required';
  if (
    question.score !== null &&
    question.type !== 'multiple_choice' &&
    question.type !== 'yes_or_no'
  ) {
    if (question.score < auditDefaults.questionScore || question.score > auditLimits.scoreMax) {
      return 'audit/question-score-invalid';
    }
  }
  switch (question.type) {
    case 'text_input': {
      const max = question.options.max_characters;
      if (max !== null && (max < 1 || max > auditLimits.textAnswerMax)) {
        return 'audit/text-limit-invalid';
      }
      break;
    }
    case 'multiple_choice':
    case 'yes_or_no': {
      const live = question.options.choices.filter((choice) => !choice.archived_at);
      if (live.some((choice) => choice.score < 0 || choice.score > auditLimits.scoreMax)) {
        return 'audit/choice-score-invalid';
      }
      if (question.type === 'yes_or_no') {
        const texts = live.map((choice) => choice.text).sort();
        if (texts.length !== 2 || texts[0] !== 'false' || texts[1] !== 'true') {
          return 'audit/yes-no-choices';
        }
        if (question.options.multiple_selection) return 'audit/yes-no-choices';
      } else if (live.length === 0 || live.some((choice) => choice.text.trim() === '')) {
        return 'audit/choices-required';
      }
      break;
    }
    case 'file_upload':
      if (question.options.file_extensions.length === 0) return 'audit/extensions-required';
      break;
    case 'rating': {
      const { min_rating: min, max_rating: max, precision } = question.options;
      if (!(ratingPrecisions as readonly number[]).includes(precision)) {
        return 'audit/rating-bounds-invalid';
      }
      if (min >= max || min < auditDefaults.number.lowest || max > auditLimits.numberMax) {
        return 'audit/rating-bounds-invalid';
      }
      break;
    }
    case 'number': {
      const { min_number: min, max_number: max } = question.options;
      if (min > max || min < auditDefaults.number.lowest || max > auditLimits.numberMax) {
        return 'audit/number-bounds-invalid';
      }
      break;
    }
    case 'date':
      break;
  }
  const used = new Set<string>();
  for (const condition of question.conditions) {
    const source = questions.get(condition.question_id);
    if (source?.type !== 'yes_or_no' || source.id === question.id || used.has(source.id)) {
      return 'audit/condition-invalid';
    }
    used.add(source.id);
  }
  return null;
}

export type AnswerIssueCode =
  | 'audit/answer-type'
  | 'audit/answer-too-long'
  | 'audit/answer-choice'
  | 'audit/answer-out-of-bounds'
  | 'audit/answer-precision'
  | 'audit/answer-date-limit'
  | 'audit/answer-file';

/** Whether `value` is a multiple of `step` from `from` (to float tolerance). */
function onStep(value: number, from: number, step: number): boolean {
  const steps = (value - from) / step;
  return Math.abs(steps - Math.round(steps)) < 1e-6;
}

/**
 * Whether an answer fits its question (spec 002 §3, §5, issue 16): only its type's field, within
 * the text limit, known live choices (one unless multiple selection), rating and number bounds
 * and the rating's precision, the date limit against `today` (YYYY-MM-DD, the store's day).
 * An empty answer (clearing) always fits. Returns the issue or null.
 */
export function answerIssue(
  question: AuditQuestion,
  answer: AuditAnswerInput,
  today: string,
): AnswerIssueCode | null {
  const given = (
    ['choices', 'answer_yes', 'text', 'file_urls', 'rating', 'number', 'date'] as const
  ).filter((field) => answer[field] !== undefined && answer[field] !== null);
  const allowed: Record<AuditQuestionType, readonly string[]> = {
    text_input: ['text'],
    multiple_choice: ['choices'],
    yes_or_no: ['choices', 'answer_yes'],
    file_upload: ['file_urls'],
    rating: ['rating'],
    number: ['number'],
    date: ['date'],
  };
  if (given.some((field) => !allowed[question.type].includes(field))) return 'audit/answer-type';
  switch (question.type) {
    case 'text_input': {
      const max = question.options.max_characters;
      if (max !== null && [...(answer.text ?? '')].length > max) return 'audit/answer-too-long';
      return null;
    }
    case 'multiple_choice':
    case 'yes_or_no': {
      const chosen = answer.choices ?? [];
      const live = new Set(
        question.options.choices.filter((choice) => !choice.archived_at).map((choice) => choice.id),
      );
      if (new Set(chosen).size !== chosen.length || chosen.some((id) => !live.has(id))) {
        return 'audit/answer-choice';
      }
      if (chosen.length > 1 && !question.options.multiple_selection) return 'audit/answer-choice';
      if (
        question.type === 'yes_or_no' &&
        chosen.length === 1 &&
        typeof answer.answer_yes === 'boolean'
      ) {
        const choice = question.options.choices.find((item) => item.id === chosen[0]);
        if ((choice?.text === 'true') !== answer.answer_yes) return 'audit/answer-choice';
      }
      return null;
    }
    case 'rating': {
      if (typeof answer.rating !== 'number') return null;
      const { min_rating: min, max_rating: max, precision } = question.options;
      if (answer.rating < min || answer.rating > max) return 'audit/answer-out-of-bounds';
      if (!onStep(answer.rating, min, precision)) return 'audit/answer-precision';
      return null;
    }
    case 'number': {
      if (typeof answer.number !== 'number') return null;
      const { min_number: min, max_number: max } = question.options;
      return answer.number < min || answer.number > max ? 'audit/answer-out-of-bounds' : null;
    }
    case 'date': {
      if (!answer.date) return null;
      const limit = question.options.date_limit;
      if (limit === 'only_future' && answer.date < today) return 'audit/answer-date-limit';
      if (limit === 'only_past' && answer.date > today) return 'audit/answer-date-limit';
      return null;
    }
    case 'file_upload': {
      const extensions = new Set<string>(question.options.file_extensions);
      const bad = (answer.file_urls ?? []).some((url) => {
        const extension = url.split('.').pop()?.toLowerCase() ?? '';
        return !extensions.has(extension === 'jpeg' ? 'jpg' : extension);
      });
      return bad ? 'audit/answer-file' : null;
    }
  }
}

/** The yes/no value of a yes/no answer (answer_yes, or its chosen choice's text), or null. */
export function yesNoAnswer(
  question: AuditQuestionOf<'yes_or_no'>,
  answer: Pick<AuditAnswerInput, 'answer_yes' | 'choices'> | undefined,
): boolean | null {
  if (!answer) return null;
  if (typeof answer.answer_yes === 'boolean') return answer.answer_yes;
  const choice = question.options.choices.find((item) => answer.choices?.includes(item.id));
  return choice ? choice.text === 'true' : null;
}

/**
 * The required questions that show (conditions applied) and have no answer: what blocks a
 * submission, in order.
 */
export function missingRequired(
  sections: AuditSection[],
  answers: readonly AuditAnswerInput[],
  isAnswered: (question: AuditQuestion, answer: AuditAnswerInput | undefined) => boolean,
): AuditQuestion[] {
  const questions = liveSections(sections).flatMap((section) => section.questions);
  const byId = new Map(questions.map((question) => [question.id, question]));
  const answerById = new Map(answers.map((answer) => [answer.question_id, answer]));
  return questions.filter(
    (question) =>
      question.required &&
      isQuestionVisible(question, byId, answerById) &&
      !isAnswered(question, answerById.get(question.id)),
  );
}

/** The spec's path of a result (spec 002 §7): what POST /api/pdf/audit takes. */
export function auditResultPath(result: {
  database_id: string;
  audit_id: string;
  id: string;
}): string {
  return `databases/${result.database_id}/audits/${result.audit_id}/audit_results/${result.id}`;
}

const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const pathPattern = new RegExp(
  `^databases/(${uuid})/audits/(${uuid})/audit_results/(${uuid})$`,
  'i',
);

/** The ids in a result path, or null when it is not one. */
export function parseAuditResultPath(
  path: string,
): { databaseId: string; auditId: string; resultId: string } | null {
  const match = pathPattern.exec(path.replace(/^\/+/, ''));
  if (!match) return null;
  return { databaseId: match[1]!, auditId: match[2]!, resultId: match[3]! };
}

export type ResultScores = {
  score: number;
  max_score: number;
  section_scores: { section_id: string; score: number; max_score: number }[];
  /** What each visible scored question's answer earns (others are absent: null). */
  answer_scores: Map<string, number>;
};

/**
 * A result's scores over its live sections: each visible, scored question counts its score in
 * the maximum and what its answer earns (scoring.ts) in the score; conditions may name a
 * question of another section.
 */
export function scoreResult(
  sections: AuditSection[],
  answers: readonly AuditAnswerInput[],
): ResultScores {
  const live = liveSections(sections);
  const byId = new Map(
    live.flatMap((section) =>
      section.questions.map((question) => [question.id, question] as const),
    ),
  );
  const answerById = new Map(answers.map((answer) => [answer.question_id, answer]));
  const answerScores = new Map<string, number>();
  let score = 0;
  let maxScore = 0;
  const sectionScores = live.map((section) => {
    let sectionScore = 0;
    let sectionMax = 0;
    for (const question of section.questions) {
      if (question.score === null || !isQuestionVisible(question, byId, answerById)) continue;
      const earned = answerScore(question, answerById.get(question.id)) ?? 0;
      answerScores.set(question.id, earned);
      sectionScore += earned;
      sectionMax += question.score;
    }
    score += sectionScore;
    maxScore += sectionMax;
    return { section_id: section.id, score: sectionScore, max_score: sectionMax };
  });
  return { score, max_score: maxScore, section_scores: sectionScores, answer_scores: answerScores };
}
