import type {
  Audit,
  AuditAnswer,
  AuditQuestion,
  AuditResult,
  AuditResultSummary,
  AuditSection,
} from '@mise/shared/audits/schemas';
import { buildId } from '../../../test/factories';

export const databaseId = buildId();
export const auditId = buildId();
export const storeId = buildId();

type QuestionOverrides = Partial<Omit<AuditQuestion, 'type' | 'options'>>;

export function yesNoQuestion(id: string, text: string, overrides: QuestionOverrides = {}) {
  return {
    id,
    text,
    type: 'yes_or_no',
    score: 1,
    required: false,
    conditions: [],
    archived_at: null,
    options: {
      multiple_selection: false,
      choices: [
        { id: `${id}-yes`, text: 'true', score: 1, archived_at: null },
        { id: `${id}-no`, text: 'false', score: 0, archived_at: null },
      ],
    },
    ...overrides,
  } as AuditQuestion;
}

export function textQuestion(id: string, text: string, overrides: QuestionOverrides = {}) {
  return {
    id,
    text,
    type: 'text_input',
    score: null,
    required: false,
    conditions: [],
    archived_at: null,
    options: { max_characters: 200 },
    ...overrides,
  } as AuditQuestion;
}

export function choiceQuestion(
  id: string,
  text: string,
  choices: string[],
  overrides: QuestionOverrides = {},
) {
  return {
    id,
    text,
    type: 'multiple_choice',
    score: 1,
    required: false,
    conditions: [],
    archived_at: null,
    options: {
      multiple_selection: false,
      choices: choices.map((choice, index) => ({
        id: `${id}-c${index}`,
        text: choice,
        score: index === 0 ? 1 : 0,
        archived_at: null,
      })),
    },
    ...overrides,
  } as AuditQuestion;
}

export function section(id: string, title: string, questions: AuditQuestion[]): AuditSection {
  return { id, title, questions, archived_at: null };
}

export function buildAudit(overrides: Partial<Audit> = {}): Audit {
  return {
    id: auditId,
    database_id: databaseId,
    name: 'Audit hygiène',
    active: true,
    self_evaluation: false,
    published: true,
    publishing_date: '2026-11-01T08:00:00Z',
    creation_date: '2026-10-01T08:00:00Z',
    section_count: 0,
    question_count: 0,
    updated_at: '2026-11-01T08:00:00Z',
    version: 1,
    structure_version: 1,
    sections: [],
    result_count: 0,
    ...overrides,
  };
}

export function buildAnswer(
  question: AuditQuestion,
  fields: Partial<AuditAnswer> = {},
): AuditAnswer {
  return {
    question_id: question.id,
    type: question.type,
    timestamp: '2026-11-20T09:00:00Z',
    score: null,
    ...fields,
  };
}

export function buildResult(overrides: Partial<AuditResult> = {}): AuditResult {
  const id = overrides.id ?? buildId();
  return {
    id,
    audit_id: auditId,
    database_id: databaseId,
    store: { id: storeId, name: 'Bistro Opéra' },
    auditor: { kind: 'user', id: buildId(), name: 'Camille Martin' },
    status: 'in_progress',
    start_date: '2026-11-20T08:00:00Z',
    end_date: null,
    score: null,
    max_score: null,
    has_pdf: false,
    path: `databases/${databaseId}/audits/${auditId}/audit_results/${id}`,
    answered_count: 0,
    audit_name: 'Audit hygiène',
    structure_version: 1,
    sections: [],
    answers: [],
    section_scores: [],
    version: 1,
    ...overrides,
  };
}

/** The list entry of a result (what GET /api/audits/:id/results sends). */
export function summaryOf(result: AuditResult): AuditResultSummary {
  const {
    audit_name: _name,
    structure_version: _version,
    sections: _sections,
    answers: _answers,
    section_scores: _scores,
    version: _resultVersion,
    ...summary
  } = result;
  return summary;
}
