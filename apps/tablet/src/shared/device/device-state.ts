import { useSyncExternalStore } from 'react';
import { ApiError, apiRequest, NetworkError } from '../api/client';
import type { Device, DeviceContext } from '../api/types';
import { readValue, writeValue } from '../storage/local-db';
import { getDeviceToken, getInstallationId, setDeviceToken } from './device-token';

export type DeviceState = {
  status: 'loading' | 'unpaired' | 'paired';
  device: Device | null;
  context: DeviceContext | null;
  /** Server time minus tablet time (ms): task windows are read on the server's clock. */
  clockOffsetMs: number;
  /** Why the server refuses this tablet's work (e.g. device/store-unlicensed), else null. */
  blockedCode: string | null;
};

const deviceKey = 'device';
const contextKey = 'context';
let state: DeviceState = {
  status: 'loading',
  device: null,
  context: null,
  clockOffsetMs: 0,
  blockedCode: null,
};
const listeners = new Set<() => void>();

function setState(next: Partial<DeviceState>): void {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function deviceState(): DeviceState {
  return state;
}

export function useDeviceState(): DeviceState {
  return useSyncExternalStore(subscribe, deviceState, deviceState);
}

export function useSlowInternet(): boolean {
  return useDeviceState().device?.slow_internet_mode ?? false;
}

/** The server's now, as best the tablet knows it. */
export function serverNow(): Date {
  return new Date(Date.now() + state.clockOffsetMs);
}

/** What the system says it is (reported to the back-office's device card). */
function systemDescription(): { os_version: string; device_model: string } {
  const agent = navigator.userAgent;
  const os =
    agent.match(/Android [\d.]+/)?.[0] ??
    agent.match(/(?:iPhone|CPU) OS [\d_]+/)?.[0]?.replaceAll('_', '.') ??
    agent.match(/Windows NT [\d.]+|Mac OS X [\d_.]+|Linux|CrOS/)?.[0] ??
    'unknown';
  const model = agent.match(/\(([^;)]+;\s*)?([^;)]+)\)/)?.[2]?.trim() ?? 'browser';
  return { os_version: os.slice(0, 40), device_model: model.slice(0, 120) };
}

/** Boot: the stored pairing at once (works offline), then the server's fresh view. */
export async function loadDevice(): Promise<void> {
  const token = await getDeviceToken();
  if (!token) {
    setState({ status: 'unpaired', device: null, context: null });
    return;
  }
  setState({
    status: 'paired',
    device: (await readValue<Device>(deviceKey)) ?? null,
    context: (await readValue<DeviceContext>(contextKey)) ?? null,
  });
  void refreshDevice();
}

/** Reads the device's settings and its store's context; a revoked pairing unpairs the tablet. */
export async function refreshDevice(): Promise<void> {
  try {
    const sentAt = Date.now();
    const context = await apiRequest<DeviceContext>('/device/context');
    const receivedAt = Date.now();
    const offset = Date.parse(context.server_time) - (sentAt + receivedAt) / 2;
    await writeValue(contextKey, context);
    await writeValue(deviceKey, context.device);
    setState({
      status: 'paired',
      device: context.device,
      context,
      clockOffsetMs: offset,
      blockedCode: null,
    });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) await unpair();
    else if (error instanceof ApiError && error.status === 403)
      setState({ blockedCode: error.code });
    else if (!(error instanceof NetworkError) && !(error instanceof ApiError)) throw error;
  }
}

/** Reports the app and system versions after each start (PATCH /api/devices/me). */
export async function reportVersions(): Promise<void> {
  const current = state.device;
  const system = systemDescription();
  if (
    current &&
    current.app_version === __APP_VERSION__ &&
    current.os_version === system.os_version
  )
    return;
  await apiRequest('/devices/me', {
    method: 'PATCH',
    body: { app_version: __APP_VERSION__, ...system },
  }).catch(() => undefined);
}

/** POST /api/devices/register with the store's pairing key; keeps the token. */
export async function pairDevice(pairingKey: string, name: string): Promise<void> {
  const answer = await apiRequest<{ device: Device; token: string }>('/devices/register', {
    method: 'POST',
    body: {
      pairing_key: pairingKey.trim().toUpperCase(),
      device_id: await getInstallationId(),
      app_version: __APP_VERSION__,
      ...systemDescription(),
      ...(name.trim() ? { name: name.trim() } : {}),
    },
  });
  await setDeviceToken(answer.token);
  await writeValue(deviceKey, answer.device);
  setState({ status: 'paired', device: answer.device });
  await refreshDevice();
}

/** The back-office removed the device: forget the token, back to pairing. */
export async function unpair(): Promise<void> {
  await setDeviceToken(null);
  setState({ status: 'unpaired', device: null, context: null });
}
