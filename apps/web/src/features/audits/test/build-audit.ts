import { newQuestion } from '@mise/shared/audits/rules';
import type { Audit, AuditQuestion, AuditSection, AuditSummary } from '@mise/shared/audits/schemas';
import type { AuditQuestionType } from '@mise/shared/audits/scoring';
import { buildId } from '../../../test/factories';

let sequence = 0;
/** Ids of sections, questions and choices: readable in failures, valid item ids. */
export const itemId = (prefix = 'item') => {
  sequence += 1;
  return `${prefix}-${sequence}`;
};

export function buildQuestion(
  type: AuditQuestionType,
  text: string,
  overrides: Partial<AuditQuestion> = {},
): AuditQuestion {
  return { ...newQuestion(type, () => itemId(), text), ...overrides } as AuditQuestion;
}

export function buildSection(
  title: string,
  questions: AuditQuestion[],
  overrides: Partial<AuditSection> = {},
): AuditSection {
  return { id: itemId('section'), title, questions, archived_at: null, ...overrides };
}

export function buildAudit(overrides: Partial<Audit> = {}): Audit {
  return {
    id: buildId(),
    database_id: buildId(),
    name: 'Audit hygiène',
    active: true,
    self_evaluation: false,
    published: false,
    publishing_date: null,
    creation_date: '2026-11-02T09:00:00Z',
    section_count: 0,
    question_count: 0,
    updated_at: '2026-11-02T09:00:00Z',
    version: 1,
    structure_version: 1,
    sections: [],
    result_count: 0,
    ...overrides,
  };
}

export function buildAuditSummary(overrides: Partial<AuditSummary> = {}): AuditSummary {
  return {
    id: buildId(),
    database_id: buildId(),
    name: 'Audit hygiène',
    active: true,
    self_evaluation: false,
    published: false,
    publishing_date: null,
    creation_date: '2026-11-02T09:00:00Z',
    section_count: 2,
    question_count: 7,
    ...overrides,
  };
}

/** An audit of `sectionCount` sections of `questionsPerSection` yes/no and text questions. */
export function buildLargeAudit(sectionCount: number, questionsPerSection: number): Audit {
  const sections = Array.from({ length: sectionCount }, (_, sectionIndex) =>
    buildSection(
      `Section ${sectionIndex + 1}`,
      Array.from({ length: questionsPerSection }, (_, questionIndex) =>
        buildQuestion(
          questionIndex % 2 === 0 ? 'yes_or_no' : 'text_input',
          `Question ${sectionIndex + 1}.${questionIndex + 1} — la température est-elle relevée ?`,
        ),
      ),
    ),
  );
  return buildAudit({
    sections,
    section_count: sectionCount,
    question_count: sectionCount * questionsPerSection,
  });
}
