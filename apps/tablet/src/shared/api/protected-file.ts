import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { getDeviceToken } from '../device/device-token';
import { NetworkError } from './client';

/**
 * Files under /api (pictures, attachments, the screen saver) are read with the device token,
 * a Bearer header an <img> or a <video> cannot send: fetched as a blob and shown through an
 * object URL. Other addresses (public URLs) are used as they are.
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
