import type {
  Communication,
  CommunicationStats,
  CommunicationSummary,
} from '@mise/shared/communications/schemas';
import type { DatabaseSummary } from '@mise/shared/organisation/schemas';
import { buildId } from '../../../test/factories';

export function buildDatabase(name: string, overrides: Partial<DatabaseSummary> = {}) {
  return {
    id: buildId(),
    name,
    distributor: null,
    distributor_name: null,
    illustration_url: null,
    hidden: false,
    store_count: 3,
    ...overrides,
  } satisfies DatabaseSummary;
}

export const brasseries = buildDatabase('Brasseries du Sud');

export function buildCommunicationSummary(
  overrides: Partial<CommunicationSummary> = {},
): CommunicationSummary {
  return {
    id: buildId(),
    database_id: brasseries.id,
    name: 'Nouvelle carte d’hiver',
    active: true,
    // 00:00:00 and 23:59:59 in Paris.
    start: '2026-11-30T23:00:00Z',
    end: '2026-12-07T22:59:59Z',
    start_day: '2026-12-01',
    end_day: '2026-12-07',
    time_zone: 'Europe/Paris',
    state: 'coming',
    attachment: {
      name: 'carte-hiver.pdf',
      type: 'pdf',
      path: `databases/${brasseries.id}/communications/a1/carte-hiver.pdf`,
      url: `/api/files/databases/${brasseries.id}/communications/a1/carte-hiver.pdf`,
    },
    question_count: 0,
    target_kind: 'everyone',
    created_by_name: 'Camille Martin',
    updated_at: '2026-11-20T10:00:00Z',
    ...overrides,
  };
}

export function buildCommunication(overrides: Partial<Communication> = {}): Communication {
  return {
    ...buildCommunicationSummary(),
    quiz: { questions: [] },
    target: { stores: [], store_tags: [], employee_roles: [], store_tags_union: true },
    version: 3,
    ...overrides,
  };
}

export function buildStats(overrides: Partial<CommunicationStats> = {}): CommunicationStats {
  return {
    communication: buildCommunicationSummary({ state: 'running' }),
    total_views: 42,
    views_today: 5,
    median_time_spent: 95,
    target_employees: 60,
    percentage: 70,
    per_day: [
      { day: '2026-12-01', views: 20 },
      { day: '2026-12-02', views: 17 },
      { day: '2026-12-03', views: 5 },
    ],
    ...overrides,
  };
}
