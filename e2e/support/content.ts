import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';
import { apiSession } from './auth';

/*
 * Communications and trainings (issue 18): what their journeys share on the back-office (a PDF
 * made here, the attachment's upload, the store-group target, a quiz question) and on the
 * tablet (answering a quiz wrong, then right).
 */

/** The demo's store group of Paris Opéra and Lyon Bellecour (Lille Centre is in "Nord"). */
export const centreVilleGroup = 'Centre-ville';
/** A demo employee of Lille Centre, a store outside that group (PIN 1234, demo-tasks.ts). */
export const lilleEmployee = { storeName: 'Bistro Lille Centre', name: 'Thomas Leroy' } as const;

/**
 * A name of its own for what a journey creates, newest first in a list sorted by name (reruns
 * on one database stay apart, and the latest is never pushed past a list's limit).
 */
export function uniqueContentName(label: string): string {
  const countdown = (Number.MAX_SAFE_INTEGER - Date.now()).toString(36);
  return `${label} ${countdown}${Math.random().toString(36).slice(2, 5)}`;
}

/** A one-page PDF with a line of text (Helvetica), its cross-reference table exact. */
export function makePdf(text: string): Buffer {
  const escaped = text.replace(/[\\()]/g, (character) => `\\${character}`);
  const content = `BT /F1 18 Tf 40 120 Td (${escaped}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 420 240] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/**
 * Uploads a PDF through an attachment card's file input (the resumable upload) and waits until
 * the card shows it, a PDF. `prefix` is the card's test id.
 */
export async function uploadPdf(page: Page, prefix: string, fileName: string): Promise<void> {
  const card = page.getByTestId(prefix);
  await card.locator('input[type="file"]').setInputFiles({
    name: fileName,
    mimeType: 'application/pdf',
    buffer: makePdf(fileName.replace(/\.pdf$/, '')),
  });
  await expect(card.getByTestId(`${prefix}-name`)).toHaveText(fileName, { timeout: 20_000 });
  await expect(card.getByTestId(`${prefix}-type`)).toHaveText('PDF');
}

/**
 * Aims at one store group in a target picker (`prefix`: its test ids): the kind "Store
 * groups", then the group in the multi-select.
 */
export async function targetStoreGroup(page: Page, prefix: string, group: string): Promise<void> {
  const kind = page.getByTestId(`${prefix}-kind`);
  await kind.getByText('Store groups', { exact: true }).click();
  await expect(kind.getByRole('radio', { name: 'Store groups' })).toBeChecked();
  const groups = page.getByTestId(`${prefix}-groups`);
  await groups.click();
  await groups.fill(group.slice(0, 6));
  await page.getByRole('option', { name: group, exact: true }).click();
  // Closed by a click beside it (Escape would also close a dialog around the picker).
  await page.getByText('Who receives it', { exact: true }).click();
  await expect(page.getByRole('listbox')).toHaveCount(0);
}

export type QuizQuestion = {
  text: string;
  answers: readonly { text: string; correct: boolean }[];
};

/** Adds a question with its answers in the quiz editor shown (the new question is selected). */
export async function writeQuizQuestion(page: Page, question: QuizQuestion): Promise<void> {
  await page.getByTestId('quiz-add-question').click();
  await page.getByTestId('quiz-question-text').fill(question.text);
  for (const [index, answer] of question.answers.entries()) {
    await page.getByTestId('quiz-add-answer').click();
    await page.getByTestId('quiz-answer-text').nth(index).fill(answer.text);
    const correct = page.getByRole('checkbox', { name: `Answer ${index + 1} is correct` });
    if (answer.correct) await correct.check();
    await expect(correct).toBeChecked({ checked: answer.correct });
  }
}

/**
 * On the tablet: ticks a wrong answer and checks (the question shows as wrong, the right
 * answer highlighted), then ticks the right one instead and checks (all right).
 */
export async function answerQuizWrongThenRight(
  scope: Page | Locator,
  question: QuizQuestion,
): Promise<void> {
  const right = question.answers.find((answer) => answer.correct)!;
  const wrong = question.answers.find((answer) => !answer.correct)!;
  const group = scope.getByRole('group', { name: question.text });
  const check = scope.getByRole('button', { name: 'Check', exact: true });

  await group.getByRole('checkbox', { name: wrong.text, exact: true }).check();
  await check.click();
  await expect(group.getByText('✗ Wrong answer')).toBeVisible();
  await expect(group.getByText('Right answer', { exact: true })).toBeVisible();
  await expect(scope.getByRole('status').filter({ hasText: 'questions right' })).toHaveText(
    '0 of 1 questions right: correct the wrong ones and check again.',
  );

  await group.getByRole('checkbox', { name: wrong.text, exact: true }).uncheck();
  await group.getByRole('checkbox', { name: right.text, exact: true }).check();
  await check.click();
  await expect(group.getByText('✓ Right')).toBeVisible();
  await expect(
    scope.getByRole('status').filter({ hasText: 'All answers are right.' }),
  ).toBeVisible();
}

/** The demo database's id, as the signed-in back-office user sees it (through Paris Opéra). */
export async function demoDatabaseId(request: APIRequestContext): Promise<string> {
  const api = await apiSession(request);
  const { items } = await api.get<{ items: { name: string; database: string | null }[] }>(
    '/stores',
    { search: 'Opéra' },
  );
  const databaseId = items.find((item) => item.name === 'Bistro Paris Opéra')?.database;
  expect(databaseId, 'the demo database').toBeTruthy();
  return databaseId!;
}

/** Makes the demo database the home's selection, as the selection popup keeps it. */
export async function chooseHomeDatabase(page: Page, databaseId: string): Promise<void> {
  await page.evaluate(([key, value]) => window.localStorage.setItem(key, value), [
    'mise.selection',
    JSON.stringify({ kind: 'database', id: databaseId, name: 'Bistro Group' }),
  ] as const);
}

/** A time spent as the statistics show it (m:ss), more than nothing. */
export const nonZeroTimeSpent = /^(?!0:00$)\d+:\d{2}$/;
