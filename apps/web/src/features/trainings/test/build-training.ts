import type { Training, TrainingStats, TrainingSummary } from '@mise/shared/trainings/schemas';
import { buildId } from '../../../test/factories';
import { brasseries } from '../../communications/test/build-communication';

export { brasseries, buildDatabase } from '../../communications/test/build-communication';

export function buildTrainingSummary(overrides: Partial<TrainingSummary> = {}): TrainingSummary {
  return {
    id: buildId(),
    name: 'Hygiène des mains',
    active: true,
    lang: 'fr',
    type: 'database',
    source: brasseries.id,
    required: false,
    category: null,
    section_count: 2,
    target_kind: 'everyone',
    can_edit: true,
    created_by_name: 'Camille Martin',
    updated_at: '2026-11-20T10:00:00Z',
    ...overrides,
  };
}

const attachmentPath = (file: string) => `databases/${brasseries.id}/training/a1/${file}`;

export function buildTraining(overrides: Partial<Training> = {}): Training {
  return {
    ...buildTrainingSummary(),
    sections: [
      {
        id: 's-wash',
        title: 'Le lavage',
        attachment: {
          name: 'lavage.pdf',
          type: 'pdf',
          path: attachmentPath('lavage.pdf'),
          url: `/api/files/${attachmentPath('lavage.pdf')}`,
        },
        quiz: {
          questions: [
            {
              id: 'q-time',
              text: 'Combien de temps faut-il se laver les mains ?',
              answers: [
                { id: 'a-10', text: '10 secondes', correct: false },
                { id: 'a-30', text: '30 secondes', correct: true },
              ],
            },
          ],
        },
      },
      {
        id: 's-gloves',
        title: 'Les gants',
        attachment: {
          name: 'gants.mp4',
          type: 'video',
          path: attachmentPath('gants.mp4'),
          url: `/api/files/${attachmentPath('gants.mp4')}`,
        },
        quiz: {
          questions: [
            {
              id: 'q-change',
              text: 'Quand changer de gants ?',
              answers: [{ id: 'a-each', text: 'À chaque tâche', correct: true }],
            },
            {
              id: 'q-wash',
              text: 'Faut-il se laver les mains avant ?',
              answers: [{ id: 'a-yes', text: 'Oui', correct: true }],
            },
          ],
        },
      },
    ],
    target: { stores: [], store_tags: [], employee_roles: [], store_tags_union: true },
    version: 2,
    ...overrides,
  };
}

export function buildTrainingStats(overrides: Partial<TrainingStats> = {}): TrainingStats {
  const days = [
    '2026-11-15',
    '2026-11-16',
    '2026-11-17',
    '2026-11-18',
    '2026-11-19',
    '2026-11-20',
    '2026-11-21',
    '2026-11-22',
    '2026-11-23',
    '2026-11-24',
    '2026-11-25',
  ];
  const completions = [0, 2, 0, 1, 4, 0, 0, 3, 1, 0, 2];
  return {
    training: buildTrainingSummary(),
    trained: 13,
    views_today: 2,
    median_time_spent: 312,
    target_employees: 40,
    percentage: 33,
    per_day: days.map((day, index) => ({ day, completions: completions[index] ?? 0 })),
    ...overrides,
  };
}
