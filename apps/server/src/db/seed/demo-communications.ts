import { randomUUID } from 'node:crypto';
import { communicationPeriod } from '@mise/shared/communications/rules';
import type { Quiz, TargetInput } from '@mise/shared/communications/schemas';
import { addDays, dayInZone } from '@mise/shared/tasks/rules';
import { and, eq } from 'drizzle-orm';
import { databaseZone } from '../../modules/communications/communications.service';
import { createPdfDocument, renderToBuffer } from '../../platform/pdf/document';
import { pdfFonts } from '../../platform/pdf/fonts';
import type { Storage } from '../../platform/storage';
import type { Database } from '../client';
import {
  communicationResults,
  communications,
  databases,
  employeeRoles,
  employeeStores,
  employees,
  type StoredTrainingSection,
  stores,
  trainingCategories,
  trainingResults,
  trainings,
  users,
} from '../schema';

/*
 * The demo's communications and trainings (issue 18, first start only), so /communications,
 * /communicationStats, /trainings, /trainingStats, the home panels and the tablets have content:
 * - a running communication (3 days ago to 10 days ahead, everyone, a one-question quiz) read by
 *   four employees over the last three days and put off by one;
 * - a coming communication (in 5 days) for the waiters' role;
 * - a required training "Hygiène des mains" (two sections, each with a PDF and a quiz) done by
 *   the Paris employees and one in Lille over the last ten days, and a non-required training of
 *   the category "Sécurité" done once in Lyon.
 * Every attachment is a small PDF stored under the keys the uploads make.
 */

const everyone: TargetInput = {
  stores: [],
  store_tags: [],
  employee_roles: [],
  store_tags_union: true,
};

const demoDatabaseName = 'Bistro Group';
const runningName = 'Rappel : affichage des allergènes';
const hour = 3_600_000;
const day = 24 * hour;

/** A one-page PDF: a title and a few paragraphs, in the product's embedded font. */
async function demoPdf(title: string, paragraphs: string[]): Promise<Buffer> {
  const doc = createPdfDocument({ title, layout: 'portrait' });
  const output = renderToBuffer(doc);
  const left = 64;
  const width = doc.page.width - 2 * left;
  doc.font(pdfFonts.bold).fontSize(22).fillColor('#1f2937').text(title, left, 72, { width });
  doc.moveDown(1.2);
  doc.font(pdfFonts.regular).fontSize(12).fillColor('#374151');
  for (const paragraph of paragraphs) {
    doc.text(paragraph, left, doc.y, { width, lineGap: 3 });
    doc.moveDown(0.8);
  }
  doc
    .fontSize(9)
    .fillColor('#6b7280')
    .text('Bistro Group — document de démonstration', left, doc.page.height - 64, { width });
  doc.end();
  return output;
}

/** Stores a PDF under `<folder><uuid>/<file>` and answers its attachment columns. */
async function storePdf(
  storage: Storage,
  folder: string,
  file: { name: string; key: string; title: string; paragraphs: string[] },
) {
  const path = `${folder}${randomUUID()}/${file.key}`;
  await storage.put(path, await demoPdf(file.title, file.paragraphs));
  return { name: file.name, path, content_type: 'application/pdf' };
}

/** A quiz of one question whose first answer is the correct one; answers its correct choice. */
function oneQuestionQuiz(text: string, answers: [string, ...string[]]) {
  const question = {
    id: randomUUID(),
    text,
    answers: answers.map((answer, index) => ({
      id: randomUUID(),
      text: answer,
      correct: index === 0,
    })),
  };
  const quiz: Quiz = { questions: [question] };
  return { quiz, correct: { [question.id]: [question.answers[0]!.id] } };
}

type Plan = {
  employee: string;
  store: string;
  /** How long before now it was completed (null: put off, never completed). */
  before: number | null;
  timeSpent: number;
};

export async function seedDemoCommunications(
  db: Database,
  storage: Storage,
  managerEmail: string,
  now: Date,
): Promise<void> {
  const [database] = await db
    .select({ id: databases.id })
    .from(databases)
    .where(eq(databases.name, demoDatabaseName))
    .limit(1);
  if (!database) return;
  const [existing] = await db
    .select({ id: communications.id })
    .from(communications)
    .where(and(eq(communications.database_id, database.id), eq(communications.name, runningName)))
    .limit(1);
  if (existing) return;

  const [manager] = await db
    .select({ id: users.id, name: users.name, surname: users.surname })
    .from(users)
    .where(eq(users.email, managerEmail))
    .limit(1);
  const author = {
    created_by: manager?.id ?? null,
    created_by_name: manager ? `${manager.name} ${manager.surname}`.trim() : null,
  };
  const [waiters] = await db
    .select({ id: employeeRoles.id })
    .from(employeeRoles)
    .where(and(eq(employeeRoles.database_id, database.id), eq(employeeRoles.name, 'Serveur')))
    .limit(1);
  // Every demo employee with the stores they work in, by name: results go to one of them.
  const memberships = await db
    .select({
      employee_id: employees.id,
      name: employees.name,
      surname: employees.surname,
      store_id: stores.id,
      store_name: stores.name,
      store_distributor: stores.distributor_id,
    })
    .from(employeeStores)
    .innerJoin(employees, eq(employees.id, employeeStores.employee_id))
    .innerJoin(stores, eq(stores.id, employeeStores.store_id))
    .where(eq(employees.database_id, database.id));
  const membership = (plan: Plan) =>
    memberships.find(
      (row) => `${row.name} ${row.surname}` === plan.employee && row.store_name === plan.store,
    );

  const zone = await databaseZone(db, database.id);
  const today = dayInZone(now, zone);
  const communicationFolder = `databases/${database.id}/communications/`;
  const trainingFolder = `databases/${database.id}/training/`;

  // Files first: a failure leaves at most unreferenced files, never a row without its file.
  const allergens = await storePdf(storage, communicationFolder, {
    name: 'Rappel allergènes.pdf',
    key: 'rappel-allergenes.pdf',
    title: 'Affichage des allergènes',
    paragraphs: [
      'La réglementation impose d’informer chaque client des 14 allergènes majeurs présents dans les plats servis.',
      'Le classeur des allergènes doit rester à disposition en salle et être mis à jour à chaque changement de carte.',
      'En cas de doute sur une recette, demandez au chef avant de répondre au client : ne devinez jamais.',
    ],
  });
  const welcome = await storePdf(storage, communicationFolder, {
    name: 'Accueil en salle.pdf',
    key: 'accueil-en-salle.pdf',
    title: 'Nouvelle procédure d’accueil en salle',
    paragraphs: [
      'À partir de la semaine prochaine, chaque table est accueillie dans les deux minutes qui suivent son installation.',
      'Présentez la carte du jour et signalez les plats contenant des allergènes.',
      'Le responsable de salle fait un point de cinq minutes avant chaque service.',
    ],
  });
  const washing = await storePdf(storage, trainingFolder, {
    name: 'Lavage des mains.pdf',
    key: 'lavage-des-mains.pdf',
    title: 'Lavage des mains',
    paragraphs: [
      'Lavez-vous les mains en arrivant au poste, après une pause, après être passé aux toilettes et après avoir manipulé des déchets ou des produits crus.',
      'Mouillez, savonnez pendant au moins 30 secondes (paumes, dos des mains, entre les doigts, ongles), rincez puis séchez avec un essuie-mains à usage unique.',
      'Fermez le robinet avec l’essuie-mains pour ne pas vous recontaminer.',
    ],
  });
  const gloves = await storePdf(storage, trainingFolder, {
    name: 'Port des gants.pdf',
    key: 'port-des-gants.pdf',
    title: 'Port des gants',
    paragraphs: [
      'Les gants ne remplacent pas le lavage des mains : lavez-vous les mains avant de les enfiler.',
      'Changez de gants entre deux tâches différentes, par exemple entre des produits crus et des produits cuits.',
      'Jetez des gants déchirés ou souillés immédiatement.',
    ],
  });
  const extinguisher = await storePdf(storage, trainingFolder, {
    name: 'Utiliser un extincteur.pdf',
    key: 'utiliser-un-extincteur.pdf',
    title: 'Utiliser un extincteur',
    paragraphs: [
      'Repérez les extincteurs de votre établissement et le type de feu auquel chacun est destiné.',
      'Pour un feu d’huile, n’utilisez jamais d’eau : couvrez avec la couverture anti-feu ou utilisez l’extincteur à CO₂.',
      'Donnez l’alerte avant d’intervenir et ne prenez aucun risque.',
    ],
  });

  const allergensQuiz = oneQuestionQuiz(
    'Combien d’allergènes majeurs faut-il signaler aux clients ?',
    ['14', '7', '20'],
  );
  const washingQuiz = oneQuestionQuiz('Combien de temps faut-il savonner ses mains au minimum ?', [
    '30 secondes',
    '5 secondes',
    '2 minutes',
  ]);
  const glovesQuiz = oneQuestionQuiz('Quand faut-il changer de gants ?', [
    'Entre deux tâches différentes',
    'Une fois par service',
    'Seulement quand ils sont déchirés',
  ]);
  const washingSection: StoredTrainingSection = {
    id: randomUUID(),
    title: 'Lavage des mains',
    attachment: washing,
    quiz: washingQuiz.quiz,
  };
  const glovesSection: StoredTrainingSection = {
    id: randomUUID(),
    title: 'Port des gants',
    attachment: gloves,
    quiz: glovesQuiz.quiz,
  };
  const extinguisherSection: StoredTrainingSection = {
    id: randomUUID(),
    title: 'Utiliser un extincteur',
    attachment: extinguisher,
    quiz: { questions: [] },
  };

  const running = { start_day: addDays(today, -3), end_day: addDays(today, 10) };
  const coming = { start_day: addDays(today, 5), end_day: addDays(today, 19) };
  const runningPeriod = communicationPeriod(running, zone);
  const comingPeriod = communicationPeriod(coming, zone);

  await db.transaction(async (tx) => {
    const [announcement] = await tx
      .insert(communications)
      .values([
        {
          database_id: database.id,
          name: runningName,
          ...running,
          time_zone: zone,
          start_at: runningPeriod.start,
          end_at: runningPeriod.end,
          attachment_name: allergens.name,
          attachment_path: allergens.path,
          attachment_content_type: allergens.content_type,
          quiz: allergensQuiz.quiz,
          target: everyone,
          ...author,
          created_at: new Date(now.getTime() - 4 * day),
          updated_at: new Date(now.getTime() - 4 * day),
        },
        {
          database_id: database.id,
          name: 'Nouvelle procédure d’accueil en salle',
          ...coming,
          time_zone: zone,
          start_at: comingPeriod.start,
          end_at: comingPeriod.end,
          attachment_name: welcome.name,
          attachment_path: welcome.path,
          attachment_content_type: welcome.content_type,
          quiz: { questions: [] },
          target: { ...everyone, employee_roles: waiters ? [waiters.id] : [] },
          ...author,
          created_at: new Date(now.getTime() - day),
          updated_at: new Date(now.getTime() - day),
        },
      ])
      .returning();

    // Read over the last three days (never before the start), one put off, one not opened yet.
    const readings: Plan[] = [
      {
        employee: 'Lucas Martin',
        store: 'Bistro Paris Opéra',
        before: 2 * day + 3 * hour,
        timeSpent: 95,
      },
      {
        employee: 'Hugo Petit',
        store: 'Bistro Paris Opéra',
        before: day + 5 * hour,
        timeSpent: 240,
      },
      {
        employee: 'Nina Moreau',
        store: 'Bistro Lille Centre',
        before: day + 2 * hour,
        timeSpent: 132,
      },
      { employee: 'Chloé Durand', store: 'Bistro Lyon Bellecour', before: hour, timeSpent: 48 },
      { employee: 'Emma Bernard', store: 'Bistro Paris Opéra', before: null, timeSpent: 15 },
    ];
    const communicationRows = readings.flatMap((plan) => {
      const member = membership(plan);
      if (!member) return [];
      const completedAt =
        plan.before === null
          ? null
          : new Date(Math.max(now.getTime() - plan.before, runningPeriod.start.getTime() + hour));
      const seenAt = new Date((completedAt ?? now).getTime() - plan.timeSpent * 1000 - 60_000);
      return [
        {
          communication_id: announcement!.id,
          database_id: database.id,
          store_id: member.store_id,
          employee_id: member.employee_id,
          skipped_count: completedAt ? 0 : 1,
          time_spent: plan.timeSpent,
          completed_at: completedAt,
          answers: completedAt ? allergensQuiz.correct : null,
          first_seen_at: seenAt,
          updated_at: completedAt ?? seenAt,
        },
      ];
    });
    if (communicationRows.length > 0) {
      await tx.insert(communicationResults).values(communicationRows);
    }

    const [safety] = await tx
      .insert(trainingCategories)
      .values({ name: 'Sécurité', type: 'database', source: database.id })
      .returning();
    const owner = {
      type: 'database' as const,
      source: database.id,
      database_id: database.id,
      lang: 'fr' as const,
      active: true,
      target: everyone,
      ...author,
      created_at: new Date(now.getTime() - 12 * day),
      updated_at: new Date(now.getTime() - 12 * day),
    };
    const [hygiene, fire] = await tx
      .insert(trainings)
      .values([
        {
          ...owner,
          name: 'Hygiène des mains',
          required: true,
          sections: [washingSection, glovesSection],
        },
        {
          ...owner,
          name: 'Sécurité incendie',
          required: false,
          category_id: safety!.id,
          sections: [extinguisherSection],
        },
      ])
      .returning();

    // The Paris employees (the tablet journeys') have done the required training: no prompt
    // interrupts them; Chloé (Lyon) and Thomas (Lille) still have it to do.
    const trainingPlans: (Plan & { training: 'hygiene' | 'fire' })[] = [
      {
        training: 'hygiene',
        employee: 'Lucas Martin',
        store: 'Bistro Paris Opéra',
        before: 9 * day + 2 * hour,
        timeSpent: 410,
      },
      {
        training: 'hygiene',
        employee: 'Emma Bernard',
        store: 'Bistro Paris Opéra',
        before: 6 * day + 4 * hour,
        timeSpent: 285,
      },
      {
        training: 'hygiene',
        employee: 'Hugo Petit',
        store: 'Bistro Paris Opéra',
        before: 3 * day + hour,
        timeSpent: 520,
      },
      {
        training: 'hygiene',
        employee: 'Nina Moreau',
        store: 'Bistro Lille Centre',
        before: day + 6 * hour,
        timeSpent: 350,
      },
      {
        training: 'fire',
        employee: 'Chloé Durand',
        store: 'Bistro Lyon Bellecour',
        before: 4 * day + 3 * hour,
        timeSpent: 180,
      },
    ];
    const trainingRows = trainingPlans.flatMap((plan) => {
      const member = membership(plan);
      if (!member || plan.before === null) return [];
      const completedAt = new Date(now.getTime() - plan.before);
      const isHygiene = plan.training === 'hygiene';
      return [
        {
          training_id: isHygiene ? hygiene!.id : fire!.id,
          store_id: member.store_id,
          store_database: database.id,
          store_distributor: member.store_distributor,
          employee_id: member.employee_id,
          time_spent: plan.timeSpent,
          completed_at: completedAt,
          answers: isHygiene
            ? { [washingSection.id]: washingQuiz.correct, [glovesSection.id]: glovesQuiz.correct }
            : { [extinguisherSection.id]: {} },
          first_seen_at: new Date(completedAt.getTime() - plan.timeSpent * 1000 - 60_000),
          updated_at: completedAt,
        },
      ];
    });
    if (trainingRows.length > 0) await tx.insert(trainingResults).values(trainingRows);
  });
}
