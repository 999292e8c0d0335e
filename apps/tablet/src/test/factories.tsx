import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { vi } from 'vitest';
import type { DeviceElement, DeviceTask } from '../shared/api/types';
import { endSession, openSession } from '../shared/session/employee-session';
import { localDb } from '../shared/storage/local-db';
import { ToastHost } from '../shared/ui/toast';

/*
 * Factories and helpers of the tablet's component tests: a task and elements in the query cache (as the day list
 * left them), an identified employee, and no network (the outbox keeps every record waiting).
 */

export const storeElementIds = {
  fridge: '0b7c8a2e-5d1f-4f6a-9a51-2f7f1d3c0a01',
  coldRoom: '0b7c8a2e-5d1f-4f6a-9a51-2f7f1d3c0a02',
  fryer: '0b7c8a2e-5d1f-4f6a-9a51-2f7f1d3c0a03',
  chicken: '0b7c8a2e-5d1f-4f6a-9a51-2f7f1d3c0a04',
  soup: '0b7c8a2e-5d1f-4f6a-9a51-2f7f1d3c0a05',
} as const;

/** Every module of an element off. */
export const noModules: DeviceElement['modules'] = {
  temperatures: false,
  labels: false,
  traceability: false,
  oils: false,
  temperature_control: false,
  encyclopedia: false,
  display_active: false,
};

export function buildElement(
  overrides: Partial<DeviceElement> & Pick<DeviceElement, 'id' | 'name'>,
): DeviceElement {
  return {
    type_name: null,
    illustration_url: null,
    modules: noModules,
    minimum_temperature: null,
    maximum_temperature: null,
    temperature_require_picture: false,
    temperature_picture: false,
    maximum_polarity: null,
    oils_require_picture: false,
    reheating_temperature: null,
    reheating_duration: null,
    cooling_temperature: null,
    cooling_duration: null,
    allergens: [],
    attachments: [],
    labels: [],
    ...overrides,
  };
}

type TaskElement = DeviceTask['elements'][number];
export function taskElementOf(element: DeviceElement): TaskElement {
  return {
    id: element.id,
    name: element.name,
    minimum_temperature: element.minimum_temperature,
    maximum_temperature: element.maximum_temperature,
    maximum_polarity: element.maximum_polarity,
    reheating_temperature: element.reheating_temperature,
    cooling_temperature: element.cooling_temperature,
  };
}

const hour = 3_600_000;
/** A task of today, open now (opened an hour ago, closing in ten hours). */
export function buildTask(overrides: Partial<DeviceTask> & Pick<DeviceTask, 'module'>): DeviceTask {
  const now = Date.now();
  return {
    id: '5a0c3f0e-8b1d-4c2e-9f7a-3d2b1c0e0f01',
    store_id: '5a0c3f0e-8b1d-4c2e-9f7a-3d2b1c0e0f99',
    name: 'Morning check',
    type_name: null,
    type_color: null,
    start: new Date(now - hour).toISOString(),
    day: new Date(now).toISOString().slice(0, 10),
    duration: 120,
    requires_manager: false,
    notify_late: false,
    elements: [],
    actions: [],
    configuration_id: null,
    store_configuration_id: null,
    completed_timestamp: null,
    completed_employee: null,
    employee: null,
    result: null,
    revision: 0,
    postponed_task: null,
    original_task: null,
    status: 'on-time',
    opens_at: new Date(now - hour - 30 * 60_000).toISOString(),
    closes_at: new Date(now + 10 * hour).toISOString(),
    window: 'open',
    ...overrides,
  };
}

export const testEmployee = {
  id: '7d1e2f3a-4b5c-4d6e-8f70-819293a4b5c6',
  name: 'Ana',
  surname: 'Lopes',
  role_id: null,
  illustration_url: null,
  using_password: true,
  has_secret: true,
};

export async function openTestSession(): Promise<void> {
  await openSession({
    employee: testEmployee,
    token: 'employee-token-of-ana',
    expires_at: new Date(Date.now() + 12 * hour).toISOString(),
  });
}

export { endSession };

/** No network: every send fails as a network failure, so records stay waiting in the outbox. */
export function stubOffline(): void {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    }),
  );
}

export async function outboxRecords() {
  return (await localDb()).getAll('outbox');
}

/** Renders a screen with the day's tasks and the store's elements in the query cache. */
export function renderWithData(
  ui: ReactElement,
  data: { tasks?: DeviceTask[]; elements?: DeviceElement[] },
) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: false } },
  });
  queryClient.setQueryData(['tasks'], {
    day: new Date().toISOString().slice(0, 10),
    items: data.tasks ?? [],
  });
  queryClient.setQueryData(['elements'], { items: data.elements ?? [] });
  return render(
    <QueryClientProvider client={queryClient}>
      {ui}
      <ToastHost />
    </QueryClientProvider>,
  );
}
