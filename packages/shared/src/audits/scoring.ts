/*
 * Audit scoring and conditions (spec 002 §3, §4, §9; issue 16): one set of pure rules shared by
 * the builder, the perform screens (back-office and tablet), the server's submission and the
 * results. No I/O, no dates: the callers pass what they have.
 */

export const auditQuestionTypes = [
  'text_input',
  'multiple_choice',
  'yes_or_no',
  'file_upload',
  'rating',
  'number',
  'date',
] as const;
export type AuditQuestionType = (typeof auditQuestionTypes)[number];

/** Spec 002 §3, §9: default question score, rating and number bounds, text limit. */
export const auditDefaults = {
  questionScore: 1,
  rating: { min: 0, max: 10, precision: 1 },
  number: { min: 0, max: 10, lowest: -999_999_999 },
  textLimit: 200,
} as const;

export type AuditChoice = { id: string; text: string; score: number; archived_at?: string | null };

export type ScoredQuestion = {
  id: string;
  type: AuditQuestionType;
  /** null when scoring is off for this question. */
  score: number | null;
  options?: { multiple_selection?: boolean; choices?: AuditChoice[]; [option: string]: unknown };
  conditions?: { question_id: string; value: boolean }[];
  archived_at?: string | null;
};

export type ScoredAnswer = {
  question_id: string;
  /** Chosen choice ids (multiple_choice, yes_or_no). */
  choices?: string[] | null;
  answer_yes?: boolean | null;
  text?: string | null;
  file_urls?: string[] | null;
  rating?: number | null;
  number?: number | null;
  date?: string | null;
};

const isChoiceType = (type: AuditQuestionType) =>
  type === 'multiple_choice' || type === 'yes_or_no';

const liveChoices = (question: ScoredQuestion) =>
  (question.options?.choices ?? []).filter((choice) => !choice.archived_at);

/**
 * The question's score when the scoring toggle is set (spec 002 §4): a choice question's is the
 * sum of its choices' scores with multiple selection, the highest choice score with a single
 * one; any other question's is 1 when on and null when off.
 */
export function questionScore(question: ScoredQuestion, isScoring: boolean): number | null {
  if (!isScoring) return null;
  if (!isChoiceType(question.type)) return auditDefaults.questionScore;
  const scores = liveChoices(question).map((choice) => Math.max(0, choice.score));
  if (scores.length === 0) return 0;
  return question.options?.multiple_selection
    ? scores.reduce((sum, score) => sum + score, 0)
    : Math.max(...scores);
}

/** Whether an answer holds something (an empty text, list or null value is no answer). */
export function isAnswered(question: ScoredQuestion, answer: ScoredAnswer | undefined): boolean {
  if (!answer) return false;
  switch (question.type) {
    case 'text_input':
      return (answer.text ?? '').trim() !== '';
    case 'multiple_choice':
      return (answer.choices ?? []).length > 0;
    case 'yes_or_no':
      return (
        answer.answer_yes === true ||
        answer.answer_yes === false ||
        (answer.choices ?? []).length > 0
      );
    case 'file_upload':
      return (answer.file_urls ?? []).length > 0;
    case 'rating':
      return typeof answer.rating === 'number';
    case 'number':
      return typeof answer.number === 'number';
    case 'date':
      return typeof answer.date === 'string' && answer.date !== '';
  }
}

/**
 * The score an answer earns: the chosen choices' scores (summed with multiple selection), the
 * question's whole score for any other answered question, 0 unanswered; null when the question
 * is not scored.
 */
export function answerScore(
  question: ScoredQuestion,
  answer: ScoredAnswer | undefined,
): number | null {
  if (question.score === null) return null;
  if (!isAnswered(question, answer)) return 0;
  if (!isChoiceType(question.type)) return question.score;
  const chosen = new Set(answer?.choices ?? []);
  if (question.type === 'yes_or_no' && chosen.size === 0 && answer) {
    // A yes/no answer may come as answer_yes only: its choice is the one whose text matches.
    const text = answer.answer_yes ? 'true' : 'false';
    for (const choice of liveChoices(question)) if (choice.text === text) chosen.add(choice.id);
  }
  const scores = liveChoices(question)
    .filter((choice) => chosen.has(choice.id))
    .map((choice) => Math.max(0, choice.score));
  if (scores.length === 0) return 0;
  return question.options?.multiple_selection
    ? scores.reduce((sum, score) => sum + score, 0)
    : Math.max(...scores);
}

/** The yes/no value an answer gives, or null. */
function yesNoValue(question: ScoredQuestion | undefined, answer: ScoredAnswer | undefined) {
  if (!question || !answer) return null;
  if (answer.answer_yes === true || answer.answer_yes === false) return answer.answer_yes;
  const chosen = liveChoices(question).find((choice) => answer.choices?.includes(choice.id));
  return chosen ? chosen.text === 'true' : null;
}

/**
 * A question shows when every one of its conditions holds: the yes/no question it names was
 * answered with the condition's value (unanswered, or itself hidden, does not hold).
 */
export function isQuestionVisible(
  question: ScoredQuestion,
  questions: ReadonlyMap<string, ScoredQuestion>,
  answers: ReadonlyMap<string, ScoredAnswer>,
  seen: ReadonlySet<string> = new Set(),
): boolean {
  if (question.archived_at) return false;
  return (question.conditions ?? []).every((condition) => {
    if (seen.has(condition.question_id)) return false;
    const source = questions.get(condition.question_id);
    if (!source || !isQuestionVisible(source, questions, answers, new Set([...seen, question.id])))
      return false;
    return yesNoValue(source, answers.get(condition.question_id)) === condition.value;
  });
}

export type ResultScore = { score: number; maximum: number; percent: number | null };

/** The score of a set of answers over the visible, scored questions. */
export function resultScore(
  questions: readonly ScoredQuestion[],
  answers: readonly ScoredAnswer[],
): ResultScore {
  const byId = new Map(questions.map((question) => [question.id, question]));
  const answerById = new Map(answers.map((answer) => [answer.question_id, answer]));
  let score = 0;
  let maximum = 0;
  for (const question of questions) {
    if (question.score === null || !isQuestionVisible(question, byId, answerById)) continue;
    maximum += question.score;
    score += answerScore(question, answerById.get(question.id)) ?? 0;
  }
  return { score, maximum, percent: maximum === 0 ? null : (score / maximum) * 100 };
}

/** Spec 002 §9: a percentage shows 2 decimals when it is not whole. */
export function formatPercent(percent: number): string {
  const rounded = Math.round(percent * 100) / 100;
  return Number.isInteger(rounded) ? String(rounded) : rounded.toFixed(2);
}
