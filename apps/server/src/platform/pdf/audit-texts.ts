import type { AuditCsvTexts } from '@mise/shared/audits/csv';
import { type ExportLanguage, type ExportTexts, exportTexts, fillTemplate } from './export-texts';

/*
 * The words of an audit result's documents (issue 16: the PDF, the CSV): the "exports.audit"
 * key of the locale files, in the four interface languages, English where a word is missing.
 */

export type AuditExportWords = Omit<ExportTexts['audit'], 'page'> & {
  page: (number: number, count: number) => string;
};

/** The PDF's words in a language. */
export function auditPdfTexts(language: ExportLanguage): AuditExportWords {
  const words = exportTexts(language).audit;
  return { ...words, page: (number, count) => fillTemplate(words.page, { number, count }) };
}

/** The CSV's words in a language, as auditResultsCsv (@mise/shared/audits/csv) takes them. */
export function auditCsvTexts(language: ExportLanguage): AuditCsvTexts {
  const words = exportTexts(language).audit;
  return { headers: words.csv, types: words.types, yes: words.yes, no: words.no };
}
