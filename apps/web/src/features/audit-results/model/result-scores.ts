import type { AuditResultSummary } from '@mise/shared/audits/schemas';

/** A result's score in %, or null when it has no scored question (or is not submitted). */
export function resultPercent(
  result: Pick<AuditResultSummary, 'score' | 'max_score'>,
): number | null {
  if (result.score === null || result.max_score === null || result.max_score <= 0) return null;
  return (result.score / result.max_score) * 100;
}

/** A section's score in %, or null when it has nothing scored. */
export function sectionPercent(
  score: { score: number; max_score: number } | undefined,
): number | null {
  if (!score || score.max_score <= 0) return null;
  return (score.score / score.max_score) * 100;
}
