import axe from 'axe-core';
import { expect } from 'vitest';

/**
 * Runs axe (WCAG 2.1 A and AA) on a rendered component and fails on any violation. Colour
 * contrast needs a real layout engine, which the test DOM lacks: the Playwright accessibility
 * pass (e2e/support/a11y.ts) checks it on the running app.
 */
export async function expectNoAxeViolations(element: Element): Promise<void> {
  const results = await axe.run(element, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    rules: { 'color-contrast': { enabled: false } },
  });
  expect(
    results.violations.map(
      (violation) =>
        `${violation.id}: ${violation.help} — ${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(' '))
          .join(' | ')}`,
    ),
  ).toEqual([]);
}
