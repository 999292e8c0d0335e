import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { getDeviceToken } from '../device/device-token';
import { NetworkError } from './client';

/**
 * Files under /api (pictures, attachments, the screen saver) are read with the device token,
 * a Bearer header an <img> or a <video> cannot send: fetched as a blob and shown through an
 * object URL (videos are streamed instead when the service worker adds the token, see
 * useIsMediaStreamable). Other addresses (public URLs) are used as they are.
 */
export function isProtectedFile(url: string): boolean {
  return url.startsWith('/api/');
}

export async function fetchProtectedFile(url: string): Promise<Blob> {
  const token = await getDeviceToken();
  let response: Response;
  try {
    response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  } catch (error) {
    throw new NetworkError(error instanceof Error ? error.message : 'network');
  }
  if (!response.ok) throw new Error(`http ${response.status}`);
  return response.blob();
}

/** An object URL for a blob, revoked when the blob changes or the screen closes. */
export function useObjectUrl(blob: Blob | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) {
      setUrl(null);
      return;
    }
    const created = URL.createObjectURL(blob);
    setUrl(created);
    return () => URL.revokeObjectURL(created);
  }, [blob]);
  return url;
}

/** The address an <img> can show for `url` (null while a protected file loads or fails). */
export function useImageSource(url: string | null): string | null {
  const isProtected = url !== null && isProtectedFile(url);
  const file = useQuery({
    queryKey: ['file', url],
    queryFn: () => fetchProtectedFile(url!),
    enabled: isProtected,
    staleTime: 30 * 60_000,
    retry: 1,
  });
  const objectUrl = useObjectUrl(file.data);
  if (url === null) return null;
  return isProtected ? objectUrl : url;
}

function subscribeToController(listener: () => void): () => void {
  const container = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
  container?.addEventListener('controllerchange', listener);
  return () => container?.removeEventListener('controllerchange', listener);
}

function isControlled(): boolean {
  return typeof navigator !== 'undefined' && Boolean(navigator.serviceWorker?.controller);
}

/**
 * Whether the app's service worker controls the page: it then adds the device token to the
 * requests of <video> and <audio> for /api/files/ (public/media-auth.js), so a protected video
 * is given to the player by its address and streamed with range requests (it seeks without
 * reading the whole file first). Without it (first visit, development), the blob fallback.
 */
export function useIsMediaStreamable(): boolean {
  return useSyncExternalStore(subscribeToController, isControlled, () => false);
}
