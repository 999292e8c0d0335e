import { useSyncExternalStore } from 'react';

/** The tablet's screens (one at a time, over the top bar). */
export type Screen =
  | { name: 'today' }
  | { name: 'task'; taskId: string }
  | { name: 'create'; module: 'traceability' | 'temperature_control' }
  | { name: 'clock' }
  | { name: 'labels' }
  | { name: 'encyclopedia' }
  | { name: 'outbox' }
  | { name: 'audits' }
  | { name: 'audit'; resultId: string }
  | { name: 'communications' }
  | { name: 'communication'; communicationId: string }
  | { name: 'trainings' }
  | { name: 'training'; trainingId: string }
  | { name: 'shop' };

let screen: Screen = { name: 'today' };
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

/** Opens a screen; the system's back gesture returns to the previous one (history state). */
export function navigate(next: Screen): void {
  screen = next;
  if (typeof history !== 'undefined') history.pushState({ screen: next }, '');
  emit();
}

/** Back to the day list (after a task is saved, on cancel). */
export function goHome(): void {
  if (screen.name === 'today') return;
  screen = { name: 'today' };
  if (typeof history !== 'undefined') history.pushState({ screen }, '');
  emit();
}

if (typeof window !== 'undefined') {
  window.addEventListener('popstate', (event) => {
    screen = (event.state as { screen?: Screen } | null)?.screen ?? { name: 'today' };
    emit();
  });
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function useScreen(): Screen {
  return useSyncExternalStore(
    subscribe,
    () => screen,
    () => screen,
  );
}
