import { auditTruncation, truncate } from '@mise/shared/audits/rules';
import type { AuditAnswer, AuditQuestion, AuditResult } from '@mise/shared/audits/schemas';
import { isAnswered } from '@mise/shared/audits/scoring';
import { formatCalendarDay } from '../../../shared/format/store-clock';

/** A section of the results tables: the union of the selected results' structures. */
export type ResultsSection = { id: string; title: string; questions: AuditQuestion[] };

/** What a result's cell shows for a question. */
export type AnswerCell =
  | { kind: 'question-missing' }
  | { kind: 'answer-missing'; comment: string | null }
  | { kind: 'answer'; text: string; fullText: string; files: string[]; comment: string | null };

function answeredIds(result: AuditResult): Set<string> {
  return new Set(result.answers.map((answer) => answer.question_id));
}

/** Whether a result's structure shows a question: live in its version, or answered there. */
function isInStructure(question: AuditQuestion, answered: ReadonlySet<string>): boolean {
  return !question.archived_at || answered.has(question.id);
}

/**
 * The sections and questions to show for the selected results, in the order of the first
 * result that has them: every live item of each result's version, and archived ones the
 * result answered (a result keeps the questions its auditor saw).
 */
export function mergeStructures(results: readonly AuditResult[]): ResultsSection[] {
  const sections: ResultsSection[] = [];
  const sectionById = new Map<string, ResultsSection>();
  const seenQuestions = new Set<string>();
  for (const result of results) {
    const answered = answeredIds(result);
    for (const section of result.sections) {
      const questions = section.questions.filter((question) => isInStructure(question, answered));
      if (section.archived_at && questions.every((question) => !answered.has(question.id))) {
        continue;
      }
      let merged = sectionById.get(section.id);
      if (!merged) {
        merged = { id: section.id, title: section.title, questions: [] };
        sectionById.set(section.id, merged);
        sections.push(merged);
      }
      for (const question of questions) {
        if (seenQuestions.has(question.id)) continue;
        seenQuestions.add(question.id);
        merged.questions.push(question);
      }
    }
  }
  return sections;
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The answer's value as text (choices, yes/no, rating over its maximum, dd/mm/yyyy). */
export function answerText(question: AuditQuestion, answer: AuditAnswer, t: Translate): string {
  switch (question.type) {
    case 'text_input':
      return answer.text ?? '';
    case 'multiple_choice':
      return question.options.choices
        .filter((choice) => answer.choices?.includes(choice.id))
        .map((choice) => choice.text)
        .join(', ');
    case 'yes_or_no': {
      const choice = question.options.choices.find((item) => answer.choices?.includes(item.id));
      const value =
        typeof answer.answer_yes === 'boolean'
          ? answer.answer_yes
          : choice
            ? choice.text === 'true'
            : null;
      return value === null ? '' : t(value ? 'auditResults.yes' : 'auditResults.no');
    }
    case 'rating':
      return typeof answer.rating === 'number'
        ? t('auditResults.perform.ratingValue', {
            value: answer.rating,
            max: question.options.max_rating,
          })
        : '';
    case 'number':
      return typeof answer.number === 'number' ? String(answer.number) : '';
    case 'date':
      return answer.date ? formatCalendarDay(answer.date) : '';
    case 'file_upload':
      return '';
  }
}

/** A result's questions and answers by id, read once for its whole column. */
export type ResultIndex = {
  result: AuditResult;
  questions: ReadonlyMap<string, AuditQuestion>;
  answers: ReadonlyMap<string, AuditAnswer>;
};

export function indexResult(result: AuditResult): ResultIndex {
  return {
    result,
    questions: new Map(
      result.sections.flatMap((section) =>
        section.questions.map((question) => [question.id, question] as const),
      ),
    ),
    answers: new Map(result.answers.map((answer) => [answer.question_id, answer] as const)),
  };
}

/** What a result's column shows for a question (spec 002 §8: 'answer-missing', 'question-missing'). */
export function answerCell(questionId: string, index: ResultIndex, t: Translate): AnswerCell {
  const own = index.questions.get(questionId);
  const answer = index.answers.get(questionId);
  if (!own || (own.archived_at && !answer)) return { kind: 'question-missing' };
  const comment = answer?.comment?.trim() ? answer.comment : null;
  if (!answer || !isAnswered(own, answer)) return { kind: 'answer-missing', comment };
  const fullText = answerText(own, answer, t);
  return {
    kind: 'answer',
    text: truncate(fullText, auditTruncation.answer),
    fullText,
    files: own.type === 'file_upload' ? (answer.file_urls ?? []) : [],
    comment,
  };
}
