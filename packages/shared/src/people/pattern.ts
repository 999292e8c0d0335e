import { patternPoints } from '../tasks/constants';

/** The points of the pattern grid, 0 to 8 (spec 000 §9: 9 points, read row by row). */
export const patternPointIndexes = Array.from({ length: patternPoints }, (_, index) => index);

/**
 * A tap on the pattern grid, the same on the back-office and the tablet (spec 000 §5, spec 001
 * §2.11): a new point is appended; tapping a point already in the pattern truncates the
 * pattern at that point, which stays its last one (the points drawn after it go). A tablet drag
 * that ends on a point fires a tap there, which leaves what was drawn. "Clear" empties it.
 */
export function tapPatternPoint(pattern: readonly number[], point: number): number[] {
  if (!Number.isInteger(point) || point < 0 || point >= patternPoints) return [...pattern];
  const index = pattern.indexOf(point);
  if (index >= 0) return pattern.slice(0, index + 1);
  return [...pattern, point];
}
