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
 * A training (issue 18): the demo manager writes one with two sections, each with a PDF, a
 * one-question quiz in the first, aims it at the store group "Centre-ville" and activates it; on
 * Paris Opéra's tablet (in the group) Lucas Martin follows both sections for a few seconds,
 * answers the quiz wrong, then right, and finishes; the statistics show him trained with the
 * time he spent and his completion in the store's Details, and the home panel (the database
 * chosen) shows the training. On Lille Centre's tablet (group "Nord") an employee never sees it.
 */

test.use({ signedInAs: 'manager' });

const sections = [
  { title: 'Les bons gestes', fileName: 'bons-gestes.pdf' },
  { title: 'Le nettoyage', fileName: 'nettoyage.pdf' },
] as const;
const quiz: QuizQuestion = {
  text: 'Combien de temps se laver les mains ?',
  answers: [
    { text: '5 secondes', correct: false },
    { text: '30 secondes', correct: true },
  ],
};
/** How long the employee reads each section (the time spent must count). */
const readingMs = 2_000;

test('a manager publishes a training of two sections to a store group; a tablet employee of the group follows it and answers its quiz; the statistics and the home show it; a store outside the group never sees it', async ({
  page,
  admin,
  newSignedOutContext,
}) => {
  test.setTimeout(90_000);
  const name = uniqueContentName('Formation e2e');
  const databaseId = await demoDatabaseId(page.request);

  /* ---------- 1. The back-office: the new training, saved ---------- */
  await page.goto(`/trainings?database=${databaseId}`);
  await page.getByTestId('training-new').click();
  await expect(page).toHaveURL(/\/training\?new=1/);
  await page.getByTestId('training-name').fill(name);
  await expect(
    page.getByTestId('training-language').getByRole('radio', { name: 'French' }),
  ).toBeChecked();
  // New trainings start inactive: switched on to reach the tablets.
  const active = page.getByRole('switch', { name: /^Active/ });
  await expect(active).not.toBeChecked();
  await active.check();
  await expect(page.getByRole('switch', { name: /^Required/ })).not.toBeChecked();

  await page.getByTestId('training-target-open').click();
  const targetDialog = page.getByRole('dialog', { name: 'Target of the training' });
  await expect(targetDialog).toBeVisible();
  await targetStoreGroup(page, 'training-target', centreVilleGroup);
  await targetDialog.getByTestId('training-target-apply').click();
  await expect(targetDialog).toHaveCount(0);
  await expect(page.getByTestId('training-target-state')).toHaveText('Targeted');
  await expect(page.getByTestId('training-target-counts')).toHaveText(
    '1 store group · Any of these groups',
  );

  // Section 1 (the new training's one): renamed, its PDF, its quiz.
  await page.getByRole('button', { name: 'Rename Nouvelle section' }).click();
  await page.getByRole('textbox', { name: 'Section title' }).fill(sections[0].title);
  await page.getByRole('textbox', { name: 'Section title' }).press('Enter');
  await page.getByTestId('training-tab-attachment').click();
  await uploadPdf(page, 'training-attachment', sections[0].fileName);
  await page.getByTestId('training-tab-quiz').click();
  await writeQuizQuestion(page, quiz);

  // Section 2: added (selected at once), renamed, its PDF, no quiz.
  await page.getByTestId('training-section-add').click();
  await page.getByRole('button', { name: 'Rename Nouvelle section' }).click();
  await page.getByRole('textbox', { name: 'Section title' }).fill(sections[1].title);
  await page.getByRole('textbox', { name: 'Section title' }).press('Enter');
  await page.getByTestId('training-tab-attachment').click();
  await uploadPdf(page, 'training-attachment', sections[1].fileName);
  await expectNoSeriousA11yViolations(page, 'training editor');

  await page.getByTestId('training-save').click();
  await expect(page).toHaveURL(/\/training\?id=/);
  await expect(page.getByTestId('training-issue')).toHaveCount(0);
  const trainingId = new URL(page.url()).searchParams.get('id')!;
  // Read again from the server: active, targeted, both sections with their files.
  await page.reload();
  await expect(page.getByTestId('training-name')).toHaveValue(name);
  await expect(page.getByRole('switch', { name: /^Active/ })).toBeChecked();
  await expect(page.getByTestId('training-target-state')).toHaveText('Targeted');
  const sectionRows = page.getByTestId('training-section-select');
  await expect(sectionRows).toHaveCount(2);
  await expect(sectionRows.nth(0)).toContainText(`1. ${sections[0].title}`);
  await expect(sectionRows.nth(0)).toContainText(`${sections[0].fileName} · 1 question`);
  await expect(sectionRows.nth(1)).toContainText(`2. ${sections[1].title}`);
  await expect(sectionRows.nth(1)).toContainText(`${sections[1].fileName} · 0 questions`);

  /* ---------- 2. Paris Opéra's tablet (Centre-ville): followed, answered, finished ---------- */
  const paris = await storeForPairing(admin.api, demoTablet.storeName);
  const parisTablet = await (await newSignedOutContext()).newPage();
  await pairTablet(parisTablet, paris.pairingKey, `${e2eTabletPrefix} training Paris`);
  await identify(parisTablet, demoTablet.employee, demoTablet.pin);
  await parisTablet.getByRole('button', { name: /^Trainings/ }).click();
  await expect(parisTablet.getByRole('heading', { name: 'Trainings', level: 1 })).toBeVisible();
  const card = parisTablet.getByRole('button', { name: new RegExp(`^${name}`) });
  await expect(card).toContainText('2 sections');
  await expect(card).toContainText('Unread');
  await card.click();
  await expect(parisTablet.getByRole('heading', { name, level: 1 })).toBeVisible();
  const sectionList = parisTablet.getByRole('navigation', { name: 'Sections' });
  await expect(sectionList.getByRole('button')).toHaveCount(2);
  await parisTablet.bringToFront();

  // Section 1: its PDF (read with the tablet's token), then its quiz, wrong, then right.
  await expect(
    parisTablet.getByRole('heading', { name: sections[0].title, level: 2 }),
  ).toBeVisible();
  await expect(parisTablet.getByText('Section 1 of 2', { exact: true })).toBeVisible();
  await expect(parisTablet.getByLabel(sections[0].fileName)).toHaveAttribute('data', /^blob:/);
  await parisTablet.waitForTimeout(readingMs);
  await expect(parisTablet.getByRole('button', { name: 'Finish', exact: true })).toHaveCount(0);
  await answerQuizWrongThenRight(parisTablet, quiz);

  // Section 2: its PDF, no quiz.
  await parisTablet.getByRole('button', { name: 'Next section' }).click();
  await expect(
    parisTablet.getByRole('heading', { name: sections[1].title, level: 2 }),
  ).toBeVisible();
  await expect(parisTablet.getByText('Section 2 of 2', { exact: true })).toBeVisible();
  await expect(parisTablet.getByLabel(sections[1].fileName)).toHaveAttribute('data', /^blob:/);
  await parisTablet.waitForTimeout(readingMs);
  await parisTablet.getByRole('button', { name: 'Finish', exact: true }).click();
  await expect(parisTablet.getByRole('heading', { name: 'Done', level: 2 })).toBeVisible();
  // Sent (not kept on the tablet waiting for the network).
  await expect(
    parisTablet.getByRole('status').filter({ hasText: 'Thank you: this training' }),
  ).toHaveText('Thank you: this training is completed.');
  await parisTablet.getByRole('button', { name: 'Back to the trainings' }).click();
  await expect(card).toContainText('Completed');

  /* ---------- 3. Lille Centre's tablet (Nord): never aimed at ---------- */
  const lille = await storeForPairing(admin.api, lilleEmployee.storeName);
  const restoreLille = await licenseForJourney(admin.api, lille.id);
  try {
    const lilleTablet = await (await newSignedOutContext()).newPage();
    await pairTablet(
      lilleTablet,
      lille.pairingKey,
      `${e2eTabletPrefix} training Lille`,
      lilleEmployee.storeName,
    );
    await identifyPastTrainingsPrompt(lilleTablet, lilleEmployee.name, demoTablet.pin);
    await lilleTablet.getByRole('button', { name: /^Trainings/ }).click();
    const list = lilleTablet.getByRole('region', { name: 'Trainings' });
    await expect(list.getByRole('heading', { name: 'Trainings', level: 1 })).toBeVisible();
    // The list is read (the demo's training for everyone shows), without ours.
    await expect(list.getByText('Loading…')).toHaveCount(0);
    await expect(list.getByRole('alert')).toHaveCount(0);
    await expect(list.getByRole('button', { name: /^Hygiène des mains/ })).toBeVisible();
    await expect(list.getByRole('button', { name: new RegExp(`^${name}`) })).toHaveCount(0);
  } finally {
    await restoreLille();
  }

  /* ---------- 4. The statistics: one trained, the time spent, Lucas in Paris's Details ---------- */
  await page.goto(`/trainingStats?id=${trainingId}&tab=overview`);
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(page.getByTestId('stats-trained-value')).toHaveText('1');
  await expect(page.getByTestId('stats-views-today-value')).toHaveText('1');
  await expect(page.getByTestId('stats-median-time-value')).toHaveText(nonZeroTimeSpent);
  const medianTime = await page.getByTestId('stats-median-time-value').textContent();
  await expect(page.getByTestId('training-completions-chart')).toBeVisible();
  const share = (await page.getByTestId('stats-percentage-value').textContent())!;
  expect(share).toMatch(/^[1-9]\d* %$/);
  await expectNoSeriousA11yViolations(page, 'training statistics');

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
    details.getByTestId('store-result-completed').filter({ hasNotText: '?' }),
  ).toHaveCount(1);
  await expect(result.getByTestId('store-result-store')).toHaveText(demoTablet.storeName);
  // A training's dates read on the browser's clock.
  const [year, month, day] = todayIn(Intl.DateTimeFormat().resolvedOptions().timeZone).split('-');
  await expect(result.getByTestId('store-result-completed')).toHaveText(
    new RegExp(`^${day}/${month}/${year} \\d{2}:\\d{2}$`),
  );
  await expect(result.getByTestId('store-result-time')).toHaveText(medianTime!);
  await expectNoSeriousA11yViolations(page, 'training statistics details');
  await page.keyboard.press('Escape');

  /* ---------- 5. The home, the database chosen: the card with the same share ---------- */
  await chooseHomeDatabase(page, databaseId);
  await page.goto('/home');
  const homeCard = page
    .getByTestId('home-trainings')
    .locator(`[data-testid="home-training"][data-id="${trainingId}"]`);
  await expect(homeCard.getByTestId('home-training-name')).toHaveText(name);
  await expect(homeCard.getByTestId('home-training-type')).toHaveText('Database training');
  await expect(homeCard.getByTestId('home-training-trained')).toHaveText(`${share} trained`);
  await homeCard.click();
  await expect(page).toHaveURL(new RegExp(`/trainingStats\\?id=${trainingId}`));
});
