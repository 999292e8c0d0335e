/**
 * Audits (issue 16; not a test): a large audit through the API, its PDF and CSV, and the two
 * heavy web screens in Chromium. Runs on the built server (apps/server/dist/main.js, which
 * renders the PDF in its worker thread, apps/server/dist/audit-worker.js, as in production) on
 * a fresh database: embedded PGlite in a temporary folder, or, when DATABASE_URL is given, a
 * scratch PostgreSQL database `mise_bench_audits` on that server (dropped at the end unless
 * BENCH_KEEP=true). A distributor, a database, two stores and a manager are written first;
 * everything else goes through the API as the web app calls it, signed in as that manager.
 *
 * 1. Server: a 50-section × 20-question audit (BENCH_AUDIT_SECTIONS × 20; yes/no questions with
 *    conditional questions on them, scored multiple choices, texts, numbers, ratings, dates,
 *    and in every fifth section a file upload left unanswered) created, then read 50 times and
 *    saved 20 times (each save changes a question's text: a new structure version). A result
 *    is started in the first store, its 990 answers sent a section at a time (PATCH of 19–20
 *    answers, 50 batches), submitted, and read 50 times.
 * 2. PDF and CSV: POST /api/pdf/audit right after the submission (it joins the render the
 *    submission started, in a worker that is not yet running: the first render), then 5
 *    renders again with the worker warm (the stored file removed before each), then 10
 *    answers with the PDF stored. During every render, 20 clients each send GET /api/me, wait
 *    for its answer, then 10 ms, again and again; the same load runs 3 s with no render first,
 *    for comparison. Then 19 more results (990 answers each, one PATCH), submitted (their PDFs
 *    render in the background: awaited), and the CSV of the 20 results, 5 times.
 * 3. Browser (when apps/web/dist exists; BENCH_BROWSER=false skips it): the manager's session
 *    in Chromium (CHROME_PATH, default /usr/bin/chromium), 1280 × 800; from navigation to the
 *    builder (/auditingConfiguration?id=…) showing the audit's name field and first section,
 *    and to the perform screen (/auditingPerform?audit=…&result=…, a result in progress in the
 *    second store, half answered) showing the first section's 20 questions; BENCH_BROWSER_RUNS
 *    (default 5) in a fresh browser context each (cold cache), then as many reloads in one
 *    context (warm cache). Measured in the page (performance.now() from navigation start).
 *
 *   flock /tmp/mise-build.lock npm run build && node --import tsx bench/audits.ts
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/audits.ts
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client';
import { runMigrations } from '../apps/server/src/db/migrate';
import {
  buildDatabase,
  buildDistributor,
  buildStore,
  buildUser,
} from '../apps/server/src/test/factories';
import type {
  AuditAnswerInput,
  AuditQuestion,
  AuditSection,
} from '../packages/shared/src/audits/schemas';
import { questionScore } from '../packages/shared/src/audits/scoring';
import { stop, waitFor } from './browser-support';

const adminUrl = process.env.DATABASE_URL;
const isKeeping = process.env.BENCH_KEEP === 'true';
const benchDatabase = 'mise_bench_audits';
const port = Number(process.env.BENCH_AUDITS_PORT ?? 3340);
const sectionCount = Number(process.env.BENCH_AUDIT_SECTIONS ?? 50);
const questionsPerSection = 20;
const csvResultCount = 20;
const browserRuns = Number(process.env.BENCH_BROWSER_RUNS ?? 5);
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const password = 'bench-audits-1234';
const serverEntry = 'apps/server/dist/main.js';
const webIndex = 'apps/web/dist/index.html';

if (!existsSync(serverEntry)) {
  throw new Error(`${serverEntry} is missing: flock /tmp/mise-build.lock npm run build first`);
}

function databaseUrl(name: string): string {
  const url = new URL(adminUrl!);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin(run: (client: pg.Client) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await run(client);
  } finally {
    await client.end();
  }
}

const percentile = (sorted: number[], share: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))] ?? 0;
const sortedOf = (values: number[]) => [...values].sort((left, right) => left - right);
const ms = (value: number) => `${Math.round(value)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

type Row = { figure: string; measured: string };
const rows: Row[] = [];
function record(figure: string, measured: string): void {
  rows.push({ figure, measured });
  console.log(`  ${figure.padEnd(72)} ${measured}`);
}
function spread(values: number[]): string {
  const sorted = sortedOf(values);
  return `p50 ${ms(percentile(sorted, 0.5))}  p99 ${ms(percentile(sorted, 0.99))}  (n=${sorted.length})`;
}
function medianMax(values: number[]): string {
  const sorted = sortedOf(values);
  return `median ${ms(percentile(sorted, 0.5))}  max ${ms(sorted.at(-1) ?? 0)}  (n=${sorted.length})`;
}

/* ---------------------------------------------------------------- the audit */

const day = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const pad = (value: number) => String(value).padStart(2, '0');
const sectionId = (section: number) => `s${pad(section + 1)}`;
const questionId = (section: number, index: number) => `s${pad(section + 1)}-q${pad(index + 1)}`;
const sectionTitle = (section: number) => `Section ${pad(section + 1)} — Cold chain and hygiene`;

/** One question of the mix: its type and options by position in the section. */
function question(section: number, index: number): AuditQuestion {
  const id = questionId(section, index);
  const base = {
    id,
    text: `Question ${section + 1}.${index + 1}: is the check of this point done as the procedure describes it?`,
    required: false,
    conditions: [] as { question_id: string; value: boolean }[],
    archived_at: null,
  };
  const choices = (scores: number[], texts?: string[]) =>
    scores.map((score, choice) => ({
      id: `${id}-c${choice + 1}`,
      text: texts?.[choice] ?? `Choice ${choice + 1}`,
      score,
      archived_at: null,
    }));
  const yesNo = (required: boolean): AuditQuestion => {
    const built = {
      ...base,
      required,
      type: 'yes_or_no' as const,
      score: 0,
      options: { multiple_selection: false, choices: choices([1, 0], ['true', 'false']) },
    };
    return { ...built, score: questionScore(built, true) };
  };
  const choice = (scores: number[], multiple: boolean): AuditQuestion => {
    const built = {
      ...base,
      type: 'multiple_choice' as const,
      score: 0,
      options: { multiple_selection: multiple, choices: choices(scores) },
    };
    return { ...built, score: questionScore(built, true) };
  };
  const on = (source: number, value: boolean) => [
    { question_id: questionId(section, source), value },
  ];
  const text = (max: number | null, extra: Partial<typeof base> = {}): AuditQuestion => ({
    ...base,
    ...extra,
    type: 'text_input',
    score: null,
    options: { max_characters: max },
  });
  const rating = (min: number, max: number, precision: number): AuditQuestion => ({
    ...base,
    type: 'rating',
    score: 2,
    options: { min_rating: min, max_rating: max, precision },
  });
  const number = (extra: Partial<typeof base> = {}): AuditQuestion => ({
    ...base,
    ...extra,
    type: 'number',
    score: null,
    options: { min_number: 0, max_number: 100 },
  });
  const date = (limit: 'no_limit' | 'only_past' | 'only_future'): AuditQuestion => ({
    ...base,
    type: 'date',
    score: null,
    options: { date_limit: limit },
  });
  switch (index) {
    case 0:
      return yesNo(true);
    case 1:
      return text(null, { required: true, conditions: on(0, true) });
    case 2:
      return choice([0, 1, 2, 3], false);
    case 3:
      return number();
    case 4:
      return rating(0, 5, 0.5);
    case 5:
      return date('no_limit');
    case 6:
      return yesNo(true);
    case 7:
      return text(500, { required: true, conditions: on(6, false) });
    case 8:
      return choice([1, 1, 2], true);
    case 9:
      return text(200);
    case 10:
      return yesNo(false);
    case 11:
      return number({ conditions: on(10, true) });
    case 12:
      return rating(1, 10, 1);
    case 13:
      return date('only_past');
    case 14:
      return choice([0, 2], false);
    case 15:
      return yesNo(false);
    case 16:
      return text(null);
    case 17:
      return rating(0, 5, 0.5);
    case 18:
      return number();
    default:
      return section % 5 === 4
        ? {
            ...base,
            type: 'file_upload',
            score: null,
            options: { file_extensions: ['jpg', 'png', 'pdf'] },
          }
        : date('only_future');
  }
}

const sections: AuditSection[] = Array.from({ length: sectionCount }, (_, section) => ({
  id: sectionId(section),
  title: sectionTitle(section),
  archived_at: null,
  questions: Array.from({ length: questionsPerSection }, (_, index) => question(section, index)),
}));
const questionTotal = sectionCount * questionsPerSection;

/** What an auditor answers to a question (every conditional question then shows). */
function answerOf(item: AuditQuestion, position: number): AuditAnswerInput | null {
  const comment = position % 5 === 0 ? { comment: 'Checked with the store manager.' } : {};
  const index = Number(item.id.slice(-2)) - 1;
  switch (item.type) {
    case 'yes_or_no': {
      // Every conditional question shows: the 2nd and the 12th on yes to the 1st and the 11th,
      // the 8th on no to the 7th.
      const isYes = index !== 6 && (index !== 15 || position % 2 === 0);
      return { question_id: item.id, answer_yes: isYes, ...comment };
    }
    case 'text_input':
      return {
        question_id: item.id,
        text: 'The cold room door seal is worn; the delivery waited 10 minutes on the dock.',
        ...comment,
      };
    case 'multiple_choice': {
      const ids = item.options.choices.map((choice) => choice.id);
      const chosen = item.options.multiple_selection
        ? ids.slice(0, 2)
        : [ids[position % ids.length]!];
      return { question_id: item.id, choices: chosen, ...comment };
    }
    case 'number':
      return { question_id: item.id, number: position % 100, ...comment };
    case 'rating':
      return {
        question_id: item.id,
        rating: item.options.precision === 1 ? 7 : 3.5,
        ...comment,
      };
    case 'date': {
      const limit = item.options.date_limit;
      const offset = limit === 'only_past' ? -10 : limit === 'only_future' ? 10 : 0;
      return { question_id: item.id, date: day(offset), ...comment };
    }
    case 'file_upload':
      return null;
  }
}

/** The answers of a section (its file upload left out), in question order. */
const sectionAnswers = sections.map((section, sectionIndex) =>
  section.questions.flatMap((item, index): AuditAnswerInput[] => {
    const answer = answerOf(item, sectionIndex * questionsPerSection + index);
    return answer ? [answer] : [];
  }),
);
const answerTotal = sectionAnswers.reduce((sum, answers) => sum + answers.length, 0);

/* ---------------------------------------------------------------- the database */

const driverLabel = adminUrl ? 'PostgreSQL' : 'PGlite (embedded)';
const dataDir = mkdtempSync(join(tmpdir(), 'mise-bench-audits-'));
if (adminUrl) {
  await withAdmin(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${benchDatabase} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${benchDatabase}`);
  });
}
const database = adminUrl
  ? await openDatabase({ driver: 'pg', url: databaseUrl(benchDatabase), poolSize: 2 })
  : await openDatabase({ driver: 'pglite', dataDir: join(dataDir, 'pglite') });
await runMigrations(database);
const distributor = await buildDistributor(database.db, { name: 'Bench distributor' });
const catalogue = await buildDatabase(database.db, {
  name: 'Bench database',
  distributor_id: distributor.id,
});
const storeValues = { distributor_id: distributor.id, database_id: catalogue.id };
const firstStore = await buildStore(database.db, { ...storeValues, name: 'Bench store Paris' });
const secondStore = await buildStore(database.db, { ...storeValues, name: 'Bench store Lyon' });
const manager = await buildUser(database.db, {
  role: 'manager',
  email: 'manager@bench.test',
  name: 'Bench',
  surname: 'Manager',
  language: 'en',
  password,
  database_id: catalogue.id,
  managedDatabaseIds: [catalogue.id],
});
// PGlite allows one process: the server opens the folder once the seed is written.
await database.close();

/* ---------------------------------------------------------------- the server */

const base = `http://127.0.0.1:${port}`;
const { DATABASE_URL: _adminUrl, ...serverEnvironment } = process.env;
const server: ChildProcess = spawn(process.execPath, [serverEntry], {
  env: {
    ...serverEnvironment,
    // No demo organisation: only the bench's rows.
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: base,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...(adminUrl ? { DATABASE_URL: databaseUrl(benchDatabase) } : {}),
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});

let cookie = '';
let csrf = '';
type Answer = { status: number; text: string; bytes: number; elapsed: number };
async function call(method: string, path: string, body?: unknown): Promise<Answer> {
  const before = performance.now();
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      cookie,
      ...(method === 'GET' ? {} : { 'x-csrf-token': csrf }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const buffer = Buffer.from(await response.arrayBuffer());
  const elapsed = performance.now() - before;
  return { status: response.status, text: buffer.toString('utf8'), bytes: buffer.length, elapsed };
}
async function ok(method: string, path: string, body?: unknown): Promise<Answer> {
  const answer = await call(method, path, body);
  if (answer.status !== 200) {
    throw new Error(`${method} ${path}: ${answer.status} ${answer.text.slice(0, 500)}`);
  }
  return answer;
}
const json = <T>(answer: Answer) => JSON.parse(answer.text) as T;

/**
 * 20 clients, each: GET /api/me, its answer, 10 ms, again, until stopped. Answers the
 * latencies of the requests sent before the stop.
 */
function lightLoad(): { stop: () => Promise<number[]> } {
  const latencies: number[] = [];
  let isRunning = true;
  const clients = Array.from({ length: 20 }, async () => {
    while (isRunning) {
      const before = performance.now();
      const response = await fetch(`${base}/api/me`, { headers: { cookie } });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`GET /api/me: ${response.status}`);
      latencies.push(performance.now() - before);
      await sleep(10);
    }
  });
  return {
    stop: async () => {
      isRunning = false;
      await Promise.all(clients);
      return latencies;
    },
  };
}

type AuditBody = { audit: { id: string; version: number; name: string } };
type ResultBody = {
  result: {
    id: string;
    path: string;
    status: string;
    score: number | null;
    max_score: number | null;
    answered_count: number;
  };
};

console.log(
  `\nAudits on ${driverLabel}, the built server (${serverEntry}): ${sectionCount} sections × ` +
    `${questionsPerSection} questions, ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)}`,
);
try {
  await waitFor(`${base}/api/health`);
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: manager.email, password }),
  });
  if (login.status !== 200) throw new Error(`sign-in failed: ${login.status}`);
  const session = login.headers.getSetCookie().find((value) => value.startsWith('mise_session='));
  cookie = session!.split(';')[0]!;
  csrf = json<{ csrfToken: string }>(await ok('GET', '/api/auth/csrf')).csrfToken;

  /* 1. The audit through the API. */
  console.log('Server');
  const auditName = 'Bench audit: monthly hygiene';
  const createBody = { name: auditName, active: true, self_evaluation: false, sections };
  const created = await ok('POST', `/api/databases/${catalogue.id}/audits`, createBody);
  let audit = json<AuditBody>(created).audit;
  record(
    `POST create (${questionTotal} questions, request ${kb(JSON.stringify(createBody).length)})`,
    ms(created.elapsed),
  );
  const auditPath = `/api/audits/${audit.id}`;
  for (let warm = 0; warm < 5; warm += 1) await ok('GET', auditPath);
  const reads: number[] = [];
  let read: Answer | undefined;
  for (let run = 0; run < 50; run += 1) {
    read = await ok('GET', auditPath);
    reads.push(read.elapsed);
  }
  record('GET /api/audits/:id', spread(reads));
  record(
    '  its payload',
    `${kb(read!.bytes)} JSON, ${kb(gzipSync(read!.text).length)} gzip (the server sends it plain)`,
  );
  const saves: number[] = [];
  for (let run = 0; run < 20; run += 1) {
    const edited = structuredClone(sections);
    edited[run % sectionCount]!.questions[0]!.text = `Edited question, save ${run + 1}`;
    const saved = await ok('PUT', auditPath, {
      version: audit.version,
      name: auditName,
      active: true,
      self_evaluation: false,
      published: true,
      sections: edited,
    });
    saves.push(saved.elapsed);
    audit = json<AuditBody>(saved).audit;
  }
  record('PUT /api/audits/:id (a question edited: new structure version)', spread(saves));

  const started = await ok('POST', `/api/audits/${audit.id}/results`, {
    store_id: firstStore.id,
  });
  const result = json<ResultBody>(started).result;
  record('POST start result', ms(started.elapsed));
  const patches: number[] = [];
  let patched: Answer | undefined;
  const answersStarted = performance.now();
  for (const answers of sectionAnswers) {
    patched = await ok('PATCH', `/api/audit-results/${result.id}/answers`, { answers });
    patches.push(patched.elapsed);
  }
  record(
    `PATCH answers, a section at a time (${sectionAnswers.length} batches, ${answerTotal} answers)`,
    `${spread(patches)}, all ${ms(performance.now() - answersStarted)}`,
  );
  record('  last PATCH answer (the whole result)', kb(patched!.bytes));
  const submitted = await ok('POST', `/api/audit-results/${result.id}/submit`);

  /* 2. The PDF (the submission has just started its render) and the load beside it. */
  const load = lightLoad();
  const firstPdf = await ok('POST', '/api/pdf/audit', { auditResultPath: result.path });
  const firstLoad = await load.stop();
  const final = json<ResultBody>(submitted).result;
  record(
    `POST submit (score ${final.score}/${final.max_score}, ${final.answered_count} answered)`,
    ms(submitted.elapsed),
  );
  const resultPath = `/api/audit-results/${result.id}`;
  const resultReads: number[] = [];
  let resultRead: Answer | undefined;
  for (let run = 0; run < 50; run += 1) {
    resultRead = await ok('GET', resultPath);
    resultReads.push(resultRead.elapsed);
  }
  record('GET /api/audit-results/:id (submitted)', spread(resultReads));
  record(
    '  its payload',
    `${kb(resultRead!.bytes)} JSON, ${kb(gzipSync(resultRead!.text).length)} gzip`,
  );

  console.log('PDF and CSV');
  const { url: pdfUrl } = json<{ url: string }>(firstPdf);
  const pdf = await ok('GET', pdfUrl);
  const pages = (pdf.text.match(/\/Type\s*\/Page\b/g) ?? []).length;
  record(
    'POST /api/pdf/audit after submit (first render, worker cold)',
    `${ms(firstPdf.elapsed)} (PDF ${kb(pdf.bytes)}, ${pages} pages)`,
  );
  const idle = lightLoad();
  await sleep(3000);
  const idleLoad = await idle.stop();
  const renders: number[] = [];
  const duringRenders = [...firstLoad];
  const storedPdf = join(dataDir, 'files', pdfUrl.replace(/^\/api\/files\//, ''));
  for (let run = 0; run < 5; run += 1) {
    rmSync(storedPdf);
    const during = lightLoad();
    const rendered = await ok('POST', '/api/pdf/audit', { auditResultPath: result.path });
    duringRenders.push(...(await during.stop()));
    renders.push(rendered.elapsed);
  }
  record('POST /api/pdf/audit, rendered again (worker warm)', medianMax(renders));
  const cached: number[] = [];
  for (let run = 0; run < 10; run += 1) {
    cached.push((await ok('POST', '/api/pdf/audit', { auditResultPath: result.path })).elapsed);
  }
  record('POST /api/pdf/audit, PDF stored', spread(cached));
  record('GET /api/me × 20 clients (10 ms pause), idle 3 s', spread(idleLoad));
  record('GET /api/me × 20 clients (10 ms pause), during the 6 renders', spread(duringRenders));

  // 19 more results of the same audit and store, submitted; their PDFs render in the background.
  const resultIds = [result.id];
  const allAnswers = sectionAnswers.flat();
  for (let index = 1; index < csvResultCount; index += 1) {
    const next = json<ResultBody>(
      await ok('POST', `/api/audits/${audit.id}/results`, { store_id: firstStore.id }),
    ).result;
    await ok('PATCH', `/api/audit-results/${next.id}/answers`, { answers: allAnswers });
    await ok('POST', `/api/audit-results/${next.id}/submit`);
    resultIds.push(next.id);
  }
  const backgroundStarted = performance.now();
  for (;;) {
    const listed = json<{ items: { id: string; has_pdf: boolean }[] }>(
      await ok('GET', `/api/audits/${audit.id}/results`),
    ).items;
    if (listed.filter((item) => resultIds.includes(item.id) && item.has_pdf).length >= 20) break;
    if (performance.now() - backgroundStarted > 300_000) throw new Error('PDFs not rendered');
    await sleep(250);
  }
  record(
    `  ${csvResultCount - 1} PDFs rendered in the background after their submissions`,
    `done ${ms(performance.now() - backgroundStarted)} after the last submission`,
  );
  const csvTimes: number[] = [];
  let csv: Answer | undefined;
  for (let run = 0; run < 5; run += 1) {
    csv = await ok('GET', `/api/audits/${audit.id}/results.csv?ids=${resultIds.join(',')}&lang=en`);
    csvTimes.push(csv.elapsed);
  }
  record(
    `GET results.csv of ${csvResultCount} results`,
    `${medianMax(csvTimes)}, ${kb(csv!.bytes)}, ${csv!.text.split('\n').length - 1} lines`,
  );

  /* 3. The builder and the perform screen in Chromium. */
  if (process.env.BENCH_BROWSER === 'false') {
    console.log('Browser: skipped (BENCH_BROWSER=false)');
  } else if (!existsSync(webIndex)) {
    console.log(`Browser: skipped (${webIndex} missing: build the web app)`);
  } else {
    console.log('Browser (1280 × 800, from navigation start, in the page)');
    // A result in progress in the second store, half answered: the auditor resumes it.
    const open = json<ResultBody>(
      await ok('POST', `/api/audits/${audit.id}/results`, { store_id: secondStore.id }),
    ).result;
    await ok('PATCH', `/api/audit-results/${open.id}/answers`, {
      answers: sectionAnswers.slice(0, Math.ceil(sectionCount / 2)).flat(),
    });
    const firstTitle = sectionTitle(0);
    const builderReady = `(() => {
      const field = document.querySelector('[data-testid="audit-name"]');
      const input = field && (field.tagName === 'INPUT' ? field : field.querySelector('input'));
      if (!input || input.value !== ${JSON.stringify(auditName)}) return false;
      if (input.getClientRects().length === 0) return false;
      const title = document.querySelector('[data-testid="section-title"]');
      return !!title && title.textContent.includes(${JSON.stringify(firstTitle)})
        && title.getClientRects().length > 0;
    })()`;
    // It resumes at the first section with a question left (a file upload counts): that one.
    const answered = new Set(
      sectionAnswers
        .slice(0, Math.ceil(sectionCount / 2))
        .flat()
        .map((answer) => answer.question_id),
    );
    const resumeIndex = sections.findIndex((section) =>
      section.questions.some((item) => !answered.has(item.id)),
    );
    const performReady = `(() => {
      const title = document.querySelector('[data-testid="perform-section-title"]');
      if (!title || !title.textContent.includes(${JSON.stringify(sectionTitle(resumeIndex))})) {
        return false;
      }
      const shown = document.querySelectorAll(
        '[data-section-id="${sectionId(resumeIndex)}"] [data-testid="perform-question"]',
      );
      return shown.length >= ${questionsPerSection} && shown[shown.length - 1].getClientRects().length > 0;
    })()`;
    const screens = [
      { label: 'builder', path: `/auditingConfiguration?id=${audit.id}`, ready: builderReady },
      {
        label: `perform screen (resumes at section ${resumeIndex + 1})`,
        path: `/auditingPerform?audit=${audit.id}&result=${open.id}`,
        ready: performReady,
      },
    ];
    const browser = await chromium.launch({ executablePath: chromePath, args: ['--no-sandbox'] });
    const newContext = async () => {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 800 },
        locale: 'en-US',
      });
      const [name, ...value] = cookie.split('=');
      await context.addCookies([{ name: name!, value: value.join('='), url: base }]);
      return context;
    };
    /** Navigates, then answers the page's time from navigation start to the screen ready. */
    type Timing = { shown: number; data: number; scripts: number };
    /**
     * Navigates, then answers, from navigation start: the screen ready, the last API answer
     * received (the screen's data) and the last script received.
     */
    const measure = async (page: Page, path: string, ready: string) => {
      await page.goto(`${base}${path}`, { waitUntil: 'commit' });
      return page.evaluate<Timing>(`new Promise((resolve, reject) => {
        const deadline = performance.now() + 30000;
        const lastEnd = (test) => Math.max(0, ...performance.getEntriesByType('resource')
          .filter((entry) => test(new URL(entry.name).pathname))
          .map((entry) => entry.responseEnd));
        const check = () => {
          if (${ready}) {
            resolve({
              shown: performance.now(),
              data: lastEnd((path) => path.startsWith('/api/')),
              scripts: lastEnd((path) => path.endsWith('.js')),
            });
          } else if (performance.now() > deadline) reject(new Error('not shown in 30 s'));
          else requestAnimationFrame(check);
        };
        check();
      })`);
    };
    const summary = (timings: Timing[]) => {
      const median = (values: number[]) => percentile(sortedOf(values), 0.5);
      return (
        `${medianMax(timings.map((timing) => timing.shown))}; medians: last script ` +
        `${ms(median(timings.map((timing) => timing.scripts)))}, last API answer ` +
        `${ms(median(timings.map((timing) => timing.data)))}`
      );
    };
    try {
      for (const screen of screens) {
        const cold: Timing[] = [];
        for (let run = 0; run < browserRuns; run += 1) {
          const context = await newContext();
          cold.push(await measure(await context.newPage(), screen.path, screen.ready));
          await context.close();
        }
        const context = await newContext();
        const page = await context.newPage();
        await measure(page, screen.path, screen.ready);
        const warm: Timing[] = [];
        for (let run = 0; run < browserRuns; run += 1) {
          warm.push(await measure(page, screen.path, screen.ready));
        }
        await context.close();
        record(`${screen.label}: navigation → shown, cold cache`, summary(cold));
        record(`${screen.label}: navigation → shown, warm cache`, summary(warm));
      }
    } finally {
      await browser.close();
    }
  }
  console.log(`\nAudits on ${driverLabel} (load average ${loadavg()[0]!.toFixed(1)})`);
  console.table(rows);
} finally {
  await stop(server);
  if (adminUrl && !isKeeping) {
    await withAdmin(async (client) => {
      await client.query(`DROP DATABASE IF EXISTS ${benchDatabase} WITH (FORCE)`);
    });
  }
  rmSync(dataDir, { recursive: true, force: true });
}
