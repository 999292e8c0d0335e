import { apiSession } from '../support/auth';
import {
  type AdminApi,
  demoStore,
  demoTablet,
  e2eTabletPrefix,
  expect,
  identify,
  networkIndicator,
  pairTablet,
  test,
  waitForServiceWorker,
} from '../support/tablet';

/*
 * A self-evaluation audit on the store's tablet (issue 16): an employee whose role grants
 * auditing performs the demo's monthly hygiene audit in Paris Opéra, part of it without
 * network; back online, the answers reach the server, the audit is submitted and scored, and
 * the back-office lists the result under the audit, for that store.
 */

const auditName = 'Audit hygiène mensuel';
/** The employee role of the demo database that grants auditing (demo-people.ts). */
const auditingRole = 'Responsable';
/** Employees other journeys rely on as they are (role, PIN): never changed here. */
const keptEmployees: readonly string[] = [demoTablet.employee, demoTablet.lockoutEmployee];

const questions = {
  door: 'La porte de la chambre froide est-elle fermée ?',
  why: 'Pourquoi la porte est-elle ouverte ?',
  labelled: 'Quels produits sont étiquetés ?',
} as const;
const whyAnswer = 'Joint de porte à changer';

type StoreEmployee = {
  id: string;
  name: string;
  surname: string;
  role_id: string | null;
  role_name: string | null;
  active: boolean;
  has_secret: boolean;
  version: number;
};
type StoreEmployees = { items: StoreEmployee[]; roles: { id: string; name: string }[] };

/**
 * An active employee of the store with the auditing role and a PIN; when there is none, one
 * that other journeys do not use is given the role.
 */
async function auditingEmployee(api: AdminApi, storeId: string): Promise<string> {
  const { items, roles } = await api.get<StoreEmployees>(`/stores/${storeId}/employees`);
  const fullName = (employee: StoreEmployee) => `${employee.name} ${employee.surname}`;
  const found = items.find(
    (employee) => employee.active && employee.has_secret && employee.role_name === auditingRole,
  );
  if (found) return fullName(found);
  const role = roles.find((item) => item.name === auditingRole);
  expect(role, `role ${auditingRole}`).toBeDefined();
  const chosen = items.find(
    (employee) =>
      employee.active && employee.has_secret && !keptEmployees.includes(fullName(employee)),
  );
  expect(chosen, 'an employee of the store to give the auditing role').toBeDefined();
  const response = await api.request.put(`/api/stores/${storeId}/employees`, {
    headers: api.headers,
    data: {
      employees: [
        {
          id: chosen!.id,
          version: chosen!.version,
          name: chosen!.name,
          surname: chosen!.surname,
          role_id: role!.id,
          active: true,
        },
      ],
    },
  });
  expect(response.ok(), `PUT /api/stores/${storeId}/employees: ${response.status()}`).toBe(true);
  return fullName(chosen!);
}

type ResultSummary = {
  id: string;
  status: string;
  store: { id: string; name: string };
  auditor: { kind: string; name: string };
  score: number | null;
  max_score: number | null;
};

test('an employee performs the self-evaluation audit on the tablet, partly offline; the result is scored and listed in the back-office for the store', async ({
  page,
  context,
  admin,
  browser,
  sessionStateOf,
}) => {
  test.setTimeout(150_000);
  const store = await demoStore(admin.api);
  const employee = await auditingEmployee(admin.api, store.id);

  await pairTablet(page, store.pairingKey, `${e2eTabletPrefix} audit`);
  await waitForServiceWorker(page);
  await identify(page, employee, demoTablet.pin);

  // 1. Audits: the demo's self-evaluation audit, started.
  await page.getByRole('button', { name: 'Audits', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Audits', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: new RegExp(auditName) }).click();
  await expect(page.getByRole('heading', { name: auditName, level: 1 })).toBeVisible();
  await expect(page.getByText('Section 1 of 3', { exact: true })).toBeVisible();

  // 2. The door is open: "No" brings the question asking why (required too).
  const why = page.getByRole('region', { name: questions.why });
  await expect(why).toHaveCount(0);
  const door = page.getByRole('region', { name: questions.door });
  await door.getByRole('button', { name: 'No', exact: true }).click();
  await expect(door.getByRole('button', { name: 'No', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(why).toBeVisible();
  await expect(page.getByText('All answers are sent.')).toBeVisible();

  // 3. The network goes: the next answers are kept on the tablet, waiting to send.
  await context.setOffline(true);
  await expect(networkIndicator(page)).toHaveText(/^Offline/);
  await why.getByRole('textbox').fill(whyAnswer);
  await expect(page.getByText('Each answer is saved on this tablet as you go.')).toContainText(
    '1 answer waiting to send.',
  );
  await page.getByRole('button', { name: 'Next section' }).click();
  await expect(page.getByText('Section 2 of 3', { exact: true })).toBeVisible();
  const labelled = page.getByRole('region', { name: questions.labelled });
  const meat = labelled.getByRole('button', { name: 'Viandes', exact: true });
  await meat.click();
  await expect(meat).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText('Each answer is saved on this tablet as you go.')).toContainText(
    '2 answers waiting to send.',
  );
  await expect(networkIndicator(page)).toHaveText('Offline · 2 waiting to send');

  // 4. Back online: everything is sent.
  await context.setOffline(false);
  await expect(networkIndicator(page)).toHaveText('Online', { timeout: 30_000 });
  await expect(page.getByText('All answers are sent.')).toBeVisible({ timeout: 30_000 });

  // 5. The last section: submitted after confirmation, scored by the server.
  await page.getByRole('button', { name: 'Next section' }).click();
  await expect(page.getByText('Section 3 of 3', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Submit the audit' }).click();
  const confirm = page.getByRole('dialog', { name: 'Submit the audit?' });
  await confirm.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Audit submitted' })).toBeVisible();
  // Scored: door "No" 0/1, Viandes 3/6, the unanswered rating and bins 0/1 each → 3/9.
  await expect(page.getByText(/^Score: [\d.]+ %$/)).toHaveText('Score: 33.33 %');

  // 6. The back-office (the demo manager): the audit's results list it, for Paris Opéra.
  const managerContext = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    storageState: await sessionStateOf('manager'),
  });
  try {
    const manager = await apiSession(managerContext.request);
    const { items: stores } = await manager.get<{
      items: { id: string; name: string; database: string | null }[];
    }>('/stores', { search: 'Opéra' });
    const databaseId = stores.find((item) => item.name === demoTablet.storeName)?.database;
    expect(databaseId, 'the demo database').toBeTruthy();
    const { items: audits } = await manager.get<{ items: { id: string; name: string }[] }>(
      `/databases/${databaseId}/audits`,
      { search: auditName },
    );
    const audit = audits.find((item) => item.name === auditName);
    expect(audit, auditName).toBeDefined();
    const { items: results } = await manager.get<{ items: ResultSummary[] }>(
      `/audits/${audit!.id}/results`,
    );
    const fromTablet = results.filter(
      (result) => result.store.name === demoTablet.storeName && result.auditor.name === employee,
    );
    expect(fromTablet).toHaveLength(1);
    expect(fromTablet[0]).toMatchObject({
      status: 'submitted',
      store: { id: store.id },
      auditor: { kind: 'employee' },
      score: 3,
      max_score: 9,
    });
  } finally {
    await managerContext.close();
  }
});
