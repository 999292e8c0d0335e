import type { Probe } from '@mise/shared/probes/schemas';
import { buildId } from '../../../test/factories';

/** A probe as the API answers it (postingInterval in seconds). */
export function buildProbe(overrides: Partial<Probe> = {}): Probe {
  const probeUID = overrides.probeUID ?? `KV-${buildId().slice(-6)}`;
  return {
    id: buildId(),
    probeUID,
    active: true,
    name: 'Chambre froide',
    batteryLevel: 87,
    maximumTemperature: 4,
    minimumTemperature: 0,
    criticalThreshold: null,
    notifyTemperature: null,
    postUrl: `https://mise.example/api/probes/readings/${probeUID}`,
    postingInterval: 300,
    pushNotification: false,
    alertDelayMinutes: 15,
    element: null,
    lastTemperature: 2.5,
    lastTemperatureTimestamp: '2026-11-24T11:00:00.000Z',
    storeId: null,
    working: true,
    ...overrides,
  };
}
