import { expectNoSeriousA11yViolations } from '../support/a11y';
import {
  answerQuizWrongThenRight,
  centreVilleGroup,
  chooseHomeDatabase,
  demoDatabaseId,
  lilleEmployee,
  nonZeroTimeSpent,
  type QuizQuestion,
  targetStoreGroup,
  uniqueContentName,
  uploadPdf,
  writeQuizQuestion,
} from '../support/content';
import {
  demoTablet,
  e2eTabletPrefix,
  expect,
  identify,
  identifyPastTrainingsPrompt,
  licenseForJourney,
  pairTablet,
  storeForPairing,
  test,
} from '../support/tablet';
import { todayIn } from '../support/tasks';

/*
 * A communication (issue 18): the demo manager publishes one with a PDF and a one-question quiz
 * to the store group "Centre-ville"; on Paris Opéra's tablet (in the group) Lucas Martin reads
 * it for a few seconds, answers the quiz wrong, then right, and finishes; the statistics show
 * his view, the time he spent and his completion in the store's Details, and the home panel
 * (the database chosen) shows the communication. On Lille Centre's tablet (group "Nord") an
 * employee never sees it.
 */

test.use({ signedInAs: 'manager' });

const quiz: QuizQuestion = {
  text: 'Où afficher la liste des allergènes ?',
  answers: [
    { text: 'Dans le bureau', correct: false },
    { text: 'À la vue des clients', correct: true },
  ],
};
const fileName = 'consignes-allergenes.pdf';
/** How long the employee reads before answering (the time spent must count). */
const readingMs = 3_000;

test('a manager publishes a communication to a store group; a tablet employee of the group reads it and answers its quiz; the statistics and the home show it; a store outside the group never sees it', async ({
  page,
  admin,
  newSignedOutContext,
}) => {
  test.setTimeout(90_000);
  const name = uniqueContentName('Communication e2e');
  const databaseId = await demoDatabaseId(page.request);

  /* ---------- 1. The back-office: the new communication, saved ---------- */
  await page.goto(`/communications?database=${databaseId}`);
  await page.getByTestId('communication-new').click();
  await expect(page).toHaveURL(/\/communication\?database=/);
  await page.getByTestId('communication-name').fill(name);
  await expect(page.getByTestId('communication-active')).toBeChecked();
  await uploadPdf(page, 'communication-attachment', fileName);
  await targetStoreGroup(page, 'communication-target', centreVilleGroup);
  await writeQuizQuestion(page, quiz);
  await expectNoSeriousA11yViolations(page, 'communication editor');
  await page.getByTestId('communication-save').click();
  await expect(page).toHaveURL(/\/communication\?id=/);
  await expect(page.getByTestId('communication-issue')).toHaveCount(0);
  const communicationId = new URL(page.url()).searchParams.get('id')!;
  // Read again from the server: the target and the quiz were kept.
  await page.reload();
  await expect(page.getByTestId('communication-name')).toHaveValue(name);
  await expect(
    page.getByTestId('communication-target-kind').getByRole('radio', { name: 'Store groups' }),
  ).toBeChecked();
  await expect(page.getByTestId('communication-targeting')).toContainText(centreVilleGroup);
  await expect(page.getByTestId('communication-attachment-name')).toHaveText(fileName);
  await expect(page.getByTestId('quiz-question-text')).toHaveValue(quiz.text);

  await page.goto(`/communications?database=${databaseId}`);
  await expect(
    page.locator(`[data-testid="communication-card"][aria-label="${name}"]`),
  ).toBeVisible();

  /* ---------- 2. Paris Opéra's tablet (Centre-ville): read, answered, finished ---------- */
  const paris = await storeForPairing(admin.api, demoTablet.storeName);
  const parisTablet = await (await newSignedOutContext()).newPage();
  await pairTablet(parisTablet, paris.pairingKey, `${e2eTabletPrefix} communication Paris`);
  await identify(parisTablet, demoTablet.employee, demoTablet.pin);
  await parisTablet.getByRole('button', { name: /^Communications/ }).click();
  await expect(
    parisTablet.getByRole('heading', { name: 'Communications', level: 1 }),
  ).toBeVisible();
  const card = parisTablet.getByRole('button', { name: new RegExp(`^${name}`) });
  await expect(card).toContainText('Unread');
  await card.click();
  await expect(parisTablet.getByRole('heading', { name, level: 1 })).toBeVisible();
  // The PDF is read with the tablet's token and shown in the screen.
  await expect(parisTablet.getByLabel(fileName)).toHaveAttribute('data', /^blob:/);
  await expect(parisTablet.getByRole('button', { name: 'Open in the PDF reader' })).toBeEnabled();
  await parisTablet.bringToFront();
  await parisTablet.waitForTimeout(readingMs);
  await parisTablet.getByRole('button', { name: 'Answer the quiz' }).click();
  await answerQuizWrongThenRight(parisTablet, quiz);
  await parisTablet.getByRole('button', { name: 'Finish', exact: true }).click();
  await expect(parisTablet.getByRole('heading', { name: 'Done', level: 2 })).toBeVisible();
  // Sent (not kept on the tablet waiting for the network).
  await expect(
    parisTablet.getByRole('status').filter({ hasText: 'Thank you: this communication' }),
  ).toHaveText('Thank you: this communication is completed.');
  await parisTablet.getByRole('button', { name: 'Back to the communications' }).click();
  await expect(card).toContainText('Completed');

  /* ---------- 3. Lille Centre's tablet (Nord): never aimed at ---------- */
  const lille = await storeForPairing(admin.api, lilleEmployee.storeName);
  const restoreLille = await licenseForJourney(admin.api, lille.id);
  try {
    const lilleTablet = await (await newSignedOutContext()).newPage();
    await pairTablet(
      lilleTablet,
      lille.pairingKey,
      `${e2eTabletPrefix} communication Lille`,
      lilleEmployee.storeName,
    );
    await identifyPastTrainingsPrompt(lilleTablet, lilleEmployee.name, demoTablet.pin);
    await lilleTablet.getByRole('button', { name: /^Communications/ }).click();
    const list = lilleTablet.getByRole('region', { name: 'Communications' });
    await expect(list.getByRole('heading', { name: 'Communications', level: 1 })).toBeVisible();
    // The list is read (the demo's communication for everyone shows), without ours.
    await expect(list.getByText('Loading…')).toHaveCount(0);
    await expect(list.getByRole('alert')).toHaveCount(0);
    await expect(
      list.getByRole('button', { name: /^Rappel : affichage des allergènes/ }),
    ).toBeVisible();
    await expect(list.getByRole('button', { name: new RegExp(`^${name}`) })).toHaveCount(0);
  } finally {
    await restoreLille();
  }

  /* ---------- 4. The statistics: one view, the time spent, Lucas in Paris's Details ---------- */
  await page.goto(`/communicationStats?id=${communicationId}&tab=overview`);
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(page.getByTestId('stats-total-views-value')).toHaveText('1');
  await expect(page.getByTestId('stats-views-today-value')).toHaveText('1');
  await expect(page.getByTestId('stats-median-time-value')).toHaveText(nonZeroTimeSpent);
  const medianTime = await page.getByTestId('stats-median-time-value').textContent();
  await expect(page.getByTestId('communication-views-chart')).toBeVisible();
  const share = (await page.getByTestId('stats-percentage-value').textContent())!;
  expect(share).toMatch(/^[1-9]\d* %$/);
  await expectNoSeriousA11yViolations(page, 'communication statistics');

  await page.getByTestId('stats-tab-table').click();
  await expect(page).toHaveURL(/tab=table/);
  const parisRow = page.getByTestId('stats-store-row').filter({ hasText: demoTablet.storeName });
  await expect(parisRow.getByTestId('stats-store-views')).toHaveText(/^1 \/ \d+$/);
  // Lille Centre is not aimed at: not in the table.
  await expect(
    page.getByTestId('stats-store-row').filter({ hasText: lilleEmployee.storeName }),
  ).toHaveCount(0);
  await page.getByRole('button', { name: `Details of ${demoTablet.storeName}` }).click();
  const details = page.getByRole('dialog', { name: `Details — ${demoTablet.storeName}` });
  // One card per employee aimed at in the store: Lucas's with his completion, the others '?'.
  const result = details
    .getByTestId('store-result')
    .filter({ has: page.getByTestId('store-result-employee').getByText(demoTablet.employee) });
  await expect(result).toHaveCount(1);
  await expect(
    details.getByTestId('store-result').getByTestId('store-result-completed').filter({
      hasNotText: '?',
    }),
  ).toHaveCount(1);
  await expect(result.getByTestId('store-result-store')).toHaveText(demoTablet.storeName);
  const [year, month, day] = todayIn(demoTablet.timeZone).split('-');
  await expect(result.getByTestId('store-result-completed')).toHaveText(
    new RegExp(`^${day}/${month}/${year} \\d{2}:\\d{2}$`),
  );
  await expect(result.getByTestId('store-result-time')).toHaveText(medianTime!);
  await expectNoSeriousA11yViolations(page, 'communication statistics details');
  await page.keyboard.press('Escape');

  /* ---------- 5. The home, the database chosen: the card with the same share ---------- */
  await chooseHomeDatabase(page, databaseId);
  await page.goto('/home');
  const homeCard = page
    .getByTestId('home-communications')
    .locator(`[data-testid="home-communication"][data-id="${communicationId}"]`);
  await expect(homeCard.getByTestId('home-communication-name')).toHaveText(name);
  await expect(homeCard.getByTestId('home-communication-seen')).toHaveText(`${share} saw it`);
  await homeCard.click();
  await expect(page).toHaveURL(new RegExp(`/communicationStats\\?id=${communicationId}`));
});
