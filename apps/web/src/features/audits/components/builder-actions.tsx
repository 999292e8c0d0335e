import type { AuditQuestion, AuditSection } from '@mise/shared/audits/schemas';
import type { AuditQuestionType } from '@mise/shared/audits/scoring';
import { createContext, useContext } from 'react';
import type { QuestionDrop } from './builder-state';

/**
 * What the builder's rows and editors may do. One stable object for the builder's life (its
 * functions read the latest state), so memoized rows never render again because a handler
 * changed.
 */
export type BuilderActions = {
  selectSection: (sectionId: string) => void;
  selectQuestion: (questionId: string) => void;
  toggleSection: (sectionId: string) => void;
  addSection: () => void;
  renameSection: (sectionId: string, title: string) => void;
  removeSection: (sectionId: string) => void;
  addQuestion: (sectionId: string) => void;
  updateQuestion: (questionId: string, update: (question: AuditQuestion) => AuditQuestion) => void;
  changeQuestionType: (questionId: string, type: AuditQuestionType) => void;
  removeQuestion: (questionId: string) => void;
  removeChoice: (questionId: string, choiceId: string) => void;
  moveSection: (sectionId: string, overSectionId: string) => void;
  dropQuestion: (questionId: string, drop: QuestionDrop) => void;
  moveQuestionToSection: (questionId: string, sectionId: string) => void;
  /** The live sections now (read when a menu opens, not on every render). */
  getSections: () => AuditSection[];
  newId: () => string;
};

const BuilderActionsContext = createContext<BuilderActions | null>(null);

export const BuilderActionsProvider = BuilderActionsContext.Provider;

export function useBuilderActions(): BuilderActions {
  const actions = useContext(BuilderActionsContext);
  if (!actions) throw new Error('useBuilderActions outside the audit builder');
  return actions;
}
