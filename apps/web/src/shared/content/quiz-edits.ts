import type { Quiz } from '@mise/shared/communications/schemas';

/*
 * The edits of a quiz (spec 002 §3 Quiz, §4), pure and shared by the communication and training
 * editors: questions with a text and answers (a text and a correct flag).
 */

export type QuizQuestionDraft = Quiz['questions'][number];
export type QuizAnswerDraft = QuizQuestionDraft['answers'][number];

export const emptyQuiz: Quiz = { questions: [] };

/** The quiz as a save sends it: texts trimmed (the server trims them too). */
export function trimmedQuiz(quiz: Quiz): Quiz {
  return {
    questions: quiz.questions.map((question) => ({
      id: question.id,
      text: question.text.trim(),
      answers: question.answers.map((answer) => ({
        id: answer.id,
        text: answer.text.trim(),
        correct: answer.correct,
      })),
    })),
  };
}

export function addQuestion(quiz: Quiz, id: string): Quiz {
  return { questions: [...quiz.questions, { id, text: '', answers: [] }] };
}

export function updateQuestion(
  quiz: Quiz,
  questionId: string,
  change: (question: QuizQuestionDraft) => QuizQuestionDraft,
): Quiz {
  return {
    questions: quiz.questions.map((question) =>
      question.id === questionId ? change(question) : question,
    ),
  };
}

/**
 * Removes a question. Spec 002 §4: the selection goes to the first remaining question, or
 * none.
 */
export function removeQuestion(
  quiz: Quiz,
  questionId: string,
): { quiz: Quiz; selectedQuestionId: string | null } {
  const questions = quiz.questions.filter((question) => question.id !== questionId);
  return { quiz: { questions }, selectedQuestionId: questions[0]?.id ?? null };
}

export function addAnswer(question: QuizQuestionDraft, id: string): QuizQuestionDraft {
  return { ...question, answers: [...question.answers, { id, text: '', correct: false }] };
}

export function updateAnswer(
  question: QuizQuestionDraft,
  answerId: string,
  change: Partial<Omit<QuizAnswerDraft, 'id'>>,
): QuizQuestionDraft {
  return {
    ...question,
    answers: question.answers.map((answer) =>
      answer.id === answerId ? { ...answer, ...change } : answer,
    ),
  };
}

export function removeAnswer(question: QuizQuestionDraft, answerId: string): QuizQuestionDraft {
  return { ...question, answers: question.answers.filter((answer) => answer.id !== answerId) };
}
