import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from '../support/a11y';
import { login } from '../support/auth';
import { demoCatalogue } from '../support/catalogue';
import { demoPassword, demoUsers } from '../support/demo';
import { expect, test } from '../support/fixtures';
import { downloadedPdfText } from '../support/pdf';

/*
 * Audits (issue 16): a distributor builds an audit of the demo database — two sections, a
 * yes/no question, a text question shown only when it is answered "No", a scored multiple
 * choice — reorders it with the keyboard, publishes and saves it. The demo manager performs
 * it from a phone for a store, leaves half-way, resumes, submits and reads the score; then the
 * results screen (score, PDF, CSV) and the home's audits panel (1 of the database's 3 stores
 * done).
 */

test.use({ signedInAs: 'distributor' });

const phone = { width: 390, height: 844 };

const texts = {
  coldChain: 'Cold chain',
  labelling: 'Labelling',
  door: 'Is the cold room door closed?',
  why: 'Why is the door open?',
  products: 'Which products are labelled?',
  meat: 'Meat',
  fish: 'Fish',
  answer: 'Seal broken on the left',
} as const;

/** The store the manager audits (manager-owned, in the demo database) and its picker label. */
const auditedStore = { name: 'Bistro Lille Centre', option: /^Bistro Lille Centre/ };

function uniqueAuditName(): string {
  return `E2E Hygiene ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** The question rows' texts of the structure panel's section `index`, in order. */
function questionRowTexts(page: Page, index: number): Locator {
  return page.getByTestId('section-item').nth(index).getByTestId('question-row-text');
}

/** A question of the structure panel (its row button selects it). */
async function selectQuestion(page: Page, text: string): Promise<void> {
  await page
    .getByTestId('question-row')
    .filter({ has: page.getByTestId('question-row-text').getByText(text, { exact: true }) })
    .getByTestId('question-select')
    .click();
  await expect(page.getByRole('textbox', { name: 'Question text' })).toHaveValue(text);
}

/** Adds a question to the selected section and gives it its text and type. */
async function addQuestion(page: Page, text: string, type: string): Promise<void> {
  await page.getByTestId('section-editor-add-question').click();
  const questionText = page.getByRole('textbox', { name: 'Question text' });
  await expect(questionText).toHaveValue('');
  await questionText.fill(text);
  if (type !== 'Text') {
    await page.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: type, exact: true }).click();
  }
  await expect(page.getByRole('combobox', { name: 'Type' })).toHaveValue(type);
}

/** Adds a section and names it. */
async function addSection(page: Page, title: string): Promise<void> {
  await page.getByRole('button', { name: 'Add a section' }).click();
  const name = page.getByRole('textbox', { name: 'Section name' });
  await expect(name).toHaveValue('New section');
  await name.fill(title);
}

type AuditBody = {
  audit: {
    id: string;
    database_id: string;
    published: boolean;
    sections: {
      title: string;
      questions: {
        id: string;
        text: string;
        type: string;
        score: number | null;
        conditions: { question_id: string; value: boolean }[];
        options: { multiple_selection?: boolean; choices?: { text: string; score: number }[] };
      }[];
    }[];
  };
};

test('a distributor builds and publishes an audit; a manager performs it on a phone, resumes it, submits it; results, PDF, CSV and the home panel show it', async ({
  page,
  newSignedOutContext,
}) => {
  test.setTimeout(240_000);
  const auditName = uniqueAuditName();

  /* ---------- 1. The distributor builds the audit ---------- */
  await page.goto('/auditing');
  const database = page.getByRole('combobox', { name: 'Database' });
  await expect(database).not.toHaveValue('');
  if ((await database.inputValue()) !== demoCatalogue.databaseName) {
    await database.click();
    await page.getByRole('option', { name: demoCatalogue.databaseName, exact: true }).click();
  }
  await expect(database).toHaveValue(demoCatalogue.databaseName);
  await page.getByRole('link', { name: 'New' }).click();
  await expect(page).toHaveURL(/\/auditingConfiguration\?database=/);
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(auditName);

  // Section 1: the text question first, then the yes/no one (reordered below).
  await addSection(page, texts.coldChain);
  await addQuestion(page, texts.why, 'Text');
  await addQuestion(page, texts.door, 'Yes or no');
  await expect(questionRowTexts(page, 0)).toHaveText([texts.why, texts.door]);

  // Keyboard reordering (dnd-kit): the text question's handle, Space, ArrowDown, Space.
  const liveRegion = page.locator('[id^="DndLiveRegion"]');
  const handle = page.getByRole('button', { name: `Move ${texts.why}` });
  await handle.focus();
  await page.keyboard.press('Space');
  await expect(liveRegion).toContainText(`Picked up question “${texts.why}”.`);
  await page.keyboard.press('ArrowDown');
  await expect(liveRegion).toContainText(`is over question “${texts.door}”`);
  await page.keyboard.press('Space');
  await expect(liveRegion).toContainText(
    `question “${texts.why}” was dropped over question “${texts.door}”.`,
  );
  await expect(questionRowTexts(page, 0)).toHaveText([texts.door, texts.why]);

  // The text question shows only when the door question is answered "No".
  await selectQuestion(page, texts.why);
  await expect(page.getByText('Always shown.')).toBeVisible();
  await page.getByRole('combobox', { name: 'Yes/no question' }).click();
  await page.getByRole('option', { name: texts.door, exact: true }).click();
  await page.getByTestId('condition-new-value').getByText('No', { exact: true }).click();
  await page.getByRole('button', { name: 'Add the condition' }).click();
  const condition = page.getByTestId('condition-row');
  await expect(condition).toHaveCount(1);
  await expect(condition).toContainText(`Shown if “${texts.door}” is answered`);
  await expect(condition.getByRole('radio', { name: 'No' })).toBeChecked();

  // Section 2: a scored multiple choice, several answers, two choices with their scores.
  await addSection(page, texts.labelling);
  await addQuestion(page, texts.products, 'Multiple choice');
  await page.getByRole('switch', { name: 'Multiple selection' }).check();
  await page.getByRole('textbox', { name: 'Choice 1' }).fill(texts.meat);
  await page.getByRole('textbox', { name: 'Score of 1' }).fill('3');
  await page.getByRole('button', { name: 'Add a choice' }).click();
  await page.getByRole('textbox', { name: 'Choice 2' }).fill(texts.fish);
  await page.getByRole('textbox', { name: 'Score of 2' }).fill('2');
  // A multiple selection scores the sum of its choices.
  await expect(page.getByRole('textbox', { name: 'Score', exact: true })).toHaveValue('5');
  await expect(questionRowTexts(page, 1)).toHaveText([texts.products]);
  await expectNoSeriousA11yViolations(page, 'audit builder');

  // Published: asked first.
  await page.getByRole('switch', { name: 'Published' }).click();
  const publish = page.getByRole('dialog', { name: 'Publish the audit' });
  await expect(publish).toBeVisible();
  await publish.getByRole('button', { name: 'Publish' }).click();
  await expect(publish).toHaveCount(0);
  await expect(page.getByRole('switch', { name: 'Published' })).toBeChecked();

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('notice-success')).toContainText('Saved successfully.');
  await expect(page).toHaveURL(/\/auditingConfiguration\?id=[0-9a-f-]{36}$/);
  const auditId = new URL(page.url()).searchParams.get('id')!;
  // The order, the condition and the scores as the server keeps them.
  const { audit } = (await (await page.request.get(`/api/audits/${auditId}`)).json()) as AuditBody;
  expect(audit.published).toBe(true);
  expect(audit.sections.map((section) => section.title)).toEqual([
    texts.coldChain,
    texts.labelling,
  ]);
  const [door, why] = audit.sections[0]!.questions;
  expect([door!.text, why!.text]).toEqual([texts.door, texts.why]);
  expect(why!.conditions).toEqual([{ question_id: door!.id, value: false }]);
  const products = audit.sections[1]!.questions[0]!;
  expect(products.score).toBe(5);
  expect(products.options.multiple_selection).toBe(true);
  expect(products.options.choices?.map((choice) => [choice.text, choice.score])).toEqual([
    [texts.meat, 3],
    [texts.fish, 2],
  ]);

  /* ---------- 2. The manager performs it on a phone ---------- */
  const managerContext = await newSignedOutContext();
  let manager = await managerContext.newPage();
  await login(manager, demoUsers.manager.email, demoPassword);
  await manager.setViewportSize(phone);

  const openPerform = async () => {
    await manager.goto('/auditing');
    await manager.getByRole('link', { name: `Perform ${auditName}` }).click();
    await expect(manager).toHaveURL(/\/auditingPerform\?audit=/);
  };
  await openPerform();
  const storeField = manager.getByRole('combobox', { name: 'Store' });
  await storeField.click();
  await storeField.fill('Lille');
  await manager.getByRole('option', { name: auditedStore.option }).click();
  await manager.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(manager).toHaveURL(/[?&]result=/);
  await expect(manager.getByRole('heading', { name: texts.coldChain })).toBeVisible();
  await expect(manager.getByText('Section 1 of 2', { exact: true })).toBeVisible();

  // "No" brings the conditional question.
  const whyField = manager.getByRole('textbox', { name: texts.why });
  await expect(whyField).toHaveCount(0);
  const doorGroup = manager.getByRole('group', { name: texts.door });
  await doorGroup.getByRole('button', { name: 'No' }).click();
  await expect(doorGroup.getByRole('button', { name: 'No' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(whyField).toBeVisible();
  await whyField.fill(texts.answer);
  const saveStatus = () => manager.getByTestId('save-status');
  await expect(saveStatus()).toHaveText('Saved');
  await expectNoSeriousA11yViolations(manager, 'audit perform (phone)');

  // The manager leaves (the page closes) and comes back later: the audit is resumed.
  await manager.close();
  manager = await managerContext.newPage();
  await openPerform();
  const resume = manager.getByRole('button', {
    name: `Resume the audit of ${auditedStore.name}`,
  });
  await expect(resume).toBeVisible();
  // The server kept both answers (the door's and the text).
  await expect(manager.getByTestId('perform-resumable')).toContainText(' · 2 answered');
  await resume.click();
  // The first section is answered: the form opens on the next one.
  await expect(manager.getByRole('heading', { name: texts.labelling })).toBeVisible();
  await manager.getByRole('button', { name: 'Previous' }).click();
  await expect(manager.getByRole('heading', { name: texts.coldChain })).toBeVisible();
  await expect(
    manager.getByRole('group', { name: texts.door }).getByRole('button', { name: 'No' }),
  ).toHaveAttribute('aria-pressed', 'true');
  await expect(manager.getByRole('textbox', { name: texts.why })).toHaveValue(texts.answer);
  await manager.getByRole('button', { name: 'Next' }).click();

  // Meat only: 0/1 (No) + 1/1 (text) + 3/5 (Meat of Meat and Fish) = 4/7.
  await expect(manager.getByRole('heading', { name: texts.labelling })).toBeVisible();
  await manager.getByRole('checkbox', { name: texts.meat }).check();
  await expect(saveStatus()).toHaveText('Saved');
  await manager.getByRole('button', { name: 'Submit' }).click();
  await expect(manager.getByRole('heading', { name: 'Audit submitted' })).toBeVisible();
  await expect(manager.getByTestId('perform-score')).toHaveText('57.14 %');

  /* ---------- 3. The results screen: score, PDF, CSV ---------- */
  await manager.goto('/auditing');
  await manager.getByRole('link', { name: `Results of ${auditName}` }).click();
  await expect(manager).toHaveURL(`/auditingResults?audit=${auditId}`);
  await expect(manager.getByText('1 submitted result')).toBeVisible();
  await manager.getByRole('combobox', { name: 'Results' }).click();
  await manager.getByRole('option', { name: new RegExp(`^${auditedStore.name} · `) }).click();
  await manager.keyboard.press('Escape');
  const summary = manager.getByTestId('results-summary');
  await expect(summary).toHaveCount(1);
  await expect(summary).toContainText(auditedStore.name);
  await expect(summary.getByTestId('results-score')).toHaveText('57.14 %');
  await expect(summary).toContainText('4 / 7 points');
  await expect(manager.getByText(texts.answer).first()).toBeVisible();
  await expectNoSeriousA11yViolations(manager, 'audit results');

  const pdfDownload = manager.waitForEvent('download');
  await manager.getByRole('button', { name: 'Open PDF' }).click();
  const pdfText = await downloadedPdfText(await pdfDownload);
  expect(pdfText).toContain(auditName);
  expect(pdfText).toContain(texts.answer);

  const csvDownload = manager.waitForEvent('download');
  await manager.getByRole('button', { name: 'Open CSV' }).click();
  const csv = readFileSync((await (await csvDownload).path())!);
  expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const csvText = csv.subarray(3).toString('utf8');
  const [header] = csvText.split(/\r?\n/);
  expect(header!.split(';').length).toBeGreaterThan(2);
  expect(header).not.toContain(',');
  expect(csvText).toContain(auditedStore.name);
  expect(csvText).toContain(texts.answer);
  expect(csvText).toContain(texts.meat);

  /* ---------- 4. The home's audits panel, the demo database chosen ---------- */
  await manager.evaluate(([key, value]) => window.localStorage.setItem(key, value), [
    'mise.selection',
    JSON.stringify({
      kind: 'database',
      id: audit.database_id,
      name: demoCatalogue.databaseName,
    }),
  ] as const);
  await manager.goto('/home');
  const panel = manager.getByTestId('home-audits');
  await expect(panel.getByRole('heading', { name: 'Audits' })).toBeVisible();
  const row = panel.locator(`[data-testid="home-audit"][data-audit-id="${auditId}"]`);
  await expect(row).toContainText(auditName);
  // One of the database's three stores has a submitted result.
  await expect(row.getByTestId('home-audit-done')).toHaveText('33.33 % done');
  await expect(row.getByTestId('home-audit-stores')).toHaveText('1 / 3 stores');
});
