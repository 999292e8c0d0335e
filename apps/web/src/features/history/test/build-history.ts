import type {
  HistoryProbes,
  HistoryResponse,
  HistoryStore,
  HistoryTask,
  ProbeElement,
  TaskDetail,
} from '@mise/shared/history/schemas';
import type { AlertEpisode } from '@mise/shared/probes/alerts';
import type { TaskModule } from '@mise/shared/tasks/constants';
import { buildId } from '../../../test/factories';

export function buildHistoryStore(overrides: Partial<HistoryStore> = {}): HistoryStore {
  return {
    id: buildId(),
    name: 'Bistro Opéra',
    address: '5 place de l’Opéra',
    city: 'Paris',
    database_name: 'Bistro Group',
    timezone_name: 'Europe/Paris',
    hidden_modules: [],
    ...overrides,
  };
}

export function buildElement(
  overrides: Partial<HistoryTask['elements'][number]> = {},
): HistoryTask['elements'][number] {
  return {
    id: buildId(),
    name: 'Frigo 1',
    minimum_temperature: 0,
    maximum_temperature: 4,
    maximum_polarity: null,
    reheating_temperature: null,
    cooling_temperature: null,
    ...overrides,
  };
}

export function buildHistoryTask(overrides: Partial<HistoryTask> = {}): HistoryTask {
  return {
    id: buildId(),
    store_id: buildId(),
    name: 'Relevé des frigos',
    module: 'temperatures' as TaskModule,
    type_name: null,
    type_color: null,
    start: '2026-11-22T08:00:00Z',
    day: '2026-11-22',
    duration: 60,
    requires_manager: false,
    notify_late: false,
    elements: [],
    actions: [],
    configuration_id: buildId(),
    store_configuration_id: null,
    completed_timestamp: '2026-11-22T08:20:00Z',
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

export function buildHistoryResponse(
  store: HistoryStore,
  query: URLSearchParams,
  items: HistoryTask[],
): HistoryResponse {
  return {
    store,
    start: query.get('start') ?? '',
    end: query.get('end') ?? '',
    module: (query.get('module') ?? 'temperatures') as TaskModule,
    filter: (query.get('filter') ?? 'completed') as HistoryResponse['filter'],
    items,
    next_cursor: null,
  };
}

export function buildTaskDetail(overrides: Partial<TaskDetail> = {}): TaskDetail {
  const task = buildHistoryTask();
  return {
    ...task,
    store_id: task.store_id,
    store_name: 'Bistro Opéra',
    timezone_name: 'Europe/Paris',
    expected_at: '2026-11-22T09:00:00Z',
    revisions: [],
    ...overrides,
  };
}

/** An alert episode of the history's probe records (issue 15). */
export function buildAlertEpisode(overrides: Partial<AlertEpisode> = {}): AlertEpisode {
  return {
    id: buildId(),
    kind: 'out_of_range',
    probeId: buildId(),
    probeUID: 'probe-1',
    probeName: 'Sonde frigo',
    storeId: buildId(),
    storeName: 'Bistro Opéra',
    elementName: 'Frigo 1',
    startedAt: '2026-11-18T11:00:00Z',
    openedAt: '2026-11-18T11:15:00Z',
    resolvedAt: '2026-11-18T12:00:00Z',
    minimumTemperature: 0,
    maximumTemperature: 4,
    delayMinutes: 15,
    worstValue: 7.5,
    lastValue: 3,
    escalationLevel: 0,
    acknowledgedAt: null,
    acknowledgedByName: null,
    correctiveAction: null,
    ...overrides,
  };
}

export function buildProbeElement(overrides: Partial<ProbeElement> = {}): ProbeElement {
  return {
    element_id: buildId(),
    origin_id: null,
    name: 'Frigo 1',
    probe_uid: 'probe-1',
    probe_name: 'Sonde frigo',
    minimum_temperature: 0,
    maximum_temperature: 4,
    days: [],
    ...overrides,
  };
}

export function buildHistoryProbes(
  store: HistoryStore,
  query: URLSearchParams,
  records: Partial<Pick<HistoryProbes, 'alerts' | 'elements'>> = {},
): HistoryProbes {
  return {
    store_id: store.id,
    start: query.get('start') ?? '',
    end: query.get('end') ?? '',
    alerts: [],
    elements: [],
    ...records,
  };
}
