import type { AuditAnswer, AuditAnswerInput } from '@mise/shared/audits/schemas';

/*
 * Answers not yet accepted by the server, kept on the device per result: a lost connection or
 * a closed tab loses nothing; the perform screen sends them again when it opens.
 */

const prefix = 'mise.auditAnswers.';

export function draftStorageKey(resultId: string): string {
  return `${prefix}${resultId}`;
}

/** The unsent answers of a result, by question id (empty when none or unreadable). */
export function readDrafts(resultId: string): Map<string, AuditAnswerInput> {
  try {
    const raw = window.localStorage.getItem(draftStorageKey(resultId));
    if (!raw) return new Map();
    const parsed = JSON.parse(raw) as { answers?: unknown };
    if (!Array.isArray(parsed.answers)) return new Map();
    const drafts = new Map<string, AuditAnswerInput>();
    for (const answer of parsed.answers as AuditAnswerInput[]) {
      if (answer && typeof answer.question_id === 'string') drafts.set(answer.question_id, answer);
    }
    return drafts;
  } catch {
    return new Map();
  }
}

/** Keeps the unsent answers (removes the entry when there are none). */
export function writeDrafts(resultId: string, drafts: ReadonlyMap<string, AuditAnswerInput>): void {
  try {
    if (drafts.size === 0) window.localStorage.removeItem(draftStorageKey(resultId));
    else
      window.localStorage.setItem(
        draftStorageKey(resultId),
        JSON.stringify({ answers: [...drafts.values()] }),
      );
  } catch {
    // Storage full or unavailable: the server copy is all there is.
  }
}

export function clearDrafts(resultId: string): void {
  try {
    window.localStorage.removeItem(draftStorageKey(resultId));
  } catch {
    // Nothing kept.
  }
}

/** The fields of a stored answer that a save sends back (type, timestamp and score dropped). */
export function toAnswerInput(answer: AuditAnswer): AuditAnswerInput {
  const { type: _type, timestamp: _timestamp, score: _score, ...input } = answer;
  return input;
}

/** The server's answers with the device's unsent ones over them, by question id. */
export function mergeAnswers(
  serverAnswers: readonly AuditAnswer[],
  drafts: ReadonlyMap<string, AuditAnswerInput>,
): Map<string, AuditAnswerInput> {
  const merged = new Map<string, AuditAnswerInput>(
    serverAnswers.map((answer) => [answer.question_id, toAnswerInput(answer)]),
  );
  for (const [questionId, draft] of drafts) merged.set(questionId, draft);
  return merged;
}
