import { expectNoSeriousA11yViolations } from '../support/a11y';
import { expect, test } from '../support/fixtures';

/*
 * The admin technical screen (issue 20, spec 002 §2, §3, §7, §9): the admin opens it from the
 * menu, sees the instance answering and the profiling chart fill (groups of 5 snapshots taken
 * every 6 s), is asked to pick a store before a search, searches Lyon's task-generation events of
 * today, runs generation for Lyon, and watches the output follow (a request made elsewhere
 * appears, a pause stops the lines). Axe at desktop and at 390 px.
 */

test.use({ signedInAs: 'admin' });

const storeName = 'Bistro Lyon Bellecour';

test('an admin watches the server, searches and runs task generation, follows the output', async ({
  page,
}) => {
  // The chart needs 5 snapshots (30 s) when this spec runs on a freshly started server.
  test.setTimeout(120_000);
  await page.goto('/home');
  await page.getByTestId('nav-technical').click();
  await expect(page).toHaveURL(/\/technical/);
  const current = page.locator('[data-testid="technical-instance"][aria-checked="true"]');
  await expect(current).toHaveCount(1);

  // Profiling: the chart, with the latest averaged figures (cpu and memory between 0 and 100).
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('technical-profiling-chart')).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 60_000, intervals: [5_000] });
  await expect(page.getByTestId('technical-profiling-latest')).toHaveText(/\d+(\.\d+)?\s*%/);
  await expectNoSeriousA11yViolations(page, 'technical: profiling');

  // Task generation: no store asks for one; Lyon's events of today list what generation did.
  await page.getByTestId('technical-tab-taskGeneration').click();
  await page.getByTestId('technical-generation-search').click();
  await expect(page.getByTestId('technical-select-store')).toBeVisible();
  await page.getByTestId('technical-generation-store').click();
  await page.getByTestId('technical-generation-store').fill('Lyon');
  await page.getByRole('option', { name: storeName, exact: true }).click();
  await page.getByTestId('technical-generation-search').click();
  const events = page.getByTestId('technical-generation-event');
  await expect(events.first()).toBeVisible();
  await expect(page.getByTestId('technical-generation-events')).toContainText(
    /Store generation started|Task generated/,
  );

  // Run now: the store's day is generated again (nothing new: the day exists), and says so.
  await page.getByTestId('technical-generation-run').click();
  await expect(page.getByTestId('notice-success')).toContainText(/created/i);
  await expectNoSeriousA11yViolations(page, 'technical: task generation');

  // Output: the lines follow; a request logged elsewhere shows up; a pause stops the lines.
  await page.getByTestId('technical-tab-output').click();
  const lines = page.getByTestId('technical-output-line');
  await expect(lines.first()).toBeVisible();
  const marker = `/api/e2e-technical-${Date.now()}`;
  // Any request is logged by the instance that takes it (here the only one).
  await page.request.get(marker);
  await expect(page.getByTestId('technical-output-lines')).toContainText(marker, {
    timeout: 10_000,
  });
  await page.getByTestId('technical-output-toggle').click();
  await page.waitForTimeout(1_500);
  const paused = await lines.count();
  await page.request.get(`${marker}-after-pause`);
  await page.waitForTimeout(2_500);
  await expect(lines).toHaveCount(paused);
  await expect(page.getByTestId('technical-output-lines')).not.toContainText('after-pause');
  await page.getByTestId('technical-output-toggle').click();
  await expect(page.getByTestId('technical-output-lines')).toContainText('after-pause', {
    timeout: 10_000,
  });
  await expectNoSeriousA11yViolations(page, 'technical: output');

  // Phone width: the screen fits, axe passes.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('technical-page')).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(1);
  await expectNoSeriousA11yViolations(page, 'technical: phone');
});
