import { newQuestion, scoreResult } from '@mise/shared/audits/rules';
import type { AuditAnswer, AuditQuestion, AuditSection } from '@mise/shared/audits/schemas';
import { eq } from 'drizzle-orm';
import { chainAuditResult } from '../../modules/records/sources/audit-results';
import type { Database } from '../client';
import { auditResults, audits, auditVersions, databases, stores, users } from '../schema';

/*
 * The demo's audits (issue 16, first start only): a published monthly hygiene audit of the demo
 * database, a self-evaluation the store's tablets offer to employees whose role grants auditing,
 * with a condition (a door left open asks why) and scores; the manager performed it in Lyon last
 * week, so the home's audits panel shows one store of three done and /auditingResults has a result
 * with its PDF and CSV.
 */

let counter = 0;
const demoId = () => `demo-${(counter++).toString(36)}`;

function question(
  type: AuditQuestion['type'],
  text: string,
  change: (question: AuditQuestion) => AuditQuestion = (value) => value,
): AuditQuestion {
  return change(newQuestion(type, demoId, text));
}

function demoSections(): AuditSection[] {
  const door = question(
    'yes_or_no',
    'La porte de la chambre froide est-elle fermée ?',
    (value) => ({
      ...value,
      required: true,
    }),
  );
  return [
    {
      id: demoId(),
      title: 'Chaîne du froid',
      archived_at: null,
      questions: [
        door,
        question('text_input', 'Pourquoi la porte est-elle ouverte ?', (value) => ({
          ...value,
          score: null,
          required: true,
          conditions: [{ question_id: door.id, value: false }],
        })),
        question('number', 'Nombre de thermomètres en service', (value) => ({
          ...value,
          score: null,
        })),
      ],
    },
    {
      id: demoId(),
      title: 'Étiquetage et traçabilité',
      archived_at: null,
      questions: [
        question('multiple_choice', 'Quels produits sont étiquetés ?', (value) =>
          value.type === 'multiple_choice'
            ? {
                ...value,
                score: 6,
                options: {
                  multiple_selection: true,
                  choices: [
                    { id: demoId(), text: 'Viandes', score: 3, archived_at: null },
                    { id: demoId(), text: 'Poissons', score: 2, archived_at: null },
                    { id: demoId(), text: 'Desserts', score: 1, archived_at: null },
                  ],
                },
              }
            : value,
        ),
        question('date', 'Date de la prochaine vérification', (value) =>
          value.type === 'date'
            ? { ...value, score: null, options: { date_limit: 'only_future' } }
            : value,
        ),
      ],
    },
    {
      id: demoId(),
      title: 'Hygiène des locaux',
      archived_at: null,
      questions: [
        question('rating', 'Propreté générale de la cuisine', (value) =>
          value.type === 'rating'
            ? { ...value, options: { min_rating: 0, max_rating: 5, precision: 0.5 } }
            : value,
        ),
        question('file_upload', 'Photo du poste de lavage des mains', (value) => ({
          ...value,
          score: null,
        })),
        question('yes_or_no', 'Les poubelles sont-elles fermées ?'),
      ],
    },
  ];
}

export async function seedDemoAudits(db: Database, managerEmail: string, now: Date): Promise<void> {
  const [database] = await db
    .select({ id: databases.id })
    .from(databases)
    .where(eq(databases.name, 'Bistro Group'))
    .limit(1);
  const [lyon] = await db
    .select({ id: stores.id })
    .from(stores)
    .where(eq(stores.name, 'Bistro Lyon Bellecour'))
    .limit(1);
  const [manager] = await db
    .select({ id: users.id, name: users.name, surname: users.surname })
    .from(users)
    .where(eq(users.email, managerEmail))
    .limit(1);
  if (!database) return;
  const sections = demoSections();
  const name = 'Audit hygiène mensuel';
  const publishedAt = new Date(now.getTime() - 14 * 86_400_000);
  const [audit] = await db
    .insert(audits)
    .values({
      database_id: database.id,
      name,
      self_evaluation: true,
      published: true,
      publishing_date: publishedAt,
      sections,
      section_count: sections.length,
      question_count: sections.reduce((sum, section) => sum + section.questions.length, 0),
      created_by: manager?.id ?? null,
      created_at: publishedAt,
      updated_at: publishedAt,
    })
    .returning();
  await db
    .insert(auditVersions)
    .values({ audit_id: audit!.id, version: 1, database_id: database.id, name, sections });
  if (!lyon || !manager) return;

  const [cold, labels, hygiene] = sections;
  const end = new Date(now.getTime() - 6 * 86_400_000);
  const at = end.toISOString();
  const choiceIds = (questionValue: AuditQuestion | undefined, texts: string[]) =>
    questionValue && 'choices' in questionValue.options
      ? questionValue.options.choices
          .filter((choice) => texts.includes(choice.text))
          .map((choice) => choice.id)
      : [];
  const inputs = [
    {
      question_id: cold!.questions[0]!.id,
      answer_yes: true,
      choices: choiceIds(cold!.questions[0], ['true']),
    },
    { question_id: cold!.questions[2]!.id, number: 3 },
    {
      question_id: labels!.questions[0]!.id,
      choices: choiceIds(labels!.questions[0], ['Viandes', 'Poissons']),
    },
    { question_id: labels!.questions[1]!.id, date: end.toISOString().slice(0, 10) },
    { question_id: hygiene!.questions[0]!.id, rating: 4, comment: 'Hotte à dégraisser' },
    {
      question_id: hygiene!.questions[2]!.id,
      answer_yes: false,
      choices: choiceIds(hygiene!.questions[2], ['false']),
    },
  ];
  const scores = scoreResult(sections, inputs);
  const typeOf = new Map(
    sections.flatMap((section) => section.questions.map((item) => [item.id, item.type] as const)),
  );
  const answers: Record<string, AuditAnswer> = Object.fromEntries(
    inputs.map((input) => [
      input.question_id,
      {
        ...input,
        type: typeOf.get(input.question_id)!,
        timestamp: at,
        score: scores.answer_scores.get(input.question_id) ?? null,
      },
    ]),
  );
  // A submitted result is a record: appended to Lyon's records chain with it (issue 21).
  await db.transaction(async (tx) => {
    const [result] = await tx
      .insert(auditResults)
      .values({
        audit_id: audit!.id,
        audit_version: 1,
        database_id: database.id,
        store_id: lyon.id,
        source: 'web',
        auditor_user_id: manager.id,
        auditor_name: `${manager.name} ${manager.surname}`.trim(),
        status: 'submitted',
        start_date: new Date(end.getTime() - 40 * 60_000),
        end_date: end,
        answers,
        score: scores.score,
        max_score: scores.max_score,
        section_scores: scores.section_scores,
        created_at: end,
        updated_at: end,
      })
      .returning();
    await chainAuditResult(tx, result!);
  });
}
