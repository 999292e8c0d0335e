import { expectNoSeriousA11yViolations } from '../support/a11y';
import { apiSession } from '../support/auth';
import { expect, test } from '../support/fixtures';

/*
 * An inspector's read-only link (issue 21): the owner of the Lyon store creates a link for last
 * week on the store screen and copies it; the inspector opens it on a phone, signed out, and
 * reads a day's history and a task's detail; the owner revokes the link, and the inspector's
 * page then says it is no longer valid.
 */

test.use({ signedInAs: 'customer' });

const storeName = 'Bistro Lyon Bellecour';
const phone = { width: 390, height: 844 };

test('the owner gives an inspector a link to last week of Lyon, the inspector reads a day from a phone, the owner revokes it', async ({
  page,
  newSignedOutContext,
}) => {
  test.setTimeout(90_000);
  const label = `E2E inspection ${Date.now().toString(36)}`;
  const ownerApi = await apiSession(page.request);
  const { items } = await ownerApi.get<{ items: { id: string; name: string }[] }>('/stores', {
    search: 'Lyon',
  });
  const storeId = items.find((item) => item.name === storeName)!.id;

  // 1. The owner creates the link on the store screen: last week, 7 days, a label.
  await page.goto(`/storeDatabase?id=${storeId}`);
  const section = page.getByTestId('inspector-links');
  await expect(section).toBeVisible();
  await section.getByTestId('inspector-link-new').click();
  const dialog = page.getByTestId('inspector-link-dialog');
  await dialog.getByLabel('Label').fill(label);
  await page.getByTestId('inspector-link-submit').click();
  const created = page.getByTestId('inspector-link-created');
  // (A Mantine modal's root has no box of its own: its content is what shows.)
  await expect(created.getByTestId('inspector-link-url')).toBeVisible();
  const url = await created.getByTestId('inspector-link-url').inputValue();
  expect(url).toMatch(/\/inspect#[A-Za-z0-9_-]{43}$/);
  await created.getByTestId('inspector-link-done').click();
  const row = section.getByTestId('inspector-link').filter({ hasText: label });
  await expect(row.getByTestId('inspector-link-status')).toHaveText('Active');
  // The list never shows the token again.
  await expect(section).not.toContainText(url.split('#')[1]!);

  // 2. The inspector opens it signed out, on a phone: the store, the period, a day's rows.
  const inspectorContext = await newSignedOutContext();
  const inspector = await inspectorContext.newPage();
  await inspector.setViewportSize(phone);
  await inspector.goto(url);
  await expect(inspector.getByTestId('inspection-store')).toHaveText(storeName);
  await expect(inspector.getByTestId('inspection-period')).toContainText('Period:');
  await expect(inspector.getByTestId('navigation-burger')).toHaveCount(0);
  const rows = inspector.getByTestId('inspection-row');
  await expect(rows.first()).toBeVisible();
  await expectNoSeriousA11yViolations(inspector, 'inspector page (phone)');

  await rows.first().getByTestId('inspection-row-open').click();
  const detail = inspector.getByTestId('inspection-task');
  await expect(detail).toBeVisible();
  await expect(detail.getByTestId('inspection-result')).toBeVisible();
  await expectNoSeriousA11yViolations(inspector, 'inspector task detail (phone)');
  await inspector.keyboard.press('Escape');
  await expect(detail).toHaveCount(0);

  // Another day of the period.
  await inspector.getByTestId('inspection-next-day').click();
  await expect(rows.first()).toBeVisible();

  // The owner sees the use.
  await page.reload();
  await expect(row.getByTestId('inspector-link-uses')).toContainText('Opened');
  await expectNoSeriousA11yViolations(page, 'store screen with inspector links');

  // 3. The owner revokes it; the inspector's page then says so.
  await row.getByTestId('inspector-link-revoke').click();
  await page.getByTestId('confirm-dialog-confirm').click();
  await expect(row.getByTestId('inspector-link-status')).toHaveText('Revoked');

  await inspector.reload();
  const invalid = inspector.getByTestId('inspection-invalid');
  await expect(invalid).toContainText('This link is no longer valid');
  await expect(inspector.getByTestId('inspection-row')).toHaveCount(0);
});
