import { invalidQuizQuestion } from '@mise/shared/communications/rules';
import type {
  Communication,
  CommunicationBody,
  Quiz,
  TargetInput,
} from '@mise/shared/communications/schemas';
import { emptyTarget } from '@mise/shared/communications/targeting';
import type { ErrorCode } from '@mise/shared/errors/codes';
import dayjs from 'dayjs';
import { type DraftAttachment, draftAttachmentOf } from '../../../shared/content/attachment-card';
import { trimmedQuiz } from '../../../shared/content/quiz-edits';

/*
 * The communication editor's draft and its pure rules (spec 002 §4, §5): what is sent on save
 * and the validations the server also applies (the quiz edits are shared/content's).
 */

export type CommunicationDraft = {
  name: string;
  active: boolean;
  /** Calendar days (YYYY-MM-DD); null while the range is being picked. */
  start_day: string | null;
  end_day: string | null;
  attachment: DraftAttachment | null;
  quiz: Quiz;
  target: TargetInput;
};

/** A new communication runs for a week from today (docs/decisions.md). */
export const newCommunicationDays = 7;

export function draftOf(communication: Communication | null, today = dayjs()): CommunicationDraft {
  if (!communication) {
    return {
      name: '',
      active: true,
      start_day: today.format('YYYY-MM-DD'),
      end_day: today.add(newCommunicationDays - 1, 'day').format('YYYY-MM-DD'),
      attachment: null,
      quiz: { questions: [] },
      target: { ...emptyTarget, stores: [], store_tags: [], employee_roles: [] },
    };
  }
  return {
    name: communication.name,
    active: communication.active,
    start_day: communication.start_day,
    end_day: communication.end_day,
    attachment: draftAttachmentOf(communication.attachment),
    quiz: communication.quiz,
    target: communication.target,
  };
}

/** A save's problem: the error code the server would answer, and the question at fault. */
export type DraftIssue = {
  code: Extract<
    ErrorCode,
    | 'communication/name-required'
    | 'communication/dates-invalid'
    | 'communication/attachment-required'
    | 'communication.no_valid_answer'
  >;
  questionId?: string;
};

/**
 * The server's checks, in its order: name required, a range whose end is not before its start,
 * an attachment ('Please select an attachement for this communication.'), and each quiz
 * question with at least one answer and one correct ('communication.no_valid_answer').
 */
export function validateDraft(draft: CommunicationDraft): DraftIssue | null {
  if (draft.name.trim() === '') return { code: 'communication/name-required' };
  if (!draft.start_day || !draft.end_day || draft.end_day < draft.start_day) {
    return { code: 'communication/dates-invalid' };
  }
  if (!draft.attachment) return { code: 'communication/attachment-required' };
  const invalid = invalidQuizQuestion(draft.quiz.questions);
  if (invalid) return { code: 'communication.no_valid_answer', questionId: invalid.id };
  return null;
}

/** The body of a create or a save (a valid draft: validateDraft answered null). */
export function bodyOf(draft: CommunicationDraft): CommunicationBody {
  return {
    name: draft.name.trim(),
    active: draft.active,
    start_day: draft.start_day ?? '',
    end_day: draft.end_day ?? '',
    attachment: draft.attachment
      ? { name: draft.attachment.name, path: draft.attachment.path }
      : null,
    quiz: trimmedQuiz(draft.quiz),
    target: draft.target,
  };
}
