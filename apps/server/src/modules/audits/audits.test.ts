import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import type { AuditQuestion, AuditSection } from '@mise/shared/audits/schemas';
import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditResults, audits, databases, employeeRoles } from '../../db/schema';
import { buildEmployee, buildTwoTenants, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { readPdf } from '../../test/read-pdf';
import { asDevice, buildDevice, employeeToken, png } from '../device/test-support';

const context = useTestApp({ now: () => new Date('2026-11-24T10:00:00Z') });

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let admin: Agent;
let distributorA: Agent;
let managerA: Agent;
let customerA: Agent;
let managerB: Agent;

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  admin = await signIn(context.app, tenants.admin.email, testPassword);
  distributorA = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
  managerA = await signIn(context.app, tenants.a.users.manager.email, testPassword);
  customerA = await signIn(context.app, tenants.a.users.customer.email, testPassword);
  managerB = await signIn(context.app, tenants.b.users.manager.email, testPassword);
});

const listUrl = (databaseId: string) => `/api/databases/${databaseId}/audits`;

/** A yes/no question, a conditional text, a scored multiple choice, a rating and a file. */
function sampleSections(): AuditSection[] {
  const yesNo: AuditQuestion = {
    id: 'q-door',
    text: 'Is the cold room door closed?',
    type: 'yes_or_no',
    score: 1,
    required: true,
    conditions: [],
    archived_at: null,
    options: {
      multiple_selection: false,
      choices: [
        { id: 'c-yes', text: 'true', score: 1, archived_at: null },
        { id: 'c-no', text: 'false', score: 0, archived_at: null },
      ],
    },
  };
  return [
    {
      id: 's-cold',
      title: 'Cold chain',
      archived_at: null,
      questions: [
        yesNo,
        {
          id: 'q-why',
          text: 'Why is the door open?',
          type: 'text_input',
          score: null,
          required: true,
          conditions: [{ question_id: 'q-door', value: false }],
          archived_at: null,
          options: { max_characters: 20 },
        },
        {
          id: 'q-labels',
          text: 'Which products are labelled?',
          type: 'multiple_choice',
          score: 5,
          required: false,
          conditions: [],
          archived_at: null,
          options: {
            multiple_selection: true,
            choices: [
              { id: 'c-meat', text: 'Meat', score: 3, archived_at: null },
              { id: 'c-fish', text: 'Fish', score: 2, archived_at: null },
            ],
          },
        },
      ],
    },
    {
      id: 's-hygiene',
      title: 'Hygiène générale',
      archived_at: null,
      questions: [
        {
          id: 'q-rating',
          text: 'Overall cleanliness',
          type: 'rating',
          score: 1,
          required: false,
          conditions: [],
          archived_at: null,
          options: { min_rating: 0, max_rating: 5, precision: 0.5 },
        },
        {
          id: 'q-photo',
          text: 'Photo of the hand-wash station',
          type: 'file_upload',
          score: null,
          required: false,
          conditions: [],
          archived_at: null,
          options: { file_extensions: ['jpg', 'png'] },
        },
        {
          id: 'q-count',
          text: 'Thermometers in service',
          type: 'number',
          score: null,
          required: false,
          conditions: [],
          archived_at: null,
          options: { min_number: 0, max_number: 10 },
        },
        {
          id: 'q-next',
          text: 'Next visit',
          type: 'date',
          score: null,
          required: false,
          conditions: [],
          archived_at: null,
          options: { date_limit: 'only_future' },
        },
      ],
    },
  ];
}

async function createAudit(agent: Agent, databaseId: string, name = `Audit ${unique()}`) {
  const response = await agent.inject({
    method: 'POST',
    url: listUrl(databaseId),
    payload: { name, sections: sampleSections() },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().audit as { id: string; version: number; sections: AuditSection[] };
}

function unique() {
  return randomBytes(3).toString('hex');
}

async function save(agent: Agent, audit: { id: string; version: number }, body: object) {
  return agent.inject({
    method: 'PUT',
    url: `/api/audits/${audit.id}`,
    payload: { version: audit.version, ...body },
  });
}

async function publishedAudit(databaseId = tenants.a.database.id) {
  const audit = await createAudit(distributorA, databaseId);
  const published = await save(distributorA, audit, {
    name: 'Monthly hygiene audit',
    active: true,
    self_evaluation: true,
    published: true,
    sections: audit.sections,
  });
  expect(published.statusCode, published.body).toBe(200);
  return published.json().audit as {
    id: string;
    version: number;
    sections: AuditSection[];
    publishing_date: string | null;
  };
}

describe('audit templates', () => {
  it('lists, creates and reads audits for admin, distributor and manager; never for customers', async () => {
    const audit = await createAudit(managerA, tenants.a.database.id, 'Manager audit');
    for (const agent of [admin, distributorA, managerA]) {
      const list = await agent.inject({ method: 'GET', url: listUrl(tenants.a.database.id) });
      expect(list.statusCode).toBe(200);
      const item = list.json().items.find((row: { id: string }) => row.id === audit.id);
      expect(item).toMatchObject({ name: 'Manager audit', section_count: 2, question_count: 7 });
      expect(list.json().can_create).toBe(true);
    }
    const managerList = await managerA.inject({
      method: 'GET',
      url: listUrl(tenants.a.database.id),
    });
    expect(managerList.json().can_read_results).toBe(true);
    const distributorList = await distributorA.inject({
      method: 'GET',
      url: listUrl(tenants.a.database.id),
    });
    expect(distributorList.json().can_read_results).toBe(false);

    const customerList = await customerA.inject({
      method: 'GET',
      url: listUrl(tenants.a.database.id),
    });
    expect(customerList.statusCode).toBe(403);
    expect(customerList.json().error.message).toBe(
      'You do not have permission to execute this action.',
    );
    const customerCreate = await customerA.inject({
      method: 'POST',
      url: listUrl(tenants.a.database.id),
      payload: { name: 'Nope' },
    });
    expect(customerCreate.statusCode).toBe(403);
    const customerRead = await customerA.inject({ method: 'GET', url: `/api/audits/${audit.id}` });
    expect(customerRead.statusCode).toBe(403);
  });

  it('compresses a large audit for a client that accepts it', async () => {
    const audit = await createAudit(distributorA, tenants.a.database.id);
    const plain = await distributorA.inject({ method: 'GET', url: `/api/audits/${audit.id}` });
    const zipped = await distributorA.inject({
      method: 'GET',
      url: `/api/audits/${audit.id}`,
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString('utf8'))).toEqual(plain.json());
  });

  it("keeps another tenant's audits invisible and unchangeable", async () => {
    const audit = await createAudit(distributorA, tenants.a.database.id);
    const before = await context.db.select().from(audits).where(eq(audits.id, audit.id));
    for (const request of [
      { method: 'GET' as const, url: `/api/audits/${audit.id}` },
      {
        method: 'PUT' as const,
        url: `/api/audits/${audit.id}`,
        payload: {
          version: 1,
          name: 'x',
          active: true,
          self_evaluation: false,
          published: true,
          sections: [],
        },
      },
      { method: 'POST' as const, url: `/api/audits/${audit.id}/duplicate` },
      { method: 'GET' as const, url: `/api/audits/${audit.id}/results` },
      {
        method: 'POST' as const,
        url: `/api/audits/${audit.id}/results`,
        payload: { store_id: tenants.b.stores[0]!.id },
      },
      { method: 'GET' as const, url: listUrl(tenants.a.database.id) },
      { method: 'POST' as const, url: listUrl(tenants.a.database.id), payload: { name: 'Intrus' } },
    ]) {
      const response = await managerB.inject(request);
      expect(response.statusCode, `${request.method} ${request.url}`).toBe(404);
    }
    const after = await context.db.select().from(audits).where(eq(audits.id, audit.id));
    expect(after).toEqual(before);
  });

  it('searches by name and hides inactive audits unless asked', async () => {
    const name = `Fryer check ${unique()}`;
    const audit = await createAudit(distributorA, tenants.a.database.id, name);
    await save(distributorA, audit, {
      name,
      active: false,
      self_evaluation: false,
      published: false,
      sections: audit.sections,
    });
    const search = encodeURIComponent(name.slice(0, 10).toLowerCase());
    const active = await distributorA.inject({
      method: 'GET',
      url: `${listUrl(tenants.a.database.id)}?search=${search}`,
    });
    expect(active.json().items.map((row: { name: string }) => row.name)).not.toContain(name);
    const all = await distributorA.inject({
      method: 'GET',
      url: `${listUrl(tenants.a.database.id)}?search=${search}&include_inactive=true`,
    });
    expect(all.json().items.map((row: { name: string }) => row.name)).toContain(name);
  });

  it('refuses a database whose auditing extension is hidden', async () => {
    await context.db
      .update(databases)
      .set({ hidden_extensions: ['auditing'] })
      .where(eq(databases.id, tenants.b.database.id));
    try {
      const response = await managerB.inject({
        method: 'GET',
        url: listUrl(tenants.b.database.id),
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('audit/extension-hidden');
      // The databases list says so, for the auditing screen to leave it out.
      const list = await managerB.inject({ method: 'GET', url: '/api/databases' });
      expect(
        list.json().items.find((item: { id: string }) => item.id === tenants.b.database.id)
          .hidden_extensions,
      ).toEqual(['auditing']);
    } finally {
      await context.db
        .update(databases)
        .set({ hidden_extensions: [] })
        .where(eq(databases.id, tenants.b.database.id));
    }
  });

  it('answers every validation of spec 002 §5 with its code and writes nothing', async () => {
    const sections = sampleSections();
    const broken = (change: (sections: AuditSection[]) => void) => {
      const copy = structuredClone(sections);
      change(copy);
      return copy;
    };
    const cases: [string, object][] = [
      ['audit/name-required', { name: '   ', sections }],
      [
        'audit/section-title-required',
        {
          name: 'A',
          sections: broken((s) => {
            s[0]!.title = ' ';
          }),
        },
      ],
      [
        'audit/text-limit-invalid',
        {
          name: 'A',
          sections: broken((s) => {
            (s[0]!.questions[1]!.options as { max_characters: number }).max_characters = 0;
          }),
        },
      ],
      [
        'audit/choice-score-invalid',
        {
          name: 'A',
          sections: broken((s) => {
            (s[0]!.questions[2]!.options as { choices: { score: number }[] }).choices[0]!.score =
              -1;
          }),
        },
      ],
      [
        'audit/question-score-invalid',
        {
          name: 'A',
          sections: broken((s) => {
            s[1]!.questions[0]!.score = 0;
          }),
        },
      ],
      [
        'audit/number-bounds-invalid',
        {
          name: 'A',
          sections: broken((s) => {
            (s[1]!.questions[2]!.options as { min_number: number }).min_number = -1_000_000_000;
          }),
        },
      ],
      [
        'audit/rating-bounds-invalid',
        {
          name: 'A',
          sections: broken((s) => {
            (s[1]!.questions[0]!.options as { precision: number }).precision = 0.3;
          }),
        },
      ],
      [
        'audit/condition-invalid',
        {
          name: 'A',
          sections: broken((s) => {
            s[0]!.questions[1]!.conditions = [{ question_id: 'q-labels', value: true }];
          }),
        },
      ],
      [
        'audit/condition-invalid',
        {
          name: 'A',
          sections: broken((s) => {
            s[0]!.questions[1]!.conditions = [
              { question_id: 'q-door', value: true },
              { question_id: 'q-door', value: false },
            ];
          }),
        },
      ],
    ];
    const count = async () =>
      (await context.db.select().from(audits).where(eq(audits.database_id, tenants.a.database.id)))
        .length;
    const before = await count();
    for (const [code, payload] of cases) {
      const response = await distributorA.inject({
        method: 'POST',
        url: listUrl(tenants.a.database.id),
        payload,
      });
      expect(response.statusCode, code).toBe(400);
      expect(response.json().error.code).toBe(code);
    }
    const unknownField = await distributorA.inject({
      method: 'POST',
      url: listUrl(tenants.a.database.id),
      payload: { name: 'A', database_id: tenants.b.database.id },
    });
    expect(unknownField.statusCode).toBe(400);
    expect(await count()).toBe(before);
  });

  it('sets the publishing date once, refuses a stale version, and archives instead of deleting once published', async () => {
    const draft = await createAudit(distributorA, tenants.a.database.id);
    // Before publishing, a removed question is gone.
    const withoutNext = draft.sections.map((section) => ({
      ...section,
      questions: section.questions.filter((question) => question.id !== 'q-next'),
    }));
    const removed = await save(distributorA, draft, {
      name: 'Draft',
      active: true,
      self_evaluation: false,
      published: false,
      sections: withoutNext,
    });
    expect(removed.statusCode).toBe(200);
    const afterRemoval = removed.json().audit;
    expect(JSON.stringify(afterRemoval.sections)).not.toContain('q-next');
    expect(afterRemoval.publishing_date).toBeNull();

    const published = await save(distributorA, afterRemoval, {
      name: 'Draft',
      active: true,
      self_evaluation: false,
      published: true,
      sections: afterRemoval.sections,
    });
    const audit = published.json().audit;
    expect(audit.publishing_date).toBe('2026-11-24T10:00:00.000Z');

    const stale = await save(distributorA, afterRemoval, {
      name: 'Stale',
      active: true,
      self_evaluation: false,
      published: true,
      sections: [],
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('conflict/stale-version');

    // Published: removing a question and a choice only archives them.
    const trimmed = (audit.sections as AuditSection[]).map((section) => ({
      ...section,
      questions: section.questions
        .filter((question) => question.id !== 'q-count')
        .map((question) =>
          question.id === 'q-labels' && question.type === 'multiple_choice'
            ? {
                ...question,
                options: { ...question.options, choices: question.options.choices.slice(0, 1) },
              }
            : question,
        ),
    }));
    const archived = await save(distributorA, audit, {
      name: 'Draft',
      active: true,
      self_evaluation: false,
      published: true,
      sections: trimmed,
    });
    expect(archived.statusCode).toBe(200);
    const saved = archived.json().audit;
    const questions = (saved.sections as AuditSection[]).flatMap((section) => section.questions);
    expect(questions.find((question) => question.id === 'q-count')?.archived_at).toBeTruthy();
    const labels = questions.find((question) => question.id === 'q-labels');
    expect(
      labels?.type === 'multiple_choice' &&
        labels.options.choices.find((choice) => choice.id === 'c-fish')?.archived_at,
    ).toBeTruthy();
    expect(saved.question_count).toBe(5);
    expect(saved.publishing_date).toBe('2026-11-24T10:00:00.000Z');
    expect(saved.structure_version).toBeGreaterThan(audit.structure_version);
  });

  it("duplicates with ' (Copy)', unpublished, leaving archived items behind", async () => {
    const audit = await publishedAudit();
    const copy = await distributorA.inject({
      method: 'POST',
      url: `/api/audits/${audit.id}/duplicate`,
    });
    expect(copy.statusCode).toBe(200);
    expect(copy.json().audit).toMatchObject({
      name: 'Monthly hygiene audit (Copy)',
      published: false,
      publishing_date: null,
      question_count: 7,
    });
    expect(copy.json().audit.id).not.toBe(audit.id);
  });
});

describe('performing an audit and its results', () => {
  const storeA1 = () => tenants.a.stores[0]!;
  const storeA2 = () => tenants.a.stores[1]!;

  it('refuses to start an unpublished audit', async () => {
    const audit = await createAudit(distributorA, tenants.a.database.id);
    const response = await managerA.inject({
      method: 'POST',
      url: `/api/audits/${audit.id}/results`,
      payload: { store_id: storeA1().id },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('audit/not-published');
  });

  it('starts, resumes, checks answers, enforces required questions, scores and closes a result', async () => {
    const audit = await publishedAudit();
    const start = await managerA.inject({
      method: 'POST',
      url: `/api/audits/${audit.id}/results`,
      payload: { store_id: storeA1().id },
    });
    expect(start.statusCode, start.body).toBe(200);
    const result = start.json().result;
    expect(result).toMatchObject({
      status: 'in_progress',
      store: { id: storeA1().id },
      end_date: null,
    });
    // Leaving and coming back resumes the same result.
    const resume = await managerA.inject({
      method: 'POST',
      url: `/api/audits/${audit.id}/results`,
      payload: { store_id: storeA1().id },
    });
    expect(resume.json().result.id).toBe(result.id);
    const open = await managerA.inject({
      method: 'GET',
      url: `/api/audit-results/in-progress?audit_id=${audit.id}`,
    });
    expect(open.json().items.map((item: { id: string }) => item.id)).toEqual([result.id]);

    const answersUrl = `/api/audit-results/${result.id}/answers`;
    const refused: [string, object][] = [
      ['audit/answer-out-of-bounds', { question_id: 'q-rating', rating: 6 }],
      ['audit/answer-precision', { question_id: 'q-rating', rating: 2.3 }],
      ['audit/answer-too-long', { question_id: 'q-why', text: 'x'.repeat(21) }],
      ['audit/answer-choice', { question_id: 'q-labels', choices: ['c-unknown'] }],
      ['audit/answer-type', { question_id: 'q-count', text: 'three' }],
      ['audit/answer-out-of-bounds', { question_id: 'q-count', number: 11 }],
      ['audit/answer-date-limit', { question_id: 'q-next', date: '2026-11-01' }],
      ['audit/unknown-question', { question_id: 'q-nope', text: 'x' }],
      ['audit/answer-file', { question_id: 'q-photo', file_urls: ['/api/files/stores/x/y.png'] }],
    ];
    for (const [code, answer] of refused) {
      const response = await managerA.inject({
        method: 'PATCH',
        url: answersUrl,
        payload: { answers: [{ question_id: 'q-door', answer_yes: false }, answer] },
      });
      expect(response.statusCode, code).toBe(400);
      expect(response.json().error.code).toBe(code);
    }
    // Nothing of a refused batch was written.
    const [untouched] = await context.db
      .select()
      .from(auditResults)
      .where(eq(auditResults.id, result.id));
    expect(untouched!.answers).toEqual({});

    const firstSave = await managerA.inject({
      method: 'PATCH',
      url: answersUrl,
      payload: {
        answers: [
          { question_id: 'q-door', answer_yes: false, comment: 'Seal is worn' },
          { question_id: 'q-rating', rating: 3.5 },
        ],
      },
    });
    expect(firstSave.statusCode, firstSave.body).toBe(200);
    const saved = firstSave.json().result;
    expect(
      saved.answers.find((answer: { question_id: string }) => answer.question_id === 'q-door'),
    ).toMatchObject({
      answer_yes: false,
      comment: 'Seal is worn',
      timestamp: '2026-11-24T10:00:00.000Z',
      type: 'yes_or_no',
    });

    // The door is open: the conditional required question now blocks the submission.
    const blocked = await managerA.inject({
      method: 'POST',
      url: `/api/audit-results/${result.id}/submit`,
    });
    expect(blocked.statusCode).toBe(400);
    expect(blocked.json().error.code).toBe('audit/required-missing');
    expect(blocked.json().error.issues.map((issue: { path: string }) => issue.path)).toEqual([
      'q-why',
    ]);

    // Another manager's or a distributor's attempt to write in this result is refused.
    const other = await distributorA.inject({
      method: 'PATCH',
      url: answersUrl,
      payload: { answers: [{ question_id: 'q-why', text: 'mine' }] },
    });
    expect(other.statusCode).toBe(404);

    await managerA.inject({
      method: 'PATCH',
      url: answersUrl,
      payload: {
        answers: [
          { question_id: 'q-why', text: 'Delivery' },
          { question_id: 'q-labels', choices: ['c-meat', 'c-fish'] },
          { question_id: 'q-next', date: '2026-12-01' },
        ],
      },
    });
    const submitted = await managerA.inject({
      method: 'POST',
      url: `/api/audit-results/${result.id}/submit`,
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const final = submitted.json().result;
    // Door answered no (0 of 1), labels 3 + 2 of 5, rating answered 1 of 1: 6 of 7.
    expect(final).toMatchObject({
      status: 'submitted',
      score: 6,
      max_score: 7,
      end_date: '2026-11-24T10:00:00.000Z',
    });
    expect(final.section_scores).toEqual([
      { section_id: 's-cold', score: 5, max_score: 6 },
      { section_id: 's-hygiene', score: 1, max_score: 1 },
    ]);
    // Submitting again answers the same result; writing after submission is refused.
    const again = await managerA.inject({
      method: 'POST',
      url: `/api/audit-results/${result.id}/submit`,
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().result.score).toBe(6);

    // The PDF (spec 002 §7): rendered once, holding every answer; rendered again only if missing.
    const path = final.path as string;
    expect(path).toBe(
      `databases/${tenants.a.database.id}/audits/${audit.id}/audit_results/${result.id}`,
    );
    const pdfCall = await managerA.inject({
      method: 'POST',
      url: '/api/pdf/audit',
      payload: { auditResultPath: path, lang: 'en' },
    });
    expect(pdfCall.statusCode, pdfCall.body).toBe(200);
    const { url } = pdfCall.json();
    expect(url).toBe(`/api/files/audit-results/${result.id}/audit.pdf`);
    const pdf = await managerA.inject({ method: 'GET', url });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = (await readPdf(pdf.rawPayload)).map((page) => page.text).join('\n');
    for (const expected of [
      'Monthly hygiene audit',
      'Seal is worn',
      'Delivery',
      'Meat',
      'Fish',
      '01/12/2026',
      'Hygiène générale',
    ]) {
      expect(text).toContain(expected);
    }
    const [stored] = await context.db
      .select()
      .from(auditResults)
      .where(eq(auditResults.id, result.id));
    expect(stored!.pdf_key).toBe(`audit-results/${result.id}/audit.pdf`);
    await context.app.deps.storage.delete(stored!.pdf_key!);
    const again2 = await managerA.inject({
      method: 'POST',
      url: '/api/pdf/audit',
      payload: { auditResultPath: path },
    });
    expect(again2.json().url).toBe(url);
    expect((await managerA.inject({ method: 'GET', url })).statusCode).toBe(200);
    const badPath = await managerA.inject({
      method: 'POST',
      url: '/api/pdf/audit',
      payload: {
        auditResultPath: `databases/${tenants.b.database.id}/audits/${audit.id}/audit_results/${result.id}`,
      },
    });
    expect(badPath.statusCode).toBe(404);
    const otherTenant = await managerB.inject({
      method: 'POST',
      url: '/api/pdf/audit',
      payload: { auditResultPath: path },
    });
    expect(otherTenant.statusCode).toBe(404);

    // The CSV: semicolons, UTF-8 with BOM, every answer, read back by a CSV parser.
    const csv = await managerA.inject({
      method: 'GET',
      url: `/api/audits/${audit.id}/results.csv?ids=${result.id}&lang=en`,
    });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const rows: string[][] = parse(csv.rawPayload.toString('utf8'), { delimiter: ';', bom: true });
    const [header, ...lines] = rows;
    const column = (name: string) => header!.findIndex((cell) => cell.toLowerCase() === name);
    const answerColumn = column('answer');
    const questionColumn = column('question');
    expect(answerColumn).toBeGreaterThan(-1);
    const byQuestion = new Map(lines.map((line) => [line[questionColumn], line]));
    expect(byQuestion.get('Why is the door open?')?.[answerColumn]).toBe('Delivery');
    expect(byQuestion.get('Which products are labelled?')?.[answerColumn]).toBe('Meat, Fish');
    expect(byQuestion.get('Is the cold room door closed?')?.[answerColumn]).toBe('No');
    expect(byQuestion.get('Overall cleanliness')?.[answerColumn]).toContain('3.5');
    // Every shown question has its row (the unanswered ones with an empty answer).
    expect(lines).toHaveLength(7);

    const late = await managerA.inject({
      method: 'PATCH',
      url: answersUrl,
      payload: { answers: [{ question_id: 'q-why', text: 'changed' }] },
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().error.code).toBe('audit/result-submitted');
  });

  it('lets admins and managers read results; not distributors, customers or another tenant', async () => {
    const audit = await publishedAudit();
    const start = await managerA.inject({
      method: 'POST',
      url: `/api/audits/${audit.id}/results`,
      payload: { store_id: storeA2().id },
    });
    const resultId = start.json().result.id;
    await managerA.inject({
      method: 'PATCH',
      url: `/api/audit-results/${resultId}/answers`,
      payload: { answers: [{ question_id: 'q-door', answer_yes: true }] },
    });
    await managerA.inject({ method: 'POST', url: `/api/audit-results/${resultId}/submit` });
    for (const agent of [admin, managerA]) {
      const list = await agent.inject({ method: 'GET', url: `/api/audits/${audit.id}/results` });
      expect(list.statusCode).toBe(200);
      expect(list.json().items.map((item: { id: string }) => item.id)).toContain(resultId);
      const one = await agent.inject({ method: 'GET', url: `/api/audit-results/${resultId}` });
      expect(one.statusCode).toBe(200);
    }
    expect(
      (await distributorA.inject({ method: 'GET', url: `/api/audits/${audit.id}/results` }))
        .statusCode,
    ).toBe(403);
    expect(
      (await distributorA.inject({ method: 'GET', url: `/api/audit-results/${resultId}` }))
        .statusCode,
    ).toBe(404);
    expect(
      (await customerA.inject({ method: 'GET', url: `/api/audit-results/${resultId}` })).statusCode,
    ).toBe(404);
    expect(
      (await managerB.inject({ method: 'GET', url: `/api/audit-results/${resultId}` })).statusCode,
    ).toBe(404);
    expect(
      (await managerB.inject({ method: 'GET', url: `/api/audits/${audit.id}/results` })).statusCode,
    ).toBe(404);
  });

  it('keeps an earlier result readable with its own questions after the published audit changes', async () => {
    const audit = await publishedAudit();
    const start = await managerA.inject({
      method: 'POST',
      url: `/api/audits/${audit.id}/results`,
      payload: { store_id: storeA1().id },
    });
    const resultId = start.json().result.id;
    await managerA.inject({
      method: 'PATCH',
      url: `/api/audit-results/${resultId}/answers`,
      payload: {
        answers: [
          { question_id: 'q-door', answer_yes: true },
          { question_id: 'q-count', number: 4 },
        ],
      },
    });
    await managerA.inject({ method: 'POST', url: `/api/audit-results/${resultId}/submit` });

    // The audit changes afterwards: a question reworded, another removed, the type of a third changed.
    const changed = audit.sections.map((section) => ({
      ...section,
      questions: section.questions
        .filter((question) => question.id !== 'q-count')
        .map((question) =>
          question.id === 'q-door' ? { ...question, text: 'Door shut and sealed?' } : question,
        ),
    }));
    const saved = await save(distributorA, audit, {
      name: 'Monthly hygiene audit v2',
      active: true,
      self_evaluation: true,
      published: true,
      sections: changed,
    });
    expect(saved.statusCode).toBe(200);

    const read = await managerA.inject({ method: 'GET', url: `/api/audit-results/${resultId}` });
    const result = read.json().result;
    const questions = (result.sections as AuditSection[]).flatMap((section) => section.questions);
    expect(questions.find((question) => question.id === 'q-door')?.text).toBe(
      'Is the cold room door closed?',
    );
    expect(questions.find((question) => question.id === 'q-count')).toMatchObject({
      text: 'Thermometers in service',
      archived_at: null,
    });
    expect(
      result.answers.find((answer: { question_id: string }) => answer.question_id === 'q-count')
        .number,
    ).toBe(4);
  });

  it("shows on the home panel the share of the database's stores that have a result ('effectué')", async () => {
    const audit = await publishedAudit();
    const before = await managerA.inject({
      method: 'GET',
      url: `/api/databases/${tenants.a.database.id}/audits/home`,
    });
    expect(before.json().items.find((item: { id: string }) => item.id === audit.id)).toMatchObject({
      stores_done: 0,
      store_count: 2,
      done_percentage: 0,
      publishing_date: '2026-11-24T10:00:00.000Z',
    });
    const start = await admin.inject({
      method: 'POST',
      url: `/api/audits/${audit.id}/results`,
      payload: { store_id: storeA1().id },
    });
    const resultId = start.json().result.id;
    await admin.inject({
      method: 'PATCH',
      url: `/api/audit-results/${resultId}/answers`,
      payload: { answers: [{ question_id: 'q-door', answer_yes: true }] },
    });
    // In progress does not count.
    const pending = await managerA.inject({
      method: 'GET',
      url: `/api/databases/${tenants.a.database.id}/audits/home`,
    });
    expect(
      pending.json().items.find((item: { id: string }) => item.id === audit.id).stores_done,
    ).toBe(0);
    await admin.inject({ method: 'POST', url: `/api/audit-results/${resultId}/submit` });
    const after = await customerA.inject({
      method: 'GET',
      url: `/api/databases/${tenants.a.database.id}/audits/home`,
    });
    expect(after.statusCode).toBe(200);
    expect(after.json().items.find((item: { id: string }) => item.id === audit.id)).toMatchObject({
      stores_done: 1,
      store_count: 2,
      done_percentage: 50,
    });
    const otherTenant = await managerB.inject({
      method: 'GET',
      url: `/api/databases/${tenants.a.database.id}/audits/home`,
    });
    expect(otherTenant.statusCode).toBe(404);
  });

  it('stores a file answer of an allowed type, readable by the result readers only', async () => {
    const audit = await publishedAudit();
    const start = await managerA.inject({
      method: 'POST',
      url: `/api/audits/${audit.id}/results`,
      payload: { store_id: storeA2().id },
    });
    const resultId = start.json().result.id;
    const upload = (filename: string, data: Buffer, questionId = 'q-photo') => {
      const boundary = `----mise-${unique()}`;
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="question_id"\r\n\r\n${questionId}\r\n`,
        ),
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        data,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return managerA.inject({
        method: 'POST',
        url: `/api/audit-results/${resultId}/files`,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: body,
      });
    };
    const wrongType = await upload('notes.pdf', Buffer.from('%PDF-1.4 ...'));
    expect(wrongType.json().error.code).toBe('audit/answer-file');
    const fake = await upload('station.png', Buffer.from('not a png at all'));
    expect(fake.json().error.code).toBe('file/unsupported-type');
    const notFileQuestion = await upload('station.png', png, 'q-door');
    expect(notFileQuestion.json().error.code).toBe('audit/unknown-question');
    const stored = await upload('station.png', png);
    expect(stored.statusCode, stored.body).toBe(200);
    const { url, name } = stored.json();
    expect(name).toBe('station.png');
    expect(url).toMatch(
      new RegExp(`^/api/files/audit-results/${resultId}/[0-9a-f-]+/station\\.png$`),
    );
    const answer = await managerA.inject({
      method: 'PATCH',
      url: `/api/audit-results/${resultId}/answers`,
      payload: { answers: [{ question_id: 'q-photo', file_urls: [url] }] },
    });
    expect(answer.statusCode).toBe(200);
    expect((await managerA.inject({ method: 'GET', url })).statusCode).toBe(200);
    expect((await admin.inject({ method: 'GET', url })).statusCode).toBe(200);
    expect((await managerB.inject({ method: 'GET', url })).statusCode).toBe(404);
    expect((await distributorA.inject({ method: 'GET', url })).statusCode).toBe(404);
  });
});

describe('self-evaluation on the tablet', () => {
  it('lets an employee whose role grants auditing perform it; refuses the others', async () => {
    const audit = await publishedAudit();
    const store = tenants.a.stores[0]!;
    const [auditorRole] = await context.db
      .insert(employeeRoles)
      .values({
        database_id: tenants.a.database.id,
        name: `Auditor ${unique()}`,
        features_permissions: { auditing: true },
      })
      .returning();
    const [cookRole] = await context.db
      .insert(employeeRoles)
      .values({
        database_id: tenants.a.database.id,
        name: `Cook ${unique()}`,
        features_permissions: { temperatures: true },
      })
      .returning();
    const auditor = await buildEmployee(context.db, {
      storeIds: [store.id],
      database_id: tenants.a.database.id,
      role_id: auditorRole!.id,
    });
    const cook = await buildEmployee(context.db, {
      storeIds: [store.id],
      database_id: tenants.a.database.id,
      role_id: cookRole!.id,
    });
    const { token } = await buildDevice(context.db, store.id);
    const auditorToken = await employeeToken(context.app, token, auditor.id);
    const cookToken = await employeeToken(context.app, token, cook.id);

    const list = await asDevice(context.app, token)({ method: 'GET', url: '/api/device/audits' });
    expect(list.statusCode).toBe(200);
    expect(list.json().items.find((item: { id: string }) => item.id === audit.id)).toMatchObject({
      in_progress_result_id: null,
    });

    const refused = await asDevice(
      context.app,
      token,
      cookToken,
    )({ method: 'POST', url: `/api/device/audits/${audit.id}/results` });
    expect(refused.statusCode).toBe(403);

    const device = asDevice(context.app, token, auditorToken);
    const start = await device({ method: 'POST', url: `/api/device/audits/${audit.id}/results` });
    expect(start.statusCode, start.body).toBe(200);
    const resultId = start.json().result.id;
    const listed = await asDevice(context.app, token)({ method: 'GET', url: '/api/device/audits' });
    expect(
      listed.json().items.find((item: { id: string }) => item.id === audit.id)
        .in_progress_result_id,
    ).toBe(resultId);

    const cookWrite = await asDevice(
      context.app,
      token,
      cookToken,
    )({
      method: 'PATCH',
      url: `/api/device/audit-results/${resultId}/answers`,
      payload: { answers: [{ question_id: 'q-door', answer_yes: true }] },
    });
    expect(cookWrite.statusCode).toBe(403);
    const write = await device({
      method: 'PATCH',
      url: `/api/device/audit-results/${resultId}/answers`,
      payload: {
        answers: [
          { question_id: 'q-door', answer_yes: true },
          { question_id: 'q-labels', choices: ['c-meat'] },
        ],
      },
    });
    expect(write.statusCode, write.body).toBe(200);
    const submit = await device({
      method: 'POST',
      url: `/api/device/audit-results/${resultId}/submit`,
    });
    expect(submit.statusCode, submit.body).toBe(200);
    expect(submit.json().result).toMatchObject({
      status: 'submitted',
      score: 4,
      max_score: 7,
      auditor: { kind: 'employee', id: auditor.id },
    });

    // Submission renders the PDF in the background (in the store's language, French here).
    await expect
      .poll(
        async () =>
          (await context.db.select().from(auditResults).where(eq(auditResults.id, resultId)))[0]
            ?.pdf_key ?? null,
        { timeout: 20_000, interval: 200 },
      )
      .toBe(`audit-results/${resultId}/audit.pdf`);

    // Another store's tablet sees nothing of it.
    const { token: otherToken } = await buildDevice(context.db, tenants.a.stores[1]!.id);
    const other = await asDevice(
      context.app,
      otherToken,
    )({ method: 'GET', url: `/api/device/audit-results/${resultId}` });
    expect(other.statusCode).toBe(404);
    // An audit that is not a self-evaluation cannot be started on a tablet.
    await context.db.update(audits).set({ self_evaluation: false }).where(eq(audits.id, audit.id));
    const notSelf = await device({ method: 'POST', url: `/api/device/audits/${audit.id}/results` });
    expect(notSelf.statusCode).toBe(404);
  });
});
