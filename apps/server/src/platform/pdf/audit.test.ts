import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { AuditAnswer, AuditQuestion, AuditSection } from '@mise/shared/audits/schemas';
import { afterAll, describe, expect, it } from 'vitest';
import { readPdf } from '../../test/read-pdf';
import {
  type AuditPdfInput,
  closeAuditPdfWorker,
  renderAuditPdf,
  renderAuditPdfInThread,
} from './audit';

afterAll(() => closeAuditPdfWorker());

const base = { required: false, conditions: [], archived_at: null };
const at = '2026-11-24T09:15:00Z';
function answer(values: Partial<AuditAnswer> & Pick<AuditAnswer, 'question_id' | 'type'>) {
  return { timestamp: at, score: null, ...values } as AuditAnswer;
}

const questions: AuditQuestion[] = [
  {
    ...base,
    id: 'q-yes',
    text: 'Le sol de la cuisine est-il propre ?',
    type: 'yes_or_no',
    score: 1,
    options: {
      multiple_selection: false,
      choices: [
        { id: 'c-true', text: 'true', score: 1, archived_at: null },
        { id: 'c-false', text: 'false', score: 0, archived_at: null },
      ],
    },
  },
  {
    ...base,
    id: 'q-choice',
    text: 'Produits présents en chambre froide',
    type: 'multiple_choice',
    score: 5,
    options: {
      multiple_selection: true,
      choices: [
        { id: 'c-a', text: 'Crème fraîche', score: 2, archived_at: null },
        { id: 'c-b', text: 'Żurek z Łodzi', score: 3, archived_at: null },
        { id: 'c-c', text: 'Pain de campagne', score: 1, archived_at: null },
      ],
    },
  },
  {
    ...base,
    id: 'q-text',
    text: 'Remarques générales',
    type: 'text_input',
    score: null,
    options: { max_characters: null },
  },
  {
    ...base,
    id: 'q-file',
    text: 'Photo du plan de travail',
    type: 'file_upload',
    score: 1,
    options: { file_extensions: ['jpg', 'pdf'] },
  },
  {
    ...base,
    id: 'q-rating',
    text: 'Note de propreté',
    type: 'rating',
    score: 1,
    options: { min_rating: 0, max_rating: 10, precision: 0.5 },
  },
  {
    ...base,
    id: 'q-number',
    text: 'Température du congélateur',
    type: 'number',
    score: 1,
    options: { min_number: -30, max_number: 10 },
  },
  {
    ...base,
    id: 'q-date',
    text: 'Date du dernier nettoyage',
    type: 'date',
    score: 1,
    options: { date_limit: 'only_past' },
  },
  {
    ...base,
    id: 'q-missing',
    text: 'Question restée sans réponse',
    type: 'text_input',
    score: 1,
    options: { max_characters: null },
  },
  {
    ...base,
    id: 'q-hidden',
    text: 'Pourquoi le sol est-il sale ?',
    type: 'text_input',
    score: 1,
    conditions: [{ question_id: 'q-yes', value: false }],
    options: { max_characters: null },
  },
  {
    ...base,
    id: 'q-archived',
    text: 'Ancienne question archivée',
    type: 'text_input',
    score: null,
    archived_at: '2026-11-01T10:00:00Z',
    options: { max_characters: null },
  },
  {
    ...base,
    id: 'q-archived-empty',
    text: 'Question archivée jamais posée',
    type: 'text_input',
    score: null,
    archived_at: '2026-11-01T10:00:00Z',
    options: { max_characters: null },
  },
];

const longText = Array.from({ length: 40 }, (_, index) => `mot${index} déjà ąęłńśźż`).join(' ');

const sampleAnswers: AuditAnswer[] = [
  answer({ question_id: 'q-yes', type: 'yes_or_no', choices: ['c-true'], score: 1 }),
  answer({
    question_id: 'q-choice',
    type: 'multiple_choice',
    choices: ['c-a', 'c-b'],
    score: 5,
    comment: 'Vérifié avec Paweł Wójcik',
  }),
  answer({
    question_id: 'q-text',
    type: 'text_input',
    text: `Très bien tenu, grâce à l'équipe.\nDeuxième ligne : zażółć gęślą jaźń.\n${longText}`,
  }),
  answer({
    question_id: 'q-file',
    type: 'file_upload',
    file_urls: ['/api/files/a/plan.jpg', '/api/files/a/rapport%20final.pdf'],
    score: 1,
  }),
  answer({ question_id: 'q-rating', type: 'rating', rating: 7.5, score: 1 }),
  answer({ question_id: 'q-number', type: 'number', number: -18.25, score: 1 }),
  answer({ question_id: 'q-date', type: 'date', date: '2026-11-20', score: 1 }),
  answer({ question_id: 'q-archived', type: 'text_input', text: 'Réponse conservée' }),
];

function sampleInput(values: Partial<AuditPdfInput> = {}): AuditPdfInput {
  const sections: AuditSection[] = [
    { id: 's-1', title: 'Hygiène de la cuisine', archived_at: null, questions },
  ];
  return {
    language: 'fr',
    timeZone: 'Europe/Warsaw',
    auditName: 'Audit hygiène — Łódź',
    storeName: 'Bistro Łódź',
    databaseName: 'Groupe Żabka',
    auditorName: 'Zofia Wójcik',
    startDate: '2026-11-24T08:05:00Z',
    endDate: '2026-11-24T09:30:00Z',
    score: 10,
    maxScore: 11,
    sections,
    answers: sampleAnswers,
    sectionScores: [{ section_id: 's-1', score: 10, max_score: 11 }],
    fileNames: { '/api/files/a/plan.jpg': 'Plan de travail – été.jpg' },
    ...values,
  };
}

/** The document's words in reading order, every page, whitespace collapsed. */
async function wordsOf(pdf: Buffer) {
  const pages = await readPdf(pdf);
  return {
    pages,
    text: pages
      .map((page) => page.text)
      .join(' ')
      .replace(/\s+/g, ' '),
  };
}
const collapse = (value: string) => value.replace(/\s+/g, ' ').trim();

describe('renderAuditPdfInThread', () => {
  it('prints the header, the section scores and every answer as its type reads', async () => {
    const { pages, text } = await wordsOf(await renderAuditPdfInThread(sampleInput()));
    // Portrait A4.
    expect(pages[0]?.view[2]).toBeLessThan(pages[0]?.view[3] ?? 0);
    for (const expected of [
      "Résultat d'audit",
      'Audit hygiène — Łódź',
      'Bistro Łódź',
      'Groupe Żabka',
      'Zofia Wójcik',
      // Start and end in Warsaw (UTC+1).
      '24/11/2026 09:05',
      '24/11/2026 10:30',
      '10 / 11 (90.91 %)',
      'Score par section',
      'Hygiène de la cuisine',
      // Answers: yes/no translated, choices, text (with its line breaks), files, rating,
      // number in the French notation, date dd/mm/yyyy, comment.
      'Oui',
      'Crème fraîche',
      'Żurek z Łodzi',
      "Très bien tenu, grâce à l'équipe.",
      'Deuxième ligne : zażółć gęślą jaźń.',
      collapse(longText),
      'Plan de travail – été.jpg',
      'rapport final.pdf',
      '7,5 / 10',
      '-18,25',
      '20/11/2026',
      'Vérifié avec Paweł Wójcik',
      'Réponse conservée',
      '(archivée)',
      'Pas de réponse',
      'Page 1 sur',
    ]) {
      expect(text).toContain(expected);
    }
    // The unchosen choice, the hidden question and the unanswered archived one are left out.
    expect(text).not.toContain('Pain de campagne');
    expect(text).not.toContain('Pourquoi le sol est-il sale ?');
    expect(text).not.toContain('Question archivée jamais posée');
    // Points of each answer against the question's.
    expect(text).toContain('5 / 5');
    expect(text).toContain('0 / 1');
  });

  it('reads in each language, the yes/no answer translated', async () => {
    const english = (await wordsOf(await renderAuditPdfInThread(sampleInput({ language: 'en' }))))
      .text;
    expect(english).toContain('Audit result');
    expect(english).toContain('Yes');
    expect(english).toContain('No answer');
    const polish = (await wordsOf(await renderAuditPdfInThread(sampleInput({ language: 'pl' }))))
      .text;
    expect(polish).toContain('Wynik audytu');
    expect(polish).toContain('Tak');
    expect(polish).toContain('Brak odpowiedzi');
    const german = (await wordsOf(await renderAuditPdfInThread(sampleInput({ language: 'de' }))))
      .text;
    expect(german).toContain('Auditergebnis');
    expect(german).toContain('Ja');
    expect(german).toContain('Filiale');
  });

  it('continues an answer taller than a page on the next pages, whole, and numbers them', async () => {
    const huge = Array.from({ length: 3000 }, (_, index) => `ligne${index}`).join('\n');
    const answers = sampleAnswers.map((item) =>
      item.question_id === 'q-text' ? { ...item, text: huge } : item,
    );
    const { pages, text } = await wordsOf(await renderAuditPdfInThread(sampleInput({ answers })));
    expect(pages.length).toBeGreaterThan(3);
    for (const index of [0, 1499, 2999]) expect(text).toContain(`ligne${index} `);
    // Lines in order, each once: none lost or repeated at a page end.
    const lines = text.match(/ligne\d+/g) ?? [];
    expect(lines).toEqual(Array.from({ length: 3000 }, (_, index) => `ligne${index}`));
    pages.forEach((page, index) => {
      expect(page.text).toContain(`Page ${index + 1} sur ${pages.length}`);
      // No text below the footer's line or above the top margin (nothing cut at a page end).
      for (const item of page.items) {
        expect(item.y).toBeGreaterThan(30);
        expect(item.y).toBeLessThan((page.view[3] ?? 0) - 30);
      }
    });
    // The continued section repeats its name on the next page.
    expect(pages[1]?.text).toContain('Hygiène de la cuisine — suite');
  });
});

/** An audit of `sectionCount` sections of `questionCount` answered questions each. */
function bigInput(sectionCount: number, questionCount: number): AuditPdfInput {
  const sections: AuditSection[] = [];
  const answers: AuditAnswer[] = [];
  for (let sectionIndex = 0; sectionIndex < sectionCount; sectionIndex++) {
    const sectionQuestions: AuditQuestion[] = [];
    for (let index = 0; index < questionCount; index++) {
      const id = `q-${sectionIndex}-${index}`;
      sectionQuestions.push({
        ...base,
        id,
        text: `Question ${sectionIndex}.${index} : la zone de préparation est-elle conforme aux règles d'hygiène ?`,
        type: 'text_input',
        score: 1,
        options: { max_characters: null },
      });
      answers.push(
        answer({
          question_id: id,
          type: 'text_input',
          text: `Réponse ${sectionIndex}.${index} : contrôle effectué, état satisfaisant, aucun écart relevé (Łódź).`,
          comment: index % 3 === 0 ? `Commentaire ${sectionIndex}.${index} du contrôleur` : null,
          score: 1,
        }),
      );
    }
    sections.push({
      id: `s-${sectionIndex}`,
      title: `Section ${sectionIndex} — Contrôle des zones`,
      archived_at: null,
      questions: sectionQuestions,
    });
  }
  return sampleInput({
    sections,
    answers,
    score: sectionCount * questionCount,
    maxScore: sectionCount * questionCount,
    sectionScores: sections.map((section) => ({
      section_id: section.id,
      score: questionCount,
      max_score: questionCount,
    })),
  });
}

describe('renderAuditPdf', () => {
  it('renders a 50 × 20 audit in the worker in under 2 s, every answer in it', async () => {
    const input = bigInput(50, 20);
    // The first render also starts the worker thread; the time asked is a render's.
    await renderAuditPdf(sampleInput());
    const started = performance.now();
    const pdf = await renderAuditPdf(input);
    const elapsed = performance.now() - started;
    console.info(`audit PDF 50 × 20: ${Math.round(elapsed)} ms, ${pdf.length} bytes`);
    expect(elapsed).toBeLessThan(2000);
    const { pages, text } = await wordsOf(pdf);
    expect(pages.length).toBeGreaterThan(30);
    for (const item of input.answers) {
      expect(text).toContain(collapse(item.text ?? ''));
      if (item.comment) expect(text).toContain(item.comment);
    }
  });

  it('leaves the main thread free while it renders', async () => {
    const input = bigInput(60, 25);
    await renderAuditPdf(sampleInput());
    const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

    // The histogram counts from its first sample: it is enabled a little before each render.
    const delay = monitorEventLoopDelay({ resolution: 5 });
    let ticks = 0;
    const interval = setInterval(() => {
      ticks += 1;
    }, 10);
    delay.enable();
    await settle();
    const started = performance.now();
    const pdf = await renderAuditPdf(input);
    const elapsed = performance.now() - started;
    await settle();
    delay.disable();
    clearInterval(interval);

    // The same render in this thread holds the event loop (what the worker avoids).
    const inThread = monitorEventLoopDelay({ resolution: 5 });
    inThread.enable();
    await settle();
    await renderAuditPdfInThread(input);
    await settle();
    inThread.disable();

    const worst = delay.max / 1e6;
    const worstInThread = inThread.max / 1e6;
    console.info(
      `event loop during a ${Math.round(elapsed)} ms render: worst delay ${worst.toFixed(1)} ms ` +
        `with the worker (${ticks} ticks of 10 ms), ${worstInThread.toFixed(1)} ms in this thread`,
    );
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(worstInThread).toBeGreaterThan(150);
    expect(worst).toBeLessThan(100);
    expect(ticks).toBeGreaterThan(elapsed / 10 / 3);
  });

  it('rejects a render that fails and renders the next one', async () => {
    const broken = { ...sampleInput(), sections: null } as unknown as AuditPdfInput;
    await expect(renderAuditPdf(broken)).rejects.toThrow(/audit PDF failed/);
    const pdf = await renderAuditPdf(sampleInput());
    expect((await wordsOf(pdf)).text).toContain('Bistro Łódź');
  });

  it('renders requests made together, each its own document', async () => {
    const [first, second] = await Promise.all([
      renderAuditPdf(sampleInput({ storeName: 'Premier établissement' })),
      renderAuditPdf(sampleInput({ storeName: 'Drugi lokal' })),
    ]);
    expect((await wordsOf(first!)).text).toContain('Premier établissement');
    expect((await wordsOf(second!)).text).toContain('Drugi lokal');
  });
});
