import type { AuditSection } from '@mise/shared/audits/schemas';
import { describe, expect, it } from 'vitest';
import { buildQuestion, buildSection } from '../test/build-audit';
import {
  dropQuestion,
  headerDropId,
  isBelow,
  moveQuestionTo,
  moveSection,
  questionDragId,
  sectionDragId,
  visibleSections,
} from './builder-state';

function fixture() {
  const a1 = buildQuestion('yes_or_no', 'A1');
  const a2 = buildQuestion('text_input', 'A2');
  const archived = buildQuestion('text_input', 'A-archived', {
    archived_at: '2026-11-01T08:00:00Z',
  });
  const a3 = buildQuestion('number', 'A3');
  const b1 = buildQuestion('date', 'B1');
  const a = buildSection('A', [a1, a2, archived, a3]);
  const gone = buildSection('Gone', [], { archived_at: '2026-11-01T08:00:00Z' });
  const b = buildSection('B', [b1]);
  const sections: AuditSection[] = [a, gone, b];
  return { sections, a, b, gone, a1, a2, a3, archived, b1 };
}

const texts = (sections: AuditSection[]) =>
  sections.map((section) => `${section.title}: ${section.questions.map((q) => q.text).join(',')}`);

describe('builder structure edits', () => {
  it('moves a question down after, or up before, the question it is dropped on', () => {
    const { sections, a1, a3 } = fixture();
    const down = dropQuestion(sections, a1.id, {
      kind: 'question',
      questionId: a3.id,
      isMovingDown: true,
    });
    expect(texts(down)[0]).toBe('A: A2,A-archived,A3,A1');
    const up = dropQuestion(sections, a3.id, {
      kind: 'question',
      questionId: a1.id,
      isMovingDown: false,
    });
    expect(texts(up)[0]).toBe('A: A3,A1,A2,A-archived');
  });

  it('puts a question dropped on a header below at the section’s start, above at the previous live section’s end', () => {
    const { sections, a, b, a2, b1 } = fixture();
    const down = dropQuestion(sections, a2.id, {
      kind: 'section',
      sectionId: b.id,
      isMovingDown: true,
    });
    expect(texts(down)).toEqual(['A: A1,A-archived,A3', 'Gone: ', 'B: A2,B1']);
    // The archived section between A and B is skipped.
    const up = dropQuestion(sections, b1.id, {
      kind: 'section',
      sectionId: b.id,
      isMovingDown: false,
    });
    expect(texts(up)).toEqual(['A: A1,A2,A-archived,A3,B1', 'Gone: ', 'B: ']);
    expect(up[0]).not.toBe(a);
  });

  it('keeps the untouched sections’ objects (memoized rows do not draw again)', () => {
    const { sections, a2, b } = fixture();
    const next = moveQuestionTo(sections, a2.id, sections[0]!.id, 0);
    expect(next[2]).toBe(b);
    expect(next[1]).toBe(sections[1]);
  });

  it('moves a section to the place of the one it is dropped on', () => {
    const { sections, a, b } = fixture();
    expect(moveSection(sections, a.id, b.id).map((section) => section.title)).toEqual([
      'Gone',
      'B',
      'A',
    ]);
  });

  it('tells the direction from the screen order, a header standing for its section', () => {
    const { sections, a, b, a1, b1 } = fixture();
    expect(isBelow(sections, questionDragId(a1.id), headerDropId(b.id))).toBe(true);
    expect(isBelow(sections, questionDragId(b1.id), headerDropId(b.id))).toBe(false);
    expect(isBelow(sections, sectionDragId(b.id), sectionDragId(a.id))).toBe(false);
  });

  it('shows live sections and questions only, the same object while unchanged', () => {
    const { sections } = fixture();
    const shown = visibleSections(sections);
    expect(texts(shown)).toEqual(['A: A1,A2,A3', 'B: B1']);
    expect(visibleSections(sections)[0]).toBe(shown[0]);
  });
});
