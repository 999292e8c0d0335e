import { IANAZone } from 'luxon';
import { writeCsv } from '../csv/write-csv';
import { liveSections, yesNoAnswer } from './rules';
import type { AuditAnswer, AuditQuestion, AuditResult, AuditSection } from './schemas';
import {
  type AuditQuestionType,
  answerScore,
  formatPercent,
  isAnswered,
  isQuestionVisible,
} from './scoring';

/*
 * What a result's documents list (the PDF on the server, the CSV here; spec 002 §2 'open PDF',
 * 'open CSV', issue 16) and how an answer reads in them, then the CSV itself: one row per
 * result and listed question, written by the product's one CSV writer (';' separated, RFC 4180
 * quoting, CRLF, the formula guard, a UTF-8 byte-order mark so Excel reads the accents).
 * Numbers keep a dot decimal (like the history CSV); instants read dd/mm/yyyy HH:MM in a zone.
 */

/** A listed question: its answer (if any) and whether it shows (live, its conditions hold). */
export type ReportQuestion = {
  question: AuditQuestion;
  answer: AuditAnswer | undefined;
  /** Live and shown by its conditions: an unanswered one reads 'answer-missing'. */
  isVisible: boolean;
  /** Archived itself or in an archived section (listed only because it holds an answer). */
  isArchived: boolean;
};
export type ReportSection = { section: AuditSection; questions: ReportQuestion[] };

/** Whether an answer holds a value or a comment. */
function hasContent(question: AuditQuestion, answer: AuditAnswer | undefined): boolean {
  return isAnswered(question, answer) || (answer?.comment ?? '').trim() !== '';
}

/**
 * The sections and questions a result's documents list, in the structure's order: every live
 * section, with its questions that show (conditions applied, answered or not), plus any
 * archived or hidden question that holds an answer (an archived section then lists too), so
 * the documents hold every answer.
 */
export function reportSections(
  sections: readonly AuditSection[],
  answers: readonly AuditAnswer[],
): ReportSection[] {
  const live = liveSections([...sections]).flatMap((section) => section.questions);
  const byId = new Map(live.map((question) => [question.id, question]));
  const answerById = new Map(answers.map((answer) => [answer.question_id, answer]));
  const listed: ReportSection[] = [];
  for (const section of sections) {
    const questions: ReportQuestion[] = [];
    for (const question of section.questions) {
      const answer = answerById.get(question.id);
      const isArchived = Boolean(section.archived_at || question.archived_at);
      const isVisible = !isArchived && isQuestionVisible(question, byId, answerById);
      if (isVisible || hasContent(question, answer)) {
        questions.push({ question, answer, isVisible, isArchived });
      }
    }
    if (!section.archived_at || questions.length > 0) listed.push({ section, questions });
  }
  return listed;
}

export type AnswerTextOptions = {
  yes: string;
  no: string;
  /** A number as the document prints it (default: dot decimal). */
  formatNumber?: (value: number) => string;
  /** An answer file's name (default: the address's last segment). */
  fileName?: (url: string) => string;
};

/** The last segment of a file's address, decoded: what it is called when no name is known. */
export function fileNameOfUrl(url: string): string {
  const path = url.split(/[?#]/)[0] ?? url;
  const last = path.slice(path.lastIndexOf('/') + 1) || url;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** 'YYYY-MM-DD' → 'dd/mm/yyyy' (spec 002 §1). */
export function formatAnswerDate(day: string): string {
  const [year, month, date] = day.slice(0, 10).split('-');
  return year && month && date ? `${date}/${month}/${year}` : day;
}

/**
 * An answer's value as the documents print it, as items (the chosen choices, the files; one
 * item for any other type), [] when unanswered. A yes/no answer reads yes or no (its choices'
 * texts are 'true' and 'false'); a date reads dd/mm/yyyy.
 */
export function answerItems(
  question: AuditQuestion,
  answer: AuditAnswer | undefined,
  options: AnswerTextOptions,
): string[] {
  if (!answer || !isAnswered(question, answer)) return [];
  const formatNumber = options.formatNumber ?? String;
  switch (question.type) {
    case 'text_input':
      return [answer.text ?? ''];
    case 'yes_or_no': {
      const value = yesNoAnswer(question, answer);
      return value === null ? [] : [value ? options.yes : options.no];
    }
    case 'multiple_choice': {
      const chosen = new Set(answer.choices ?? []);
      return question.options.choices
        .filter((choice) => chosen.has(choice.id))
        .map((choice) => choice.text);
    }
    case 'file_upload':
      return (answer.file_urls ?? []).map(options.fileName ?? fileNameOfUrl);
    case 'rating':
      return typeof answer.rating === 'number' ? [formatNumber(answer.rating)] : [];
    case 'number':
      return typeof answer.number === 'number' ? [formatNumber(answer.number)] : [];
    case 'date':
      return answer.date ? [formatAnswerDate(answer.date)] : [];
  }
}

/**
 * What a listed question earns: the answer's stored score (set on submission), else the
 * scoring rules' (0 unanswered); null when the question is not scored, or when it is hidden
 * or archived and its answer holds no stored score (it then counts for nothing).
 */
export function reportScore(item: ReportQuestion): number | null {
  if (item.question.score === null) return null;
  if (typeof item.answer?.score === 'number') return item.answer.score;
  return item.isVisible ? answerScore(item.question, item.answer) : null;
}

const twoDigits = (value: number) => (value < 10 ? `0${value}` : String(value));

/**
 * Formats ISO instants as 'dd/mm/yyyy HH:MM' in a zone (UTC when luxon does not know it),
 * fast: the zone's offset is asked once per day of time (a day holding an offset change asks
 * for each instant), the rest is arithmetic. '' for an unreadable instant.
 */
export function zonedDateTime(timeZone: string): (iso: string) => string {
  const zone = IANAZone.create(IANAZone.isValidZone(timeZone) ? timeZone : 'UTC');
  const day = 86_400_000;
  const dayOffsets = new Map<number, number | null>();
  return (iso) => {
    const milliseconds = Date.parse(iso);
    if (!Number.isFinite(milliseconds)) return '';
    const key = Math.floor(milliseconds / day);
    let offset = dayOffsets.get(key);
    if (offset === undefined) {
      const first = zone.offset(key * day);
      offset = first === zone.offset((key + 1) * day - 1) ? first : null;
      dayOffsets.set(key, offset);
    }
    const local = new Date(milliseconds + (offset ?? zone.offset(milliseconds)) * 60_000);
    return (
      `${twoDigits(local.getUTCDate())}/${twoDigits(local.getUTCMonth() + 1)}/` +
      `${local.getUTCFullYear()} ${twoDigits(local.getUTCHours())}:${twoDigits(local.getUTCMinutes())}`
    );
  };
}

/** The CSV's columns, in order. */
export const auditCsvColumns = [
  'audit',
  'store',
  'auditor',
  'start',
  'end',
  'score',
  'max_score',
  'percent',
  'section',
  'question',
  'type',
  'answer',
  'answer_score',
  'comment',
  'answered_at',
] as const;
export type AuditCsvColumn = (typeof auditCsvColumns)[number];

/** The CSV's words in the reader's language (the server reads them from the locale files). */
export type AuditCsvTexts = {
  headers: Record<AuditCsvColumn, string>;
  types: Record<AuditQuestionType, string>;
  yes: string;
  no: string;
};

export type AuditCsvOptions = {
  /** The zone dates read in: one for all, or each result's (its store's). */
  timeZone: string | ((result: AuditResult) => string);
  /** Answer files' names by address (default: the address's last segment). */
  fileNames?: Readonly<Record<string, string>>;
};

const numberCell = (value: number | null | undefined): string =>
  typeof value === 'number' ? String(value) : '';

/**
 * The results as CSV (spec 002 §2 'open CSV', issue 16): a header, then per result one row per
 * listed question (reportSections: unanswered shown questions included, with an empty answer)
 * carrying the result's store, auditor, start and end, score, maximum and percentage; then the
 * section, the question, its type, the answer (items joined by ', '), its score, the comment
 * and when it was answered. A result listing no question still has one row.
 */
export function auditResultsCsv(
  results: readonly AuditResult[],
  texts: AuditCsvTexts,
  options: AuditCsvOptions,
): string {
  const rows: string[][] = [auditCsvColumns.map((column) => texts.headers[column])];
  const formatters = new Map<string, (iso: string) => string>();
  const formatterOf = (result: AuditResult) => {
    const zone =
      typeof options.timeZone === 'function' ? options.timeZone(result) : options.timeZone;
    let format = formatters.get(zone);
    if (!format) {
      format = zonedDateTime(zone);
      formatters.set(zone, format);
    }
    return format;
  };
  const fileNames = options.fileNames;
  const answerOptions: AnswerTextOptions = {
    yes: texts.yes,
    no: texts.no,
    fileName: (url) => fileNames?.[url] ?? fileNameOfUrl(url),
  };
  for (const result of results) {
    const format = formatterOf(result);
    const resultCells = [
      result.audit_name,
      result.store.name,
      result.auditor.name,
      format(result.start_date),
      result.end_date ? format(result.end_date) : '',
      numberCell(result.score),
      numberCell(result.max_score),
      typeof result.score === 'number' && result.max_score
        ? formatPercent((result.score / result.max_score) * 100)
        : '',
    ];
    let count = 0;
    for (const { section, questions } of reportSections(result.sections, result.answers)) {
      for (const item of questions) {
        const { question, answer } = item;
        rows.push([
          ...resultCells,
          section.title,
          question.text,
          texts.types[question.type],
          answerItems(question, answer, answerOptions).join(', '),
          numberCell(reportScore(item)),
          answer?.comment ?? '',
          answer?.timestamp ? format(answer.timestamp) : '',
        ]);
        count += 1;
      }
    }
    if (count === 0) rows.push([...resultCells, '', '', '', '', '', '', '']);
  }
  return writeCsv(rows, { separator: ';', hasByteOrderMark: true });
}

/** Letters without accents (ł, ß and æ have no decomposition of their own). */
const plainLetters: Record<string, string> = { ł: 'l', Ł: 'L', ß: 'ss', æ: 'ae', Æ: 'AE', ø: 'o' };

/**
 * The CSV's file name: the audit's name in plain letters, digits and dashes (at most 80),
 * then the day, YYYY-MM-DD (a Date reads its UTC day; a string its first 10 characters).
 */
export function auditCsvFileName(auditName: string, date: Date | string): string {
  const day = typeof date === 'string' ? date.slice(0, 10) : date.toISOString().slice(0, 10);
  const slug = auditName
    .replace(/[łŁßæÆø]/g, (letter) => plainLetters[letter] ?? letter)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return `${slug || 'audit'}-${day}.csv`;
}
