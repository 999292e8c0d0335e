// Adds up the Vitest and Playwright JSON reports into the one closing line CI reads.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;

const unitPath = '.ci/results/unit.json';
if (existsSync(unitPath)) {
  const unit = JSON.parse(readFileSync(unitPath, 'utf8'));
  passed += unit.numPassedTests ?? 0;
  failed += unit.numFailedTests ?? 0;
  skipped += (unit.numPendingTests ?? 0) + (unit.numTodoTests ?? 0);
  if (unit.success === false && (unit.numFailedTests ?? 0) === 0) failed += 1;
} else {
  console.log('no unit test report');
  failed += 1;
}

const e2ePath = '.ci/results/e2e.json';
if (existsSync(e2ePath)) {
  const stats = JSON.parse(readFileSync(e2ePath, 'utf8')).stats ?? {};
  passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
  failed += stats.unexpected ?? 0;
  skipped += stats.skipped ?? 0;
} else {
  console.log('no end-to-end test report');
  failed += 1;
}

console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
