import { DateTime } from 'luxon';

/*
 * Rules of communications and trainings (spec 002 §4, §5, §9; issue 18), pure and shared by the
 * server, the back-office and the tablet.
 */

export type CommunicationState = 'coming' | 'running' | 'passed';

/**
 * Spec 002 §4: passed if now is at or past the end; coming if at or before the start; else
 * running. (Exactly at the start it is still coming; exactly at the end it is passed.)
 */
export function communicationState(
  period: { start: Date | string; end: Date | string },
  now: Date,
): CommunicationState {
  const at = now.getTime();
  if (at >= new Date(period.end).getTime()) return 'passed';
  if (at <= new Date(period.start).getTime()) return 'coming';
  return 'running';
}

/**
 * Spec 002 §4, §9: a communication runs from 00:00:00 of its first day to 23:59:59 of its last,
 * in the given zone (the database's, see docs/decisions.md).
 */
export function communicationPeriod(
  days: { start_day: string; end_day: string },
  zone: string,
): { start: Date; end: Date } {
  const start = DateTime.fromISO(days.start_day, { zone }).startOf('day');
  const end = DateTime.fromISO(days.end_day, { zone }).set({
    hour: 23,
    minute: 59,
    second: 59,
    millisecond: 0,
  });
  return { start: start.toJSDate(), end: end.toJSDate() };
}

/** Spec 002 §4: the median time spent; of an even count, the mean of the two middle values. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[middle]!;
  return (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Spec 002 §4: the share of the employees who should see it that have a result, rounded to a
 * whole per cent (0 when nobody is aimed at).
 */
export function completionPercentage(done: number, total: number): number {
  if (total <= 0) return 0;
  return Math.round((Math.min(done, total) / total) * 100);
}

/* ---------- Quizzes ---------- */

export type QuizAnswer = { id: string; text: string; correct: boolean };
export type QuizQuestion = { id: string; text: string; answers: readonly QuizAnswer[] };

/**
 * Spec 002 §5: each question needs at least one answer and at least one correct one. Answers
 * the first question that fails, or null.
 */
export function invalidQuizQuestion(questions: readonly QuizQuestion[]): QuizQuestion | null {
  return (
    questions.find(
      (question) =>
        question.answers.length === 0 || !question.answers.some((answer) => answer.correct),
    ) ?? null
  );
}

/**
 * An employee's choice is right when it picks every correct answer and no other (a question
 * may have several correct answers: all of them must be found).
 */
export function isQuizAnswerCorrect(question: QuizQuestion, chosen: readonly string[]): boolean {
  const picked = new Set(chosen);
  return question.answers.every((answer) => answer.correct === picked.has(answer.id));
}

/** Whether every question of a quiz was answered right (an empty quiz is passed). */
export function isQuizPassed(
  questions: readonly QuizQuestion[],
  chosen: Readonly<Record<string, readonly string[]>>,
): boolean {
  return questions.every((question) => isQuizAnswerCorrect(question, chosen[question.id] ?? []));
}
