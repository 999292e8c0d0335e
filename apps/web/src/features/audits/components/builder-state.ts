import type { AuditQuestion, AuditSection } from '@mise/shared/audits/schemas';

/*
 * The builder's structural edits (spec 002 §2, §4): pure functions over the audit's sections,
 * archived items included (they stay hidden but travel back on save). Every edit keeps the
 * untouched sections' and questions' references, so memoized rows of a large audit do not
 * render again.
 */

/** What the builder edits and sends back on save. */
export type AuditDraft = {
  name: string;
  active: boolean;
  self_evaluation: boolean;
  published: boolean;
  sections: AuditSection[];
};

export const isLive = (item: { archived_at: string | null }) => !item.archived_at;

/** Each section's live view, kept while the section itself is unchanged (memoized rows). */
const visibleViews = new WeakMap<AuditSection, AuditSection>();

/** The live sections, each with its live questions (the same object while nothing changed). */
export function visibleSections(sections: AuditSection[]): AuditSection[] {
  return sections.filter(isLive).map((section) => {
    const cached = visibleViews.get(section);
    if (cached) return cached;
    const questions = section.questions.filter(isLive);
    const view =
      questions.length === section.questions.length ? section : { ...section, questions };
    visibleViews.set(section, view);
    return view;
  });
}

export type QuestionPlace = { section: AuditSection; question: AuditQuestion };

export function findQuestion(sections: AuditSection[], questionId: string): QuestionPlace | null {
  for (const section of sections) {
    const question = section.questions.find((item) => item.id === questionId);
    if (question) return { section, question };
  }
  return null;
}

/** Applies `update` to one question; the other sections keep their references. */
export function updateQuestion(
  sections: AuditSection[],
  questionId: string,
  update: (question: AuditQuestion) => AuditQuestion,
): AuditSection[] {
  return sections.map((section) => {
    const index = section.questions.findIndex((question) => question.id === questionId);
    if (index < 0) return section;
    const questions = [...section.questions];
    questions[index] = update(questions[index]!);
    return { ...section, questions };
  });
}

export function updateSection(
  sections: AuditSection[],
  sectionId: string,
  update: (section: AuditSection) => AuditSection,
): AuditSection[] {
  return sections.map((section) => (section.id === sectionId ? update(section) : section));
}

function arrayMove<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved as T);
  return next;
}

/** A section dropped on another takes its place (the others shift), as in a sorted list. */
export function moveSection(
  sections: AuditSection[],
  sectionId: string,
  overSectionId: string,
): AuditSection[] {
  const from = sections.findIndex((section) => section.id === sectionId);
  const to = sections.findIndex((section) => section.id === overSectionId);
  if (from < 0 || to < 0 || from === to) return sections;
  return arrayMove(sections, from, to);
}

/**
 * Where a dragged question lands: over another question (before it when moving up, after it
 * when moving down, as in one sorted list), or over a section's header (moving down: the
 * section's start; moving up: the end of the section above it, the header being the line
 * between the two).
 */
export type QuestionDrop =
  | { kind: 'question'; questionId: string; isMovingDown: boolean }
  | { kind: 'section'; sectionId: string; isMovingDown: boolean };

/** Moves a question to `sectionId`, at `index` of that section's whole list (archived included). */
export function moveQuestionTo(
  sections: AuditSection[],
  questionId: string,
  sectionId: string,
  index: number | 'end',
): AuditSection[] {
  const place = findQuestion(sections, questionId);
  if (!place || !sections.some((section) => section.id === sectionId)) return sections;
  const without = sections.map((section) =>
    section.id === place.section.id
      ? { ...section, questions: section.questions.filter((q) => q.id !== questionId) }
      : section,
  );
  return without.map((section) => {
    if (section.id !== sectionId) return section;
    const questions = [...section.questions];
    const at = index === 'end' ? questions.length : Math.min(Math.max(index, 0), questions.length);
    questions.splice(at, 0, place.question);
    return { ...section, questions };
  });
}

/** Applies a drop of question `questionId` (see QuestionDrop). */
export function dropQuestion(
  sections: AuditSection[],
  questionId: string,
  drop: QuestionDrop,
): AuditSection[] {
  if (drop.kind === 'question') {
    if (drop.questionId === questionId) return sections;
    const target = findQuestion(sections, drop.questionId);
    if (!target) return sections;
    // The target's index once the moved question has left its list.
    const others = target.section.questions.filter((question) => question.id !== questionId);
    const overIndex = others.findIndex((question) => question.id === drop.questionId);
    return moveQuestionTo(
      sections,
      questionId,
      target.section.id,
      drop.isMovingDown ? overIndex + 1 : overIndex,
    );
  }
  if (drop.isMovingDown) return moveQuestionTo(sections, questionId, drop.sectionId, 0);
  const live = sections.filter(isLive);
  const position = live.findIndex((section) => section.id === drop.sectionId);
  const above = position > 0 ? live[position - 1] : undefined;
  return above
    ? moveQuestionTo(sections, questionId, above.id, 'end')
    : moveQuestionTo(sections, questionId, drop.sectionId, 0);
}

/**
 * The visible items in screen order (section headers and the questions under them): what
 * tells whether a drag goes down or up.
 */
export function screenOrder(sections: AuditSection[]): string[] {
  const order: string[] = [];
  for (const section of visibleSections(sections)) {
    order.push(sectionDragId(section.id));
    for (const question of section.questions) order.push(questionDragId(question.id));
  }
  return order;
}

/* ---------- Drag and drop ids: sections, their headers (a question's drop target), questions */

export type DragKind = 'section' | 'question';

export const sectionDragId = (sectionId: string) => `s:${sectionId}`;
export const headerDropId = (sectionId: string) => `h:${sectionId}`;
export const questionDragId = (questionId: string) => `q:${questionId}`;

/** Whether `overId` comes after `activeId` on screen (a header counts as its section). */
export function isBelow(sections: AuditSection[], activeId: string, overId: string): boolean {
  const order = screenOrder(sections);
  const toScreenId = (id: string) => (id.startsWith('h:') ? `s:${id.slice(2)}` : id);
  return order.indexOf(toScreenId(overId)) > order.indexOf(toScreenId(activeId));
}
