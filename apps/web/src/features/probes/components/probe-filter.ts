import { probeWorking } from '@mise/shared/probes/rules';
import type { Probe } from '@mise/shared/probes/schemas';

/** Tabs of the probes list (spec 000 §4: all, working, not working). */
export const probeFilters = ['all', 'working', 'notWorking'] as const;
export type ProbeFilter = (typeof probeFilters)[number];

/** Working as the spec says (a last reading under 2 hours old), judged at `now`. */
export function isProbeWorking(probe: Probe, now: Date): boolean {
  return probeWorking(probe.lastTemperatureTimestamp, now);
}

/**
 * The probes a tab and a search show: the search matches the name, the UID or the store's
 * name, ignoring case and accents.
 */
export function filterProbes(
  probes: readonly Probe[],
  options: {
    filter: ProbeFilter;
    search: string;
    now: Date;
    storeName: (storeId: string | null) => string;
  },
): Probe[] {
  const needle = fold(options.search.trim());
  return probes.filter((probe) => {
    if (options.filter !== 'all') {
      const isWorking = isProbeWorking(probe, options.now);
      if (isWorking !== (options.filter === 'working')) return false;
    }
    if (!needle) return true;
    return [probe.name, probe.probeUID, options.storeName(probe.storeId)].some((text) =>
      fold(text).includes(needle),
    );
  });
}

function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}
