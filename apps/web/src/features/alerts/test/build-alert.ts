import type { AlertEpisode } from '@mise/shared/probes/alerts';
import { buildId } from '../../../test/factories';

/** An episode as GET /api/alerts answers it: an ongoing, unacknowledged out-of-range one. */
export function buildAlert(overrides: Partial<AlertEpisode> = {}): AlertEpisode {
  return {
    id: buildId(),
    kind: 'out_of_range',
    probeId: buildId(),
    probeUID: 'KV-1001',
    probeName: 'Sonde chambre froide',
    storeId: buildId(),
    storeName: 'Bistro Opéra',
    elementName: 'Chambre froide',
    // 07:45 UTC is 08:45 in Paris (the tests' browser is in New York).
    startedAt: '2026-11-22T07:45:00.000Z',
    openedAt: '2026-11-22T08:00:00.000Z',
    resolvedAt: null,
    minimumTemperature: 0,
    maximumTemperature: 4,
    delayMinutes: 15,
    worstValue: 9.4,
    lastValue: 7.1,
    escalationLevel: 1,
    acknowledgedAt: null,
    acknowledgedByName: null,
    correctiveAction: null,
    ...overrides,
  };
}
