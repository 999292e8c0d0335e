import { queryOptions } from '@tanstack/react-query';
import { fetchProtectedFile } from '../../shared/api/protected-file';

/** An attachment's file, read with the device token (see shared/api/protected-file.ts). */
export const attachmentQueryOptions = (url: string) =>
  queryOptions({
    queryKey: ['attachment', url],
    queryFn: () => fetchProtectedFile(url),
    // Files are large: keep a few minutes, never in IndexedDB (they need the network).
    staleTime: 10 * 60_000,
    gcTime: 5 * 60_000,
    retry: 1,
  });
