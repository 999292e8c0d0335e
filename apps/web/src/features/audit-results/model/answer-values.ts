import type { AuditAnswerInput, AuditQuestion, AuditQuestionOf } from '@mise/shared/audits/schemas';
import { auditLimits } from '@mise/shared/audits/schemas';

/** The live choices of a choice question (archived ones are no longer offered). */
export function liveChoices(question: AuditQuestionOf<'multiple_choice' | 'yes_or_no'>) {
  return question.options.choices.filter((choice) => !choice.archived_at);
}

/** A yes/no answer: the flag and the matching fixed choice (or nothing, to clear it). */
export function yesNoInput(
  question: AuditQuestionOf<'yes_or_no'>,
  value: boolean | null,
): Pick<AuditAnswerInput, 'answer_yes' | 'choices'> {
  if (value === null) return { answer_yes: null, choices: null };
  const choice = liveChoices(question).find((item) => item.text === (value ? 'true' : 'false'));
  return { answer_yes: value, choices: choice ? [choice.id] : null };
}

/** A file's extension as the questions list them (jpeg is jpg), lower case. */
export function fileExtension(name: string): string {
  const extension = name.includes('.') ? (name.split('.').pop()?.toLowerCase() ?? '') : '';
  return extension === 'jpeg' ? 'jpg' : extension;
}

/** The `accept` attribute of a file question's input. */
export function acceptAttribute(question: AuditQuestionOf<'file_upload'>): string {
  return question.options.file_extensions
    .flatMap((extension) => (extension === 'jpg' ? ['.jpg', '.jpeg'] : [`.${extension}`]))
    .join(',');
}

/** Why a chosen file cannot go: its type, its size, or the answer already full; null if it can. */
export function fileRefusal(
  question: AuditQuestionOf<'file_upload'>,
  file: { name: string; size: number },
  fileCount: number,
): 'type' | 'size' | 'count' | null {
  if (!(question.options.file_extensions as readonly string[]).includes(fileExtension(file.name))) {
    return 'type';
  }
  if (file.size > auditLimits.maxFileBytes) return 'size';
  if (fileCount >= auditLimits.filesPerAnswer) return 'count';
  return null;
}

const imageExtensions = new Set(['jpg', 'png', 'gif', 'svg']);

/** Whether a stored answer file is an image (shown as a thumbnail). */
export function isImageFile(urlOrName: string): boolean {
  return imageExtensions.has(fileExtension(urlOrName.split('?')[0] ?? ''));
}

/** A readable name for a stored file: the last part of its address. */
export function fileNameOfUrl(url: string): string {
  const last = (url.split('?')[0] ?? '').split('/').pop() ?? url;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** The answer's value fields emptied, its comment kept. */
export function clearedAnswer(question: AuditQuestion, answer: AuditAnswerInput): AuditAnswerInput {
  const base: AuditAnswerInput = { question_id: question.id, comment: answer.comment ?? null };
  switch (question.type) {
    case 'text_input':
      return { ...base, text: null };
    case 'multiple_choice':
      return { ...base, choices: null };
    case 'yes_or_no':
      return { ...base, choices: null, answer_yes: null };
    case 'file_upload':
      return { ...base, file_urls: null };
    case 'rating':
      return { ...base, rating: null };
    case 'number':
      return { ...base, number: null };
    case 'date':
      return { ...base, date: null };
  }
}

/** Decimals a rating shows for its precision (1 → 0, 0.5 → 1, 0.01 → 2). */
export function precisionDecimals(precision: number): number {
  const text = String(precision);
  return text.includes('.') ? (text.split('.')[1]?.length ?? 0) : 0;
}
