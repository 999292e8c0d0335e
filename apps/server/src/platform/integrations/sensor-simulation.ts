/**
 * Simulated probe readings for the offline sensor provider (issue 15): a pure, deterministic
 * function of (tag id, time). The same instant always gives the same reading, so a resent range
 * writes nothing twice, and any past range can be produced at once.
 *
 * A tag id picks its profile:
 * - its base (the appliance): "freezer" (−22…−18 °C), "cold-room" (1…3.3 °C) or "fridge"
 *   (2…5 °C), from a `:fridge` / `:cold-room` / `:freezer` part, else from words in the id
 *   (freez, congel → freezer; cold, walk, chambre → cold room), else fridge;
 * - its scenario: `:door` (a door left open), `:failing` (a slow compressor failure),
 *   `:battery` (a battery crossing 20 %), else "normal" (short door openings at delivery times);
 *   the local provider's tags have their own (see `localTagProfiles`);
 * - an optional onset, `:<unix seconds>` after the scenario: the scenario's event then happens
 *   once, at that instant, instead of repeating on its cycle — so a test or a demo seeded "now"
 *   is deterministic whatever the wall clock:
 *     `tag-freezer:failing:1795000000` drifts from that instant, past −18 °C within ~15 min,
 *       towards −6 °C, and is repaired 12 h later;
 *     `tag-x:door:1795000000` has its door left open 30 min from that instant;
 *     `tag-x:battery:1795000000` crosses 20 % at that instant (12 points a day).
 * Readings come every 5 minutes, aligned on the epoch (…:00, …:05, …).
 */

export type SimulationBase = 'fridge' | 'cold-room' | 'freezer';
export type SimulationScenario = 'normal' | 'door' | 'failing' | 'battery';
export type SimulationProfile = {
  base: SimulationBase;
  scenario: SimulationScenario;
  /** The scenario's single event, or null for its repeating cycle. */
  onset: Date | null;
};

export type SimulatedReading = { timestamp: Date; temperature: number; batteryLevel: number };

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

/** Step of the simulated readings. */
export const simulationStepMs = 5 * minute;

type Base = {
  /** The compressor cycle's coldest and warmest temperatures. */
  low: number;
  high: number;
  /** Cycle length and the share of it the compressor runs (cooling). */
  periodMs: number;
  coolingShare: number;
  /** The bounds a store element of this kind usually holds (HACCP). */
  limits: { min: number; max: number };
  /** Daily door openings (minutes after 00:00 UTC) in the normal scenario. */
  deliveries: number[];
  /** How far an open door pulls the temperature up, and a failure's plateau above the mean. */
  doorRise: number;
  failureRise: number;
};

export const simulationBases: Record<SimulationBase, Base> = {
  fridge: {
    low: 2,
    high: 5,
    periodMs: 40 * minute,
    coolingShare: 0.3,
    limits: { min: 0, max: 8 },
    deliveries: [10 * 60 + 30, 17 * 60 + 45],
    doorRise: 6,
    failureRise: 9,
  },
  'cold-room': {
    low: 1,
    high: 3.3,
    periodMs: 55 * minute,
    coolingShare: 0.35,
    limits: { min: 0, max: 4 },
    deliveries: [6 * 60 + 30, 14 * 60],
    doorRise: 5,
    failureRise: 9,
  },
  freezer: {
    low: -22,
    high: -18.5,
    periodMs: 50 * minute,
    coolingShare: 0.4,
    limits: { min: -25, max: -18 },
    deliveries: [6 * 60 + 45],
    doorRise: 9,
    failureRise: 14,
  },
};

/** The local provider's tags (sensor-provider.ts) and what each shows. */
export const localTagProfiles: Record<string, Omit<SimulationProfile, 'onset'>> = {
  'tag-fridge-1': { base: 'fridge', scenario: 'normal' },
  'tag-cold-room': { base: 'cold-room', scenario: 'battery' },
  'tag-freezer': { base: 'freezer', scenario: 'normal' },
  'tag-walk-in': { base: 'cold-room', scenario: 'failing' },
};

const bases = Object.keys(simulationBases) as SimulationBase[];
const scenarios: SimulationScenario[] = ['normal', 'door', 'failing', 'battery'];

/** The profile a tag id asks for (see the module's comment). */
export function simulationProfileOf(tagId: string): SimulationProfile {
  const [head = '', ...parts] = tagId.split(':');
  const known = localTagProfiles[head];
  let base: SimulationBase | undefined = parts.find((part): part is SimulationBase =>
    bases.includes(part as SimulationBase),
  );
  let scenario = parts.find((part): part is SimulationScenario =>
    scenarios.includes(part as SimulationScenario),
  );
  const onsetPart = parts.find((part) => /^\d{9,11}$/.test(part));
  if (!base) {
    const lower = head.toLowerCase();
    base =
      known?.base ??
      (/freez|congel/.test(lower)
        ? 'freezer'
        : /cold|walk|chambre/.test(lower)
          ? 'cold-room'
          : 'fridge');
  }
  scenario ??= known?.scenario ?? 'normal';
  return { base, scenario, onset: onsetPart ? new Date(Number(onsetPart) * 1000) : null };
}

/* ---------- Deterministic noise ---------- */

/** FNV-1a of a string, as an unsigned 32-bit integer. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A value in [0, 1) fixed by the tag and an integer (mulberry32 step). */
function unitOf(seed: number, value: number): number {
  let state = (seed ^ Math.imul(value | 0, 0x9e3779b1)) >>> 0;
  state = (state + 0x6d2b79f5) >>> 0;
  let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
  mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
  return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
}

const positive = (value: number, modulus: number) => ((value % modulus) + modulus) % modulus;

/* ---------- The parts of a temperature ---------- */

/** The compressor's sawtooth: a fast pull-down, then a slow rise (each tag its own phase). */
function cycleOf(base: Base, seed: number, time: number): number {
  const phase = positive(time + (seed % base.periodMs), base.periodMs) / base.periodMs;
  const span = base.high - base.low;
  if (phase < base.coolingShare) return base.high - span * (phase / base.coolingShare);
  return base.low + span * ((phase - base.coolingShare) / (1 - base.coolingShare));
}

/** How much an open door adds `elapsed` ms after it opened, open for `openMs`. */
function doorEffect(rise: number, elapsed: number, openMs: number, tauOpen: number): number {
  if (elapsed < 0) return 0;
  const atClose = rise * (1 - Math.exp(-Math.min(elapsed, openMs) / tauOpen));
  if (elapsed <= openMs) return atClose;
  return atClose * Math.exp(-(elapsed - openMs) / (5 * minute));
}

/** Short openings at the base's delivery times (3 minutes each), yesterday's included. */
function deliveriesEffect(base: Base, time: number): number {
  const dayStart = Math.floor(time / day) * day;
  let effect = 0;
  for (const start of [dayStart - day, dayStart]) {
    for (const at of base.deliveries) {
      effect += doorEffect(base.doorRise, time - (start + at * minute), 3 * minute, 2 * minute);
    }
  }
  return effect;
}

/** A door left open 30 minutes: at the onset once, else every 6 hours from 01:00 UTC. */
const doorLeftOpenMs = 30 * minute;
const doorCycleMs = 6 * hour;
function doorLeftOpenEffect(base: Base, onset: number | null, time: number): number {
  const rise = base.doorRise * 1.5;
  if (onset !== null) return doorEffect(rise, time - onset, doorLeftOpenMs, 6 * minute);
  const start = Math.floor((time - hour) / doorCycleMs) * doorCycleMs + hour;
  return (
    doorEffect(rise, time - start, doorLeftOpenMs, 6 * minute) +
    doorEffect(rise, time - (start - doorCycleMs), doorLeftOpenMs, 6 * minute)
  );
}

/**
 * A slow compressor failure: the temperature climbs towards `failureRise` above the cycle
 * (time constant 2 h) for `failureMs`, then the repair pulls it back (time constant 10 min).
 * With an onset: once, lasting 12 h. Without: every 8 h (2 h fine, 5 h failing, 1 h repaired).
 */
const failureTau = 2 * hour;
const repairTau = 10 * minute;
export const failingCycle = { periodMs: 8 * hour, fineMs: 2 * hour, failingMs: 5 * hour };
export const failingOnceMs = 12 * hour;
function failureEffect(base: Base, onset: number | null, time: number): number {
  let elapsed: number;
  let failingMs: number;
  if (onset === null) {
    elapsed = positive(time, failingCycle.periodMs) - failingCycle.fineMs;
    failingMs = failingCycle.failingMs;
  } else {
    elapsed = time - onset;
    failingMs = failingOnceMs;
  }
  if (elapsed < 0) return 0;
  const climb = (ms: number) => base.failureRise * (1 - Math.exp(-ms / failureTau));
  if (elapsed <= failingMs) return climb(elapsed);
  return climb(failingMs) * Math.exp(-(elapsed - failingMs) / repairTau);
}

/* ---------- Battery ---------- */

/**
 * Normal: drains from 100 % over a 240-day cycle (each tag its own phase), never below 55 %.
 * "battery": a cycle of 8 days from 100 % to 4 % (below 20 % for its last 1.3 days), then a new
 * battery; with an onset, crosses 20 % at that instant and keeps falling 12 points a day to 0.
 */
const batteryDrainPerDay = 12;
export const batteryCycleDays = 8;
function batteryOf(profile: SimulationProfile, seed: number, time: number): number {
  if (profile.scenario === 'battery') {
    const level =
      profile.onset === null
        ? 100 - (positive(time, batteryCycleDays * day) / day) * batteryDrainPerDay
        : 20 - ((time - profile.onset.getTime()) / day) * batteryDrainPerDay;
    return Math.round(Math.min(100, Math.max(0, level)));
  }
  const cycle = 240 * day;
  return Math.round(100 - (positive(time + (seed % cycle), cycle) / cycle) * 45);
}

/* ---------- Readings ---------- */

/** The reading of a tag at an instant (any instant; the provider asks at 5-minute steps). */
export function simulatedReading(tagId: string, at: Date): SimulatedReading {
  const profile = simulationProfileOf(tagId);
  const base = simulationBases[profile.base];
  const seed = hashOf(tagId);
  const time = at.getTime();
  const onset = profile.onset?.getTime() ?? null;
  let temperature = cycleOf(base, seed, time);
  if (profile.scenario === 'door') temperature += doorLeftOpenEffect(base, onset, time);
  else temperature += deliveriesEffect(base, time);
  if (profile.scenario === 'failing') temperature += failureEffect(base, onset, time);
  const noise = (unitOf(seed, Math.floor(time / 1000)) - 0.5) * 0.3;
  return {
    timestamp: new Date(time),
    temperature: Math.round((temperature + noise) * 100) / 100,
    batteryLevel: batteryOf(profile, seed, time),
  };
}

/** The readings of (since, until]: one every 5 minutes, on the epoch's 5-minute marks. */
export function simulatedReadings(tagId: string, since: Date, until: Date): SimulatedReading[] {
  const readings: SimulatedReading[] = [];
  const first =
    Math.floor(since.getTime() / simulationStepMs) * simulationStepMs + simulationStepMs;
  for (let time = first; time <= until.getTime(); time += simulationStepMs) {
    readings.push(simulatedReading(tagId, new Date(time)));
  }
  return readings;
}
