import { describe, expect, it } from 'vitest';
import {
  type AuditCsvTexts,
  auditCsvColumns,
  auditCsvFileName,
  auditResultsCsv,
  reportSections,
} from './csv';
import type { AuditAnswer, AuditQuestion, AuditResult, AuditSection } from './schemas';

/*
 * No CSV reader library is installed (only csv-stringify, the writer): the file is read back
 * with a strict RFC 4180 reader (';' separated, CRLF records, quoted fields with doubled quotes)
 * that throws on anything else, so a malformed file fails the test.
 */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let index = 0;
  while (index < text.length) {
    if (text[index] === '"') {
      index += 1;
      for (;;) {
        const quote = text.indexOf('"', index);
        if (quote === -1) throw new Error('unterminated quoted field');
        field += text.slice(index, quote);
        index = quote + 1;
        if (text[index] !== '"') break;
        field += '"';
        index += 1;
      }
      if (index < text.length && text[index] !== ';' && text[index] !== '\r')
        throw new Error(`text after a quoted field at ${index}`);
    } else {
      while (index < text.length && text[index] !== ';' && text[index] !== '\r') {
        if (text[index] === '"' || text[index] === '\n')
          throw new Error(`unquoted quote or line feed at ${index}`);
        field += text[index];
        index += 1;
      }
    }
    row.push(field);
    field = '';
    if (text[index] === ';') {
      index += 1;
    } else if (text[index] === '\r') {
      if (text[index + 1] !== '\n') throw new Error(`bare CR at ${index}`);
      rows.push(row);
      row = [];
      index += 2;
    } else {
      throw new Error('the last record has no CRLF');
    }
  }
  return rows;
}

const texts: AuditCsvTexts = {
  headers: {
    audit: 'Audit',
    store: 'Établissement',
    auditor: 'Auditeur',
    start: 'Début',
    end: 'Fin',
    score: 'Score',
    max_score: 'Score maximum',
    percent: 'Score (%)',
    section: 'Section',
    question: 'Question',
    type: 'Type',
    answer: 'Réponse',
    answer_score: 'Points de la réponse',
    comment: 'Commentaire',
    answered_at: 'Répondu le',
  },
  types: {
    text_input: 'Texte',
    multiple_choice: 'Choix multiple',
    yes_or_no: 'Oui / Non',
    file_upload: 'Fichier',
    rating: 'Note',
    number: 'Nombre',
    date: 'Date',
  },
  yes: 'Oui',
  no: 'Non',
};

const base = { required: false, conditions: [], archived_at: null };
const yesNo: AuditQuestion = {
  ...base,
  id: 'q-yes',
  text: 'Sol propre ?',
  type: 'yes_or_no',
  score: 1,
  options: {
    multiple_selection: false,
    choices: [
      { id: 'c-true', text: 'true', score: 1, archived_at: null },
      { id: 'c-false', text: 'false', score: 0, archived_at: null },
    ],
  },
};
const choice: AuditQuestion = {
  ...base,
  id: 'q-choice',
  text: 'Produits présents',
  type: 'multiple_choice',
  score: 5,
  options: {
    multiple_selection: true,
    choices: [
      { id: 'c-a', text: 'Crème; fraîche', score: 2, archived_at: null },
      { id: 'c-b', text: 'Żurek "maison"', score: 3, archived_at: null },
      { id: 'c-c', text: 'Pain', score: 1, archived_at: null },
    ],
  },
};
const text: AuditQuestion = {
  ...base,
  id: 'q-text',
  text: 'Remarques',
  type: 'text_input',
  score: null,
  options: { max_characters: null },
};
const conditional: AuditQuestion = {
  ...base,
  id: 'q-cond',
  text: 'Pourquoi sale ?',
  type: 'text_input',
  score: 1,
  conditions: [{ question_id: 'q-yes', value: false }],
  options: { max_characters: null },
};
const file: AuditQuestion = {
  ...base,
  id: 'q-file',
  text: 'Photo',
  type: 'file_upload',
  score: 1,
  options: { file_extensions: ['jpg'] },
};
const rating: AuditQuestion = {
  ...base,
  id: 'q-rating',
  text: 'Note globale',
  type: 'rating',
  score: 1,
  options: { min_rating: 0, max_rating: 10, precision: 0.5 },
};
const number: AuditQuestion = {
  ...base,
  id: 'q-number',
  text: 'Température',
  type: 'number',
  score: 1,
  options: { min_number: -30, max_number: 10 },
};
const date: AuditQuestion = {
  ...base,
  id: 'q-date',
  text: 'Date du contrôle',
  type: 'date',
  score: 1,
  options: { date_limit: 'no_limit' },
};
const unanswered: AuditQuestion = { ...text, id: 'q-empty', text: 'Question sans réponse' };
const archived: AuditQuestion = {
  ...text,
  id: 'q-old',
  text: 'Ancienne question',
  archived_at: '2026-11-01T10:00:00Z',
};
const archivedEmpty: AuditQuestion = { ...archived, id: 'q-old-empty', text: 'Jamais posée' };

const sections: AuditSection[] = [
  {
    id: 's-1',
    title: 'Hygiène',
    archived_at: null,
    questions: [yesNo, conditional, choice, text, unanswered, archived, archivedEmpty],
  },
  { id: 's-2', title: 'Contrôles', archived_at: null, questions: [file, rating, number, date] },
  {
    id: 's-old',
    title: 'Section archivée',
    archived_at: '2026-11-01T10:00:00Z',
    questions: [{ ...text, id: 'q-gone', text: 'Dans une section archivée' }],
  },
];

const at = '2026-11-24T09:15:00Z';
function answer(values: Partial<AuditAnswer> & Pick<AuditAnswer, 'question_id' | 'type'>) {
  return { timestamp: at, score: null, ...values } as AuditAnswer;
}

const answers: AuditAnswer[] = [
  answer({ question_id: 'q-yes', type: 'yes_or_no', choices: ['c-true'], score: 1 }),
  answer({
    question_id: 'q-choice',
    type: 'multiple_choice',
    choices: ['c-a', 'c-b'],
    score: 5,
    comment: 'Vérifié avec le chef;\n"OK" dit-il',
  }),
  answer({ question_id: 'q-text', type: 'text_input', text: '=HYPERLINK("http://x")' }),
  answer({ question_id: 'q-old', type: 'text_input', text: 'Réponse archivée' }),
  answer({
    question_id: 'q-file',
    type: 'file_upload',
    file_urls: ['/api/files/audits/abc/photo%20cuisine.jpg', '/api/files/audits/abc/x.jpg'],
    score: 1,
  }),
  answer({ question_id: 'q-rating', type: 'rating', rating: 7.5, score: 1 }),
  answer({ question_id: 'q-number', type: 'number', number: -18, score: 1 }),
  answer({ question_id: 'q-date', type: 'date', date: '2026-11-20', score: 1 }),
];

function result(values: Partial<AuditResult> = {}): AuditResult {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    audit_id: '00000000-0000-4000-8000-000000000002',
    database_id: '00000000-0000-4000-8000-000000000003',
    store: { id: '00000000-0000-4000-8000-000000000004', name: 'Bistro Łódź' },
    auditor: { kind: 'user', id: '00000000-0000-4000-8000-000000000005', name: 'Zofia Wójcik' },
    status: 'submitted',
    start_date: '2026-11-24T08:05:00Z',
    end_date: '2026-11-24T09:30:00Z',
    score: 9,
    max_score: 11,
    has_pdf: false,
    path: 'databases/x/audits/y/audit_results/z',
    answered_count: 8,
    audit_name: 'Audit hygiène',
    structure_version: 1,
    sections,
    answers,
    section_scores: [],
    version: 1,
    ...values,
  };
}

/** The file's records keyed by column (the header checked), without the byte-order mark. */
function records(csv: string) {
  expect(csv.startsWith('\uFEFF')).toBe(true);
  const [header, ...rows] = parseCsv(csv.slice(1));
  expect(header).toEqual(auditCsvColumns.map((column) => texts.headers[column]));
  for (const row of rows) expect(row).toHaveLength(auditCsvColumns.length);
  return rows.map((row) =>
    Object.fromEntries(auditCsvColumns.map((column, index) => [column, row[index] ?? ''])),
  );
}

describe('auditResultsCsv', () => {
  it('writes one row per listed question, every answer read back whole', () => {
    const rows = records(auditResultsCsv([result()], texts, { timeZone: 'Europe/Paris' }));
    expect(rows.map((row) => row.question)).toEqual([
      'Sol propre ?',
      'Produits présents',
      'Remarques',
      'Question sans réponse',
      'Ancienne question',
      'Photo',
      'Note globale',
      'Température',
      'Date du contrôle',
    ]);
    const byQuestion = new Map(rows.map((row) => [row.question, row]));
    expect(byQuestion.get('Sol propre ?')).toMatchObject({ answer: 'Oui', answer_score: '1' });
    expect(byQuestion.get('Produits présents')).toMatchObject({
      answer: 'Crème; fraîche, Żurek "maison"',
      type: 'Choix multiple',
      answer_score: '5',
      comment: 'Vérifié avec le chef;\n"OK" dit-il',
    });
    // The formula guard: the cell reads as text, apostrophe first.
    expect(byQuestion.get('Remarques')?.answer).toBe(`'=HYPERLINK("http://x")`);
    expect(byQuestion.get('Remarques')?.answer_score).toBe('');
    expect(byQuestion.get('Question sans réponse')).toMatchObject({ answer: '', answered_at: '' });
    expect(byQuestion.get('Ancienne question')?.answer).toBe('Réponse archivée');
    expect(byQuestion.get('Photo')?.answer).toBe('photo cuisine.jpg, x.jpg');
    expect(byQuestion.get('Note globale')?.answer).toBe('7.5');
    expect(byQuestion.get('Température')?.answer).toBe('-18');
    expect(byQuestion.get('Date du contrôle')?.answer).toBe('20/11/2026');
    for (const row of rows) {
      expect(row).toMatchObject({
        audit: 'Audit hygiène',
        store: 'Bistro Łódź',
        auditor: 'Zofia Wójcik',
        start: '24/11/2026 09:05',
        end: '24/11/2026 10:30',
        score: '9',
        max_score: '11',
        percent: '81.82',
      });
    }
    expect(byQuestion.get('Sol propre ?')?.answered_at).toBe('24/11/2026 10:15');
    expect(byQuestion.get('Sol propre ?')?.section).toBe('Hygiène');
    expect(byQuestion.get('Photo')?.section).toBe('Contrôles');
  });

  it('lists a conditional question only while its condition holds', () => {
    const no = answers.map((item) =>
      item.question_id === 'q-yes' ? { ...item, choices: ['c-false'], score: 0 } : item,
    );
    const rows = records(
      auditResultsCsv([result({ answers: no })], texts, { timeZone: 'Europe/Paris' }),
    );
    expect(rows.find((row) => row.question === 'Sol propre ?')?.answer).toBe('Non');
    expect(rows.find((row) => row.question === 'Pourquoi sale ?')).toMatchObject({
      answer: '',
      answer_score: '0',
    });
  });

  it('writes each result in its own zone, file names given, and a row for an empty result', () => {
    const empty = result({
      id: '00000000-0000-4000-8000-000000000009',
      store: { id: '00000000-0000-4000-8000-000000000010', name: 'Kraków' },
      sections: [],
      answers: [],
      score: null,
      max_score: null,
      end_date: null,
    });
    const csv = auditResultsCsv([result(), empty], texts, {
      timeZone: (item) => (item.store.name === 'Kraków' ? 'America/New_York' : 'UTC'),
      fileNames: { '/api/files/audits/abc/x.jpg': 'Réserve – froid.jpg' },
    });
    const rows = records(csv);
    expect(rows.find((row) => row.question === 'Photo')?.answer).toBe(
      'photo cuisine.jpg, Réserve – froid.jpg',
    );
    expect(rows[0]?.start).toBe('24/11/2026 08:05');
    expect(rows.at(-1)).toMatchObject({
      store: 'Kraków',
      start: '24/11/2026 03:05',
      end: '',
      score: '',
      percent: '',
      question: '',
    });
    // The UTF-8 bytes carry the byte-order mark and the Polish letters.
    const bytes = Buffer.from(csv, 'utf8');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.toString('utf8')).toContain('Kraków');
  });
});

describe('reportSections', () => {
  it('keeps archived sections and questions out unless they hold an answer', () => {
    const listed = reportSections(sections, answers);
    expect(listed.map((item) => item.section.id)).toEqual(['s-1', 's-2']);
    const withAnswer = reportSections(sections, [
      ...answers,
      answer({ question_id: 'q-gone', type: 'text_input', comment: 'Vu' }),
    ]);
    const old = withAnswer.find((item) => item.section.id === 's-old');
    expect(old?.questions.map((item) => [item.question.id, item.isArchived])).toEqual([
      ['q-gone', true],
    ]);
  });
});

describe('auditCsvFileName', () => {
  it('names the file with the audit in plain letters and the day', () => {
    expect(auditCsvFileName('Audit hygiène — Łódź / été', '2026-11-24')).toBe(
      'Audit-hygiene-Lodz-ete-2026-11-24.csv',
    );
    expect(auditCsvFileName('***', new Date('2026-11-24T23:30:00Z'))).toBe('audit-2026-11-24.csv');
  });
});
