import { invalidQuizQuestion } from '@mise/shared/communications/rules';
import type { Quiz, TargetInput } from '@mise/shared/communications/schemas';
import { emptyTarget } from '@mise/shared/communications/targeting';
import type { ErrorCode } from '@mise/shared/errors/codes';
import {
  newSectionTitle,
  type TrainingLanguage,
  type TrainingType,
} from '@mise/shared/trainings/rules';
import type { Training, TrainingBody } from '@mise/shared/trainings/schemas';
import { type DraftAttachment, draftAttachmentOf } from '../../../shared/content/attachment-card';
import { emptyQuiz, trimmedQuiz } from '../../../shared/content/quiz-edits';

/*
 * The training editor's draft and its pure rules (spec 002 §3, §4, §5): a copy of the training
 * that Save sends, the sections' edits, and the validations the server also applies.
 */

export type SectionDraft = {
  id: string;
  title: string;
  attachment: DraftAttachment | null;
  quiz: Quiz;
};

export type TrainingDraft = {
  name: string;
  active: boolean;
  lang: TrainingLanguage;
  required: boolean;
  category_id: string | null;
  sections: SectionDraft[];
  target: TargetInput;
};

/** Who owns a training: its type and source (spec 002 §3). */
export type TrainingOwner = { type: TrainingType; source: string | null };

/** Spec 002 §3, §9: a new section is titled 'Nouvelle section', without attachment or quiz. */
export function newSection(id: string): SectionDraft {
  return { id, title: newSectionTitle, attachment: null, quiz: emptyQuiz };
}

/**
 * Spec 002 §3, §4: a new training starts inactive, in French, not required, without category,
 * aimed at everyone, with one blank section; an existing one is copied as it was read.
 */
export function draftOf(training: Training | null, newId: () => string): TrainingDraft {
  if (!training) {
    return {
      name: '',
      active: false,
      lang: 'fr',
      required: false,
      category_id: null,
      sections: [newSection(newId())],
      target: { ...emptyTarget, stores: [], store_tags: [], employee_roles: [] },
    };
  }
  return {
    name: training.name,
    active: training.active,
    lang: training.lang,
    required: training.required,
    category_id: training.category?.id ?? null,
    sections: training.sections.map((section) => ({
      id: section.id,
      title: section.title,
      attachment: draftAttachmentOf(section.attachment),
      quiz: section.quiz,
    })),
    target: training.target,
  };
}

/** A save's problem: the error code the server would answer, and the section and question at fault. */
export type TrainingIssue = {
  code: Extract<
    ErrorCode,
    | 'training/name-required'
    | 'training/attachment-required'
    | 'training/attachment-invalid'
    | 'training/no-valid-answer'
  >;
  sectionId?: string;
  questionId?: string;
};

/**
 * The server's checks, in its order (spec 002 §5): a name, then section by section an
 * attachment ('Please select an attachment for this training.') and each quiz question with
 * at least one answer and one correct ('Veuillez selectionner au moins une bonne réponse pour
 * chaque quiz.').
 */
export function validateDraft(draft: TrainingDraft): TrainingIssue | null {
  if (draft.name.trim() === '') return { code: 'training/name-required' };
  for (const section of draft.sections) {
    if (!section.attachment) {
      return { code: 'training/attachment-required', sectionId: section.id };
    }
    const invalid = invalidQuizQuestion(section.quiz.questions);
    if (invalid) {
      return { code: 'training/no-valid-answer', sectionId: section.id, questionId: invalid.id };
    }
  }
  return null;
}

/** The body of a create or a save (a valid draft: validateDraft answered null). */
export function bodyOf(draft: TrainingDraft): TrainingBody {
  return {
    name: draft.name.trim(),
    active: draft.active,
    lang: draft.lang,
    required: draft.required,
    category_id: draft.category_id,
    sections: draft.sections.map((section) => ({
      id: section.id,
      title: section.title.trim(),
      attachment: section.attachment
        ? { name: section.attachment.name, path: section.attachment.path }
        : null,
      quiz: trimmedQuiz(section.quiz),
    })),
    target: draft.target,
  };
}

/* ---------- Section edits ---------- */

export function addSection(sections: readonly SectionDraft[], id: string): SectionDraft[] {
  return [...sections, newSection(id)];
}

export function updateSection(
  sections: readonly SectionDraft[],
  sectionId: string,
  change: (section: SectionDraft) => SectionDraft,
): SectionDraft[] {
  return sections.map((section) => (section.id === sectionId ? change(section) : section));
}

/**
 * Removes a section (a training keeps one at least): the selection goes to the first remaining
 * section, as a deleted question's goes to the first remaining question (spec 002 §4).
 */
export function removeSection(
  sections: readonly SectionDraft[],
  sectionId: string,
): { sections: SectionDraft[]; selectedSectionId: string | null } {
  if (sections.length <= 1) return { sections: [...sections], selectedSectionId: sectionId };
  const remaining = sections.filter((section) => section.id !== sectionId);
  return { sections: remaining, selectedSectionId: remaining[0]?.id ?? null };
}

/** Spec 002 §4: selecting a section selects its first question (or none). */
export function firstQuestionOf(section: SectionDraft | undefined): string | null {
  return section?.quiz.questions[0]?.id ?? null;
}

/** The Upload-Metadata owner of a section attachment: 'global' or '<type>:<source>'. */
export function uploadOwnerOf(owner: TrainingOwner): string {
  return owner.type === 'global' ? 'global' : `${owner.type}:${owner.source}`;
}

/** Spec 002 §2: only database and distributor trainings choose their stores. */
export function hasTargetCard(owner: TrainingOwner): boolean {
  return owner.type === 'database' || owner.type === 'distributor';
}
