import { useEffect, useSyncExternalStore } from 'react';

let message: string | null = null;
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setTimeout> | null = null;

/** A short notice at the bottom of the screen (2.5 s, spec 000 §9). */
export function showToast(text: string): void {
  message = text;
  for (const listener of listeners) listener();
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => {
    message = null;
    for (const listener of listeners) listener();
  }, 2500);
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function ToastHost() {
  const text = useSyncExternalStore(
    subscribe,
    () => message,
    () => message,
  );
  useEffect(() => () => (timer ? clearTimeout(timer) : undefined), []);
  if (!text) return null;
  return (
    <div className="toast" role="status" aria-live="polite">
      {text}
    </div>
  );
}
