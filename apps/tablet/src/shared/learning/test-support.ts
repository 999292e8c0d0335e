import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { navigate, type Screen } from '../../app/navigation';
import { endSession, testEmployee } from '../../test/factories';
import type { DeviceContext } from '../api/types';
import { loadDevice, unpair } from '../device/device-state';
import { setDeviceToken } from '../device/device-token';
import { flushOutbox } from '../outbox/outbox';
import type { OutboxKind, OutboxRecord } from '../outbox/outbox-types';
import { openSession } from '../session/employee-session';
import { writeValue } from '../storage/local-db';
import type { StepAction } from './step-results';

/*
 * What the tests of communications and trainings share: a paired tablet with Ana identified, a
 * network each test answers, the page's visibility, and step records for the pure tests.
 */

export type Call = { url: string; method: string; body: unknown; headers: Record<string, string> };

/** The network as a test says: an answer per call, or 'offline'; every call is recorded. */
export function fakeNetwork(answer: (call: Call) => Response | 'offline') {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const call: Call = {
      url,
      method: init.method ?? 'GET',
      body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
      headers: (init.headers ?? {}) as Record<string, string>,
    };
    calls.push(call);
    const result = answer(call);
    if (result === 'offline') throw new TypeError('Failed to fetch');
    return result;
  });
  return calls;
}

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The list GET /api/<path> answered by the server; every step offline (kept in the outbox). */
export const listThenOffline = (path: string, items: unknown[]) => (call: Call) =>
  call.url === `/api${path}` && call.method === 'GET' ? json(200, { items }) : ('offline' as const);

let visibility: DocumentVisibilityState = 'visible';
/** The page hidden (another app, the screen off) or shown again. */
export function setVisibility(next: DocumentVisibilityState) {
  visibility = next;
  document.dispatchEvent(new Event('visibilitychange'));
}

function deviceContext(storeId: string): DeviceContext {
  return {
    store: {
      id: storeId,
      name: 'Bistro Lumière',
      timezone_name: 'Europe/Paris',
      week_start: 1,
      hidden_modules: [],
      hidden_extensions: [],
    },
    screen_saver_url: null,
    roles: [],
    device: {
      id: '4a1b2c3d-5e6f-4a70-8b81-c2d3e4f5a6ff',
      store_id: storeId,
      device_id: 'tablet-1',
      device_model: 'browser',
      name: 'Kitchen tablet',
      app_version: 'test',
      os_version: 'Linux',
      creation_timestamp: '2026-11-01T08:00:00Z',
      last_connexion: null,
      dark_mode: false,
      slow_internet_mode: false,
      audio_task_reminders: false,
      show_unscheduled_tasks: true,
      rotation_lock: false,
      prevent_screen_lock: false,
      calendar_types_order: [],
      linked_user: null,
      version: 1,
    },
    server_time: '2026-11-25T10:00:00Z',
  };
}

/**
 * Before each test: the tablet paired to the store, Ana identified, no network until the test
 * says otherwise, the page shown, on `screen`. After each: the steps a closing reader queues a
 * moment later reach the outbox and this test's network before they go.
 */
export function setUpLearningTests(options: {
  storeId: string;
  screen: Screen;
  stepsQueued: () => Promise<void>;
}) {
  beforeEach(async () => {
    visibility = 'visible';
    Object.defineProperty(document, 'visibilityState', {
      configurable: true,
      get: () => visibility,
    });
    // Pairing asks the server for the context: offline, the kept one answers.
    fakeNetwork(() => 'offline');
    await setDeviceToken('device-token');
    await writeValue('context', deviceContext(options.storeId));
    await loadDevice();
    await openSession({
      employee: testEmployee,
      token: 'employee-token-of-ana',
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    navigate(options.screen);
  });

  afterEach(async () => {
    vi.useRealTimers();
    cleanup();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await options.stepsQueued();
    await flushOutbox();
    vi.restoreAllMocks();
    // The document's own getter again.
    Reflect.deleteProperty(document, 'visibilityState');
    await endSession();
    await unpair();
    vi.unstubAllGlobals();
  });
}

let key = 0;
/** A step record of an item as the outbox keeps it, waiting or refused with `refusalCode`. */
export function stepRecord(
  kind: OutboxKind,
  path: string,
  action: StepAction,
  state: OutboxRecord['state'],
  refusalCode: string,
): OutboxRecord {
  key += 1;
  return {
    seq: key,
    idempotency_key: `key-${key}`,
    kind,
    path,
    body: { action, time_spent: 10, idempotency_key: `key-${key}` },
    employee_token: 'token',
    employee_name: 'Ana Lopes',
    label: action,
    task_id: null,
    created_at: Date.parse('2026-11-25T10:00:00Z'),
    state,
    attempts: 0,
    refusal: state === 'refused' ? { status: 409, code: refusalCode, message: '' } : null,
  };
}
