import { readValue, writeValue } from '../../shared/storage/local-db';

/**
 * The temperature controls started on this tablet and not ended yet, kept in IndexedDB
 * ('controls:open') so a reload, a crash or the network's absence loses none: the end is
 * recorded later on the same task (its id was chosen here when the start was saved).
 */
export type OpenControl = {
  /** The unscheduled task's id. */
  id: string;
  /** What the outbox shows for its records. */
  label: string;
  element: string;
  element_name: string;
  mode: 'cooling' | 'reheating';
  target_temperature: number | null;
  start_temperature: number | null;
  /** Seconds (server clock). */
  start_timestamp: number;
  /** Minutes after the start when the end temperature is due. */
  duration_minutes: number;
  comment: string;
};

export const openControlsKey = 'controls:open';
export const openControlsQueryKey = ['controls', 'open'] as const;

/**
 * Minutes of a control whose element gives no duration for the mode: the server's
 * `unscheduledControlDefaultDurationMinutes` (packages/shared device/schemas, not imported: it
 * would bring zod into the tablet's bundle).
 */
export const defaultControlDurationMinutes = 120;

export async function readOpenControls(): Promise<OpenControl[]> {
  return (await readValue<OpenControl[]>(openControlsKey)) ?? [];
}

export async function addOpenControl(control: OpenControl): Promise<void> {
  const controls = await readOpenControls();
  await writeValue(openControlsKey, [
    ...controls.filter((item) => item.id !== control.id),
    control,
  ]);
}

export async function removeOpenControl(id: string): Promise<void> {
  const controls = await readOpenControls();
  await writeValue(
    openControlsKey,
    controls.filter((item) => item.id !== id),
  );
}

/** When the end temperature is due (ms epoch, server clock). */
export function controlDueAt(
  control: Pick<OpenControl, 'start_timestamp' | 'duration_minutes'>,
): number {
  return control.start_timestamp * 1000 + control.duration_minutes * 60_000;
}

/** A short beep (Web Audio API): the reminder a kitchen hears. Silent where audio is unavailable. */
export function playReminderBeep(): void {
  const AudioContextClass =
    globalThis.AudioContext ??
    (globalThis as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!AudioContextClass) return;
  try {
    const context = new AudioContextClass();
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = 'sine';
    oscillator.frequency.value = 880;
    gain.gain.value = 0.25;
    oscillator.connect(gain);
    gain.connect(context.destination);
    oscillator.onended = () => void context.close();
    oscillator.start();
    oscillator.stop(context.currentTime + 0.4);
  } catch {
    // No sound on this device: the banner stays the reminder.
  }
}
