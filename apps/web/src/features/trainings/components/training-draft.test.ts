import { describe, expect, it } from 'vitest';
import { buildTraining } from '../test/build-training';
import {
  addSection,
  bodyOf,
  draftOf,
  firstQuestionOf,
  hasTargetCard,
  removeSection,
  uploadOwnerOf,
  validateDraft,
} from './training-draft';
import { listSourceOf, newTrainingPath, trainingsPathOf } from './training-paths';

let sequence = 0;
const newId = () => {
  sequence += 1;
  return `id-${sequence}`;
};

describe('training draft', () => {
  it('starts a new training inactive, in French, with one blank "Nouvelle section", for everyone', () => {
    expect(draftOf(null, () => 's-1')).toEqual({
      name: '',
      active: false,
      lang: 'fr',
      required: false,
      category_id: null,
      sections: [
        { id: 's-1', title: 'Nouvelle section', attachment: null, quiz: { questions: [] } },
      ],
      target: { stores: [], store_tags: [], employee_roles: [], store_tags_union: true },
    });
  });

  it('checks in the server’s order: the name, then section by section the attachment and the quiz', () => {
    const valid = draftOf(buildTraining(), newId);
    expect(validateDraft(valid)).toBeNull();
    expect(validateDraft({ ...valid, name: '  ' })).toEqual({ code: 'training/name-required' });

    const [wash, gloves] = valid.sections;
    const noCorrect = {
      ...gloves!,
      quiz: {
        questions: [
          ...gloves!.quiz.questions,
          { id: 'q-new', text: 'Où ?', answers: [{ id: 'a', text: 'Ici', correct: false }] },
        ],
      },
    };
    expect(validateDraft({ ...valid, sections: [wash!, noCorrect] })).toEqual({
      code: 'training/no-valid-answer',
      sectionId: gloves!.id,
      questionId: 'q-new',
    });
    const noAnswer = {
      ...gloves!,
      quiz: { questions: [{ id: 'q-empty', text: 'Où ?', answers: [] }] },
    };
    expect(validateDraft({ ...valid, sections: [wash!, noAnswer] })?.questionId).toBe('q-empty');
    // A section without attachment comes before a later section's quiz.
    expect(
      validateDraft({ ...valid, sections: [{ ...wash!, attachment: null }, noCorrect] }),
    ).toEqual({ code: 'training/attachment-required', sectionId: wash!.id });
  });

  it('sends trimmed texts and the attachments as name and path', () => {
    const training = buildTraining();
    const draft = draftOf(training, newId);
    const body = bodyOf({ ...draft, name: '  Hygiène  ' });
    expect(body.name).toBe('Hygiène');
    expect(body.sections[0]?.attachment).toEqual({
      name: 'lavage.pdf',
      path: training.sections[0]?.attachment?.path,
    });
    expect(body.sections.map((section) => section.title)).toEqual(['Le lavage', 'Les gants']);
  });

  it('adds sections, keeps one at least, and selects the first remaining one', () => {
    const sections = addSection(draftOf(buildTraining(), newId).sections, 's-new');
    expect(sections.map((section) => section.title)).toEqual([
      'Le lavage',
      'Les gants',
      'Nouvelle section',
    ]);
    expect(removeSection(sections, 's-gloves')).toMatchObject({ selectedSectionId: 's-wash' });
    expect(removeSection(sections, 's-gloves').sections).toHaveLength(2);
    const one = [sections[0]!];
    expect(removeSection(one, 's-wash').sections).toEqual(one);
    expect(firstQuestionOf(sections[1])).toBe('q-change');
    expect(firstQuestionOf(sections[2])).toBeNull();
  });

  it('names the upload owner, the target card and the list of an owner', () => {
    expect(uploadOwnerOf({ type: 'global', source: null })).toBe('global');
    expect(uploadOwnerOf({ type: 'store', source: 'st-1' })).toBe('store:st-1');
    expect(hasTargetCard({ type: 'database', source: 'db-1' })).toBe(true);
    expect(hasTargetCard({ type: 'distributor', source: 'd-1' })).toBe(true);
    expect(hasTargetCard({ type: 'store', source: 'st-1' })).toBe(false);
    expect(hasTargetCard({ type: 'global', source: null })).toBe(false);
    expect(listSourceOf({ type: 'distributor', source: 'd-1' })).toEqual({
      databaseId: null,
      storeId: null,
    });
    expect(trainingsPathOf({ type: 'store', source: 'st-1' })).toBe('/trainings?store=st-1');
    expect(newTrainingPath({ databaseId: 'db-1', storeId: null })).toBe(
      '/training?new=1&database=db-1',
    );
  });
});
