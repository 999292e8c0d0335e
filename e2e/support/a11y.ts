import { appendFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** Set to a file path to append one line per check ("<screen>: <n> serious/critical, ..."). */
const reportFile = process.env.MISE_A11Y_REPORT;

/**
 * Runs axe (WCAG 2.1 A and AA rules) on the page as it is and fails on any serious or critical
 * violation, listing each rule with the elements it found. Call it once the screen shows its
 * data (the check reads the page as it is at that moment).
 */
export async function expectNoSeriousA11yViolations(page: Page, screen: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const serious = results.violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
  if (reportFile) {
    const others = results.violations.length - serious.length;
    appendFileSync(
      reportFile,
      `${screen}: ${serious.length} serious/critical, ${others} moderate/minor${
        results.violations.length
          ? ` (${results.violations.map((violation) => `${violation.id}:${violation.impact}`).join(', ')})`
          : ''
      }\n`,
    );
  }
  expect(
    serious.map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.help} — ${violation.nodes
          .slice(0, 5)
          .map((node) => node.target.join(' '))
          .join(' | ')}`,
    ),
    `axe on ${screen}`,
  ).toEqual([]);
}

/**
 * Runs axe's heading-order rule (a best practice, outside the WCAG tags above, that Lighthouse's
 * accessibility score counts): no heading level skipped after the page's h1.
 */
export async function expectHeadingsInOrder(page: Page, screen: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withRules(['heading-order']).analyze();
  expect(
    results.violations.flatMap((violation) => violation.nodes.map((node) => node.html)),
    `heading order on ${screen}`,
  ).toEqual([]);
}
