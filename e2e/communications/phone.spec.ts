import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/a11y';
import { apiSession } from '../support/auth';
import { demoDatabaseId } from '../support/content';
import { expect, test } from '../support/fixtures';

/*
 * The communication and training screens on a phone (390 px, issue 18; "every screen works at
 * phone width and passes axe"): the demo's own communication and training, as the demo manager.
 * Nothing runs past the screen's right edge and axe finds no serious violation.
 */

test.use({ signedInAs: 'manager', viewport: { width: 390, height: 844 } });

async function expectFitsThePhone(page: Page, screen: string): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `${screen}: page wider than the screen`).toBeLessThanOrEqual(0);
  await expectNoSeriousA11yViolations(page, screen);
}

test('the communication and training screens fit a 390 px phone and pass axe', async ({ page }) => {
  test.setTimeout(90_000);
  const databaseId = await demoDatabaseId(page.request);
  const api = await apiSession(page.request);
  const { items: communications } = await api.get<{ items: { id: string; name: string }[] }>(
    `/databases/${databaseId}/communications`,
  );
  const communication = communications.find(
    (item) => item.name === 'Rappel : affichage des allergènes',
  );
  expect(communication, 'the demo communication').toBeDefined();
  const { items: trainings } = await api.get<{ items: { id: string; name: string }[] }>(
    '/trainings',
    { database_id: databaseId },
  );
  const training = trainings.find((item) => item.name === 'Hygiène des mains');
  expect(training, 'the demo training').toBeDefined();

  await page.goto(`/communications?database=${databaseId}`);
  await expect(page.getByTestId('communication-card').first()).toBeVisible();
  await expectFitsThePhone(page, 'communications');

  await page.goto(`/communication?id=${communication!.id}`);
  await expect(page.getByTestId('communication-name')).toHaveValue(communication!.name);
  await expectFitsThePhone(page, 'communication editor');

  await page.goto(`/communicationStats?id=${communication!.id}&tab=overview`);
  await expect(page.getByTestId('stats-total-views-value')).toBeVisible();
  await expectFitsThePhone(page, 'communication statistics');

  await page.goto(`/trainings?database=${databaseId}`);
  await expect(page.getByTestId('training-card').first()).toBeVisible();
  await expectFitsThePhone(page, 'trainings');

  await page.goto(`/training?id=${training!.id}`);
  await expect(page.getByTestId('training-name')).toHaveValue(training!.name);
  await expectFitsThePhone(page, 'training editor');

  await page.goto(`/trainingStats?id=${training!.id}&tab=overview`);
  await expect(page.getByTestId('stats-trained-value')).toBeVisible();
  await expectFitsThePhone(page, 'training statistics');
});
