import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { formatTimeSpent } from '../../../shared/content/format-duration';
import { removeQuestion } from '../../../shared/content/quiz-edits';
import { buildCommunication } from '../test/build-communication';
import { bodyOf, draftOf, validateDraft } from './communication-draft';

const question = (id: string, answers: { correct: boolean }[]) => ({
  id,
  text: `Question ${id}`,
  answers: answers.map((answer, index) => ({ id: `${id}-${index}`, text: 'Oui', ...answer })),
});

describe('communication draft', () => {
  it('starts a new communication active, for a week from today, aimed at everyone', () => {
    const draft = draftOf(null, dayjs('2026-11-25'));
    expect(draft).toMatchObject({
      name: '',
      active: true,
      start_day: '2026-11-25',
      end_day: '2026-12-01',
      attachment: null,
      quiz: { questions: [] },
      target: { stores: [], store_tags: [], employee_roles: [], store_tags_union: true },
    });
  });

  it('checks in the server’s order: name, dates, attachment, then each question', () => {
    const valid = draftOf(buildCommunication());
    expect(validateDraft(valid)).toBeNull();
    expect(validateDraft({ ...valid, name: '  ' })?.code).toBe('communication/name-required');
    expect(validateDraft({ ...valid, end_day: '2026-11-30' })?.code).toBe(
      'communication/dates-invalid',
    );
    expect(validateDraft({ ...valid, end_day: null })?.code).toBe('communication/dates-invalid');
    expect(validateDraft({ ...valid, end_day: valid.start_day })).toBeNull();
    expect(validateDraft({ ...valid, attachment: null })?.code).toBe(
      'communication/attachment-required',
    );
    const quiz = {
      questions: [
        question('a', [{ correct: true }]),
        question('b', [{ correct: false }, { correct: false }]),
        question('c', []),
      ],
    };
    expect(validateDraft({ ...valid, quiz })).toEqual({
      code: 'communication.no_valid_answer',
      questionId: 'b',
    });
    expect(validateDraft({ ...valid, quiz: { questions: [question('c', [])] } })?.questionId).toBe(
      'c',
    );
  });

  it('sends the attachment as name and path, and trimmed texts', () => {
    const communication = buildCommunication({
      name: ' Carte ',
      quiz: {
        questions: [
          {
            id: 'q',
            text: ' Pourquoi ? ',
            answers: [{ id: 'r', text: ' Parce que ', correct: true }],
          },
        ],
      },
    });
    const body = bodyOf(draftOf(communication));
    expect(body.name).toBe('Carte');
    expect(body.attachment).toEqual({
      name: communication.attachment?.name,
      path: communication.attachment?.path,
    });
    expect(body.quiz.questions[0]).toEqual({
      id: 'q',
      text: 'Pourquoi ?',
      answers: [{ id: 'r', text: 'Parce que', correct: true }],
    });
    expect(body).not.toHaveProperty('version');
  });

  it('selects the first remaining question after a removal, or none', () => {
    const quiz = { questions: [question('a', []), question('b', []), question('c', [])] };
    expect(removeQuestion(quiz, 'c').selectedQuestionId).toBe('a');
    expect(removeQuestion(quiz, 'a').selectedQuestionId).toBe('b');
    expect(removeQuestion({ questions: [question('a', [])] }, 'a')).toEqual({
      quiz: { questions: [] },
      selectedQuestionId: null,
    });
  });
});

describe('time spent', () => {
  it('reads m:ss under an hour, h:mm:ss beyond, and a mark without a value', () => {
    expect(formatTimeSpent(0)).toBe('0:00');
    expect(formatTimeSpent(59.5)).toBe('1:00');
    expect(formatTimeSpent(95)).toBe('1:35');
    expect(formatTimeSpent(3599)).toBe('59:59');
    expect(formatTimeSpent(3600)).toBe('1:00:00');
    expect(formatTimeSpent(3725)).toBe('1:02:05');
    expect(formatTimeSpent(null)).toBe('—');
    expect(formatTimeSpent(null, '?')).toBe('?');
  });
});
