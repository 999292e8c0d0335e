import { readFileSync } from 'node:fs';
import { expectNoSeriousA11yViolations } from '../support/a11y';
import { apiSession } from '../support/auth';
import { expect, test } from '../support/fixtures';
import { downloadedPdfText } from '../support/pdf';

/*
 * A manager's week of punch cards (spec 000 §2, §4, §9): the demo's Lille Centre store (the
 * manager's own) has one employee badged in twice today. The manager opens the week, sees the
 * breaking entry flagged, cannot save until it is fixed, deletes it, saves, and exports the
 * CSV and the PDF.
 */

test.use({ signedInAs: 'manager' });

const storeName = 'Bistro Lille Centre';

test('a manager opens the week, sees the incoherent day flagged, fixes it, saves, and exports the CSV and the PDF', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const api = await apiSession(page.request);
  const { items } = await api.get<{ items: { id: string; name: string }[] }>('/stores', {
    search: 'Lille',
  });
  const storeId = items.find((item) => item.name === storeName)!.id;

  await page.goto(`/punchCards?store=${storeId}`);
  await expect(page.getByTestId('punch-cards-page')).toBeVisible();
  await expect(page.getByTestId('punch-row').first()).toBeVisible();
  const flagged = page.locator('[data-testid="punch-badge"][data-incoherent="true"]');
  await expect(flagged).toHaveCount(1);
  await expect(page.getByTestId('punch-footer-total')).not.toHaveText('');
  await expectNoSeriousA11yViolations(page, 'punch cards');

  // Saving is refused while the card is incoherent.
  await page.getByTestId('punch-save').click();
  await expect(
    page.getByText('There is an incoherence in the punch cards. Please fix it before saving.'),
  ).toBeVisible();

  // The breaking entrance is deleted in its Edit dialog; the day is coherent again.
  await flagged.click();
  await expect(page.getByTestId('punch-edit-delete')).toBeVisible();
  await expect(page.getByTestId('punch-edit-original')).toContainText(/\d{2}:\d{2}/);
  await page.getByTestId('punch-edit-delete').click();
  await expect(flagged).toHaveCount(0);
  await page.getByTestId('punch-save').click();
  await expect(page.getByText('The punch cards have been saved')).toBeVisible();

  // Read again from the server: the fix was saved.
  await page.reload();
  await expect(page.getByTestId('punch-row').first()).toBeVisible();
  await expect(page.locator('[data-testid="punch-badge"][data-incoherent="true"]')).toHaveCount(0);

  // CSV exactly as the spec names it.
  const csvDownload = page.waitForEvent('download');
  await page.getByTestId('punch-csv').click();
  const csv = await csvDownload;
  expect(csv.suggestedFilename()).toBe('punch_cards.csv');
  const csvText = readFileSync((await csv.path())!, 'utf8');
  expect(csvText.split('\r\n')[0]).toBe('Etablissement;Employee;Date;Time;Arrivée');
  expect(csvText).toContain(`${storeName};`);

  // The PDF of the same week: the store and the employee the CSV lists.
  const csvEmployee = csvText.split('\r\n')[1]!.split(';')[1]!;
  expect(csvEmployee).not.toBe('');
  const pdfDownload = page.waitForEvent('download');
  await page.getByTestId('punch-pdf').click();
  const pdf = await pdfDownload;
  expect(pdf.suggestedFilename()).toMatch(/\.pdf$/);
  const pdfText = await downloadedPdfText(pdf);
  expect(pdfText).toContain(storeName);
  expect(pdfText).toContain(csvEmployee);
});
