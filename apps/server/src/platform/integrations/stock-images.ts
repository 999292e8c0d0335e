import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { z } from 'zod';

/**
 * Stock image search (spec 001 §2.5, §7): search by text, then the picked image is downloaded
 * and stored as the element's illustration. Without a configured provider the search is
 * disabled (`configured: false`) and the web app says so.
 */
export type StockImage = { id: string; thumbnail_url: string; url: string };
export type DownloadedImage = { data: Buffer; contentType: string };

export type StockImages = {
  configured: boolean;
  search(query: string): Promise<StockImage[]>;
  /** Downloads one image the provider returned; refuses any other address. */
  download(url: string): Promise<DownloadedImage>;
};

/**
 * Why a stock image call failed: `refused` when the address or the answer breaks a rule
 * (foreign host, private address, redirect, too large, not an image), `failed` when the
 * provider could not be reached or answered an error.
 */
export class StockImagesError extends Error {
  readonly reason: 'refused' | 'failed';
  constructor(reason: 'refused' | 'failed', message: string) {
    super(message);
    this.name = 'StockImagesError';
    this.reason = reason;
  }
}

/** No provider: searches answer nothing and downloads are refused. */
export function createDisabledStockImages(): StockImages {
  return {
    configured: false,
    search: async () => [],
    download: async () => {
      throw new Error('No stock image provider is configured');
    },
  };
}

export const defaultStockImagesUrl = 'https://api.pexels.com';
/** The hosts Pexels serves its photos from. */
const pexelsImageHosts = new Set(['images.pexels.com']);
export const stockImageMaxBytes = 5 * 1024 * 1024;
const searchResultCount = 20;
const searchTimeoutMs = 10_000;
const downloadTimeoutMs = 20_000;

/* ---------- Addresses a download may reach ---------- */

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** Private, loopback, link-local, shared, reserved, multicast and unspecified ranges. */
const nonPublic = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  nonPublic.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  nonPublic.addSubnet(network, prefix, 'ipv6');
}

/** An IPv4-mapped IPv6 address (::ffff:10.0.0.1) is judged as the IPv4 address it carries. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, family: 'ipv4' };
  return { address, family: isIP(address) === 4 ? 'ipv4' : 'ipv6' };
}

export function isLoopbackAddress(address: string): boolean {
  const { address: plain, family } = unmapped(address);
  return loopback.check(plain, family);
}

export function isPublicAddress(address: string): boolean {
  const { address: plain, family } = unmapped(address);
  return !nonPublic.check(plain, family);
}

function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

function isLoopbackHost(url: URL): boolean {
  const host = bareHostname(url);
  return host === 'localhost' || (isIP(host) !== 0 && isLoopbackAddress(host));
}

export type Lookup = (hostname: string) => Promise<string[]>;
const systemLookup: Lookup = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/* ---------- Pexels ---------- */

const pexelsSearchSchema = z.object({
  photos: z.array(
    z.object({
      id: z.union([z.number(), z.string()]),
      src: z.object({ medium: z.string(), large: z.string() }),
    }),
  ),
});

/**
 * The Pexels client (https://www.pexels.com/api/documentation/). `search` asks for 20 photos
 * and keeps those served from Pexels' image host; `download` fetches one of them:
 * - only https URLs on the image host (or, when a custom STOCK_IMAGES_URL is configured, on
 *   that URL's own origin: a proxy, or the loopback stand-in of the tests);
 * - never a private, loopback, link-local or reserved address (loopback is accepted only when
 *   the configured provider URL is loopback itself);
 * - no redirect is followed, the answer must be an image of at most 5 MB.
 */
export function createPexelsStockImages(options: {
  apiKey: string;
  baseUrl?: string;
  fetchImpl?: typeof fetch;
  lookupImpl?: Lookup;
}): StockImages {
  const baseUrl = (options.baseUrl ?? defaultStockImagesUrl).replace(/\/+$/, '');
  const base = new URL(baseUrl);
  const fetchImpl = options.fetchImpl ?? fetch;
  const resolveHost = options.lookupImpl ?? systemLookup;
  const isCustomProvider = base.origin !== new URL(defaultStockImagesUrl).origin;
  const isLoopbackAllowed = isLoopbackHost(base);

  const isAllowedUrl = (url: URL): boolean => {
    if (url.username || url.password) return false;
    if (isCustomProvider && url.origin === base.origin) return true;
    return url.protocol === 'https:' && url.port === '' && pexelsImageHosts.has(url.hostname);
  };

  const parseAllowed = (value: string): URL | null => {
    try {
      const url = new URL(value);
      return isAllowedUrl(url) ? url : null;
    } catch {
      return null;
    }
  };

  const assertPublicHost = async (url: URL) => {
    const host = bareHostname(url);
    let addresses: string[];
    try {
      addresses = isIP(host) ? [host] : await resolveHost(host);
    } catch {
      throw new StockImagesError('failed', `Cannot resolve ${host}`);
    }
    if (addresses.length === 0) throw new StockImagesError('failed', `Cannot resolve ${host}`);
    for (const address of addresses) {
      if (isLoopbackAllowed && isLoopbackAddress(address)) continue;
      if (!isPublicAddress(address)) {
        throw new StockImagesError('refused', `${host} resolves to a non-public address`);
      }
    }
  };

  return {
    configured: true,

    async search(query) {
      const url = `${baseUrl}/v1/search?${new URLSearchParams({
        query,
        per_page: String(searchResultCount),
      })}`;
      let response: Response;
      try {
        response = await fetchImpl(url, {
          headers: { authorization: options.apiKey, accept: 'application/json' },
          redirect: 'manual',
          signal: AbortSignal.timeout(searchTimeoutMs),
        });
      } catch (error) {
        throw new StockImagesError('failed', `Stock image search failed: ${String(error)}`);
      }
      if (response.status !== 200) {
        await response.body?.cancel();
        throw new StockImagesError('failed', `Stock image search answered ${response.status}`);
      }
      const parsed = pexelsSearchSchema.safeParse(await response.json().catch(() => null));
      if (!parsed.success) {
        throw new StockImagesError('failed', 'Stock image search answered an unexpected body');
      }
      return parsed.data.photos
        .filter((photo) => parseAllowed(photo.src.medium) && parseAllowed(photo.src.large))
        .slice(0, searchResultCount)
        .map((photo) => ({
          id: String(photo.id),
          thumbnail_url: photo.src.medium,
          url: photo.src.large,
        }));
    },

    async download(value) {
      const url = parseAllowed(value);
      if (!url) throw new StockImagesError('refused', 'Not an image address of the provider');
      await assertPublicHost(url);
      let response: Response;
      try {
        response = await fetchImpl(url, {
          headers: { accept: 'image/*' },
          redirect: 'manual',
          signal: AbortSignal.timeout(downloadTimeoutMs),
        });
      } catch (error) {
        throw new StockImagesError('failed', `Stock image download failed: ${String(error)}`);
      }
      const discard = () => response.body?.cancel().catch(() => {});
      if (response.status >= 300 && response.status < 400) {
        await discard();
        throw new StockImagesError('refused', 'Redirects are not followed');
      }
      if (response.status !== 200) {
        await discard();
        throw new StockImagesError('failed', `Stock image download answered ${response.status}`);
      }
      const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
      if (!contentType.toLowerCase().startsWith('image/')) {
        await discard();
        throw new StockImagesError('refused', 'The answer is not an image');
      }
      const declared = Number(response.headers.get('content-length') ?? Number.NaN);
      if (declared > stockImageMaxBytes) {
        await discard();
        throw new StockImagesError('refused', 'The image is larger than 5 MB');
      }
      if (!response.body) throw new StockImagesError('failed', 'Empty answer');
      const chunks: Uint8Array[] = [];
      let size = 0;
      const reader = response.body.getReader();
      try {
        for (;;) {
          const { done, value: chunk } = await reader.read();
          if (done) break;
          size += chunk.byteLength;
          if (size > stockImageMaxBytes) {
            await reader.cancel().catch(() => {});
            throw new StockImagesError('refused', 'The image is larger than 5 MB');
          }
          chunks.push(chunk);
        }
      } catch (error) {
        if (error instanceof StockImagesError) throw error;
        throw new StockImagesError('failed', `Stock image download failed: ${String(error)}`);
      }
      return { data: Buffer.concat(chunks), contentType };
    },
  };
}
