import type en from '../../../../web/src/locales/en.json';
import { localeTexts, type TextLanguage } from '../locale-texts';

export { fillTemplate } from '../locale-texts';

/*
 * The words of the server's documents (history PDF and CSV, punch-card PDF, allergens PDF):
 * the "exports" key of the locale files, read through the one loader (platform/locale-texts).
 */

export type ExportLanguage = TextLanguage;
export type ExportTexts = typeof en.exports;

/** The document words of a language (English where a word is missing). */
export function exportTexts(language: ExportLanguage): ExportTexts {
  return localeTexts('exports', language);
}
