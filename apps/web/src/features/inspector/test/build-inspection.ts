import type { HistoryTask, TaskDetail } from '@mise/shared/history/schemas';
import type { Inspection, InspectorLink } from '@mise/shared/records/links';
import { buildId } from '../../../test/factories';

export function buildInspection(overrides: Partial<Inspection> = {}): Inspection {
  return {
    label: 'Contrôle DDPP',
    store: {
      name: 'Bistro Lyon Bellecour',
      address: '12 place Bellecour',
      city: 'Lyon',
      timezone_name: 'Europe/Paris',
      hidden_modules: [],
    },
    period_start: '2026-11-16',
    period_end: '2026-11-22',
    expires_at: '2026-12-01T10:00:00.000Z',
    is_pack_available: true,
    ...overrides,
  };
}

export function buildInspectionTask(overrides: Partial<HistoryTask> = {}): HistoryTask {
  return {
    id: buildId(),
    store_id: buildId(),
    name: 'Relevé des frigos',
    module: 'temperatures',
    type_name: null,
    type_color: null,
    start: '2026-11-16T07:00:00Z',
    day: '2026-11-16',
    duration: 60,
    requires_manager: false,
    notify_late: false,
    elements: [],
    actions: [],
    configuration_id: buildId(),
    store_configuration_id: null,
    completed_timestamp: '2026-11-16T07:20:00Z',
    completed_employee: buildId(),
    employee: { name: 'Léa', surname: 'Petit' },
    result: null,
    revision: 1,
    postponed_task: null,
    original_task: null,
    status: 'done',
    anomalies: [],
    is_anomaly: false,
    postponed_to: null,
    ...overrides,
  };
}

export function buildInspectionTaskDetail(overrides: Partial<TaskDetail> = {}): TaskDetail {
  const task = buildInspectionTask(overrides);
  return {
    ...task,
    store_name: 'Bistro Lyon Bellecour',
    timezone_name: 'Europe/Paris',
    expected_at: '2026-11-16T08:00:00Z',
    revisions: [],
    ...overrides,
  };
}

export function buildInspectorLink(overrides: Partial<InspectorLink> = {}): InspectorLink {
  return {
    id: buildId(),
    store_id: buildId(),
    label: 'Contrôle DDPP',
    period_start: '2026-11-16',
    period_end: '2026-11-22',
    created_at: '2026-11-24T09:00:00.000Z',
    expires_at: '2026-12-01T09:00:00.000Z',
    created_by: { name: 'Camille Client', email: 'customer@demo.test' },
    revoked_at: null,
    revoked_by: null,
    status: 'active',
    last_used_at: null,
    use_count: 0,
    ...overrides,
  };
}
