import { useEffect, useState } from 'react';
import { serverNow } from '../device/device-state';

/** The server's now, renewed every `intervalMs` (statuses move as time passes). */
export function useNow(intervalMs = 15_000): Date {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    const timer = setInterval(() => setNow(serverNow()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
