import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntegrations } from './index';
import {
  createPexelsStockImages,
  isPublicAddress,
  StockImagesError,
  stockImageMaxBytes,
} from './stock-images';

/** A loopback stand-in for Pexels: the search API and the image host on one origin. */
const requests: { url: string; authorization?: string }[] = [];
let server: Server;
let base: string;

const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

function handle(request: IncomingMessage, response: ServerResponse) {
  requests.push({ url: request.url ?? '', authorization: request.headers.authorization });
  const url = new URL(request.url ?? '/', base);
  if (url.pathname === '/v1/search') {
    if (request.headers.authorization !== 'test-key') {
      response.writeHead(401).end('{"error":"unauthorized"}');
      return;
    }
    if (url.searchParams.get('query') === 'boom') {
      response.writeHead(500).end('oops');
      return;
    }
    const photos = Array.from({ length: 22 }, (_, index) => ({
      id: 1000 + index,
      width: 800,
      height: 600,
      photographer: 'Someone',
      src: {
        original: `${base}/photos/${1000 + index}/original.jpeg`,
        large: `${base}/photos/${1000 + index}/large.jpeg`,
        medium: `${base}/photos/${1000 + index}/medium.jpeg`,
        tiny: `${base}/photos/${1000 + index}/tiny.jpeg`,
      },
    }));
    // One photo served from somewhere else: never offered, since download would refuse it.
    photos[1]!.src.large = 'https://elsewhere.example/photo.jpeg';
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ page: 1, per_page: 20, photos }));
    return;
  }
  if (url.pathname === '/photos/1/large.jpeg') {
    response.writeHead(200, { 'content-type': 'image/png' }).end(png);
    return;
  }
  if (url.pathname === '/redirect.jpeg') {
    response.writeHead(302, { location: `${base}/photos/1/large.jpeg` }).end();
    return;
  }
  if (url.pathname === '/big-declared.jpeg') {
    response.writeHead(200, {
      'content-type': 'image/jpeg',
      'content-length': String(stockImageMaxBytes + 1),
    });
    response.end(Buffer.alloc(stockImageMaxBytes + 1));
    return;
  }
  if (url.pathname === '/big-chunked.jpeg') {
    // No content-length: the size is only known while reading.
    response.writeHead(200, { 'content-type': 'image/jpeg' });
    const chunk = Buffer.alloc(1024 * 1024);
    let sent = 0;
    const push = () => {
      if (sent >= 7) return response.end();
      sent++;
      response.write(chunk, push);
    };
    push();
    return;
  }
  if (url.pathname === '/page.html') {
    response.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
    return;
  }
  response.writeHead(404).end();
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const client = () => createPexelsStockImages({ apiKey: 'test-key', baseUrl: base });

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(StockImagesError);
  return (error as StockImagesError).reason;
}

describe('Pexels client: search', () => {
  it('sends the key and asks for 20 photos, answering id, thumbnail and url', async () => {
    requests.length = 0;
    const items = await client().search('tarte aux pommes');
    expect(requests[0]!.authorization).toBe('test-key');
    const asked = new URL(requests[0]!.url, base);
    expect(asked.pathname).toBe('/v1/search');
    expect(asked.searchParams.get('query')).toBe('tarte aux pommes');
    expect(asked.searchParams.get('per_page')).toBe('20');
    expect(items).toHaveLength(20);
    expect(items[0]).toEqual({
      id: '1000',
      thumbnail_url: `${base}/photos/1000/medium.jpeg`,
      url: `${base}/photos/1000/large.jpeg`,
    });
    expect(items.map((item) => item.id)).not.toContain('1001');
  });

  it('fails when the provider answers an error or refuses the key', async () => {
    expect(await refusal(client().search('boom'))).toBe('failed');
    const wrongKey = createPexelsStockImages({ apiKey: 'nope', baseUrl: base });
    expect(await refusal(wrongKey.search('apple'))).toBe('failed');
  });

  it('fails when the provider cannot be reached', async () => {
    const closed = createPexelsStockImages({ apiKey: 'test-key', baseUrl: 'http://127.0.0.1:9' });
    expect(await refusal(closed.search('apple'))).toBe('failed');
  });
});

describe('Pexels client: download', () => {
  it('downloads an image from the provider host', async () => {
    const image = await client().download(`${base}/photos/1/large.jpeg`);
    expect(image.contentType).toBe('image/png');
    expect(image.data.equals(png)).toBe(true);
  });

  it('refuses a foreign host, another scheme and credentials in the URL', async () => {
    requests.length = 0;
    const stockImages = client();
    expect(await refusal(stockImages.download('https://elsewhere.example/photo.jpeg'))).toBe(
      'refused',
    );
    expect(await refusal(stockImages.download('file:///etc/passwd'))).toBe('refused');
    expect(await refusal(stockImages.download('not a url'))).toBe('refused');
    const withCredentials = base.replace('http://', 'http://user:secret@');
    expect(await refusal(stockImages.download(`${withCredentials}/photos/1/large.jpeg`))).toBe(
      'refused',
    );
    // The same loopback server on another name is another origin.
    const otherName = base.replace('127.0.0.1', 'localhost');
    expect(await refusal(stockImages.download(`${otherName}/photos/1/large.jpeg`))).toBe('refused');
    expect(requests).toHaveLength(0);
  });

  it('does not follow a redirect', async () => {
    requests.length = 0;
    expect(await refusal(client().download(`${base}/redirect.jpeg`))).toBe('refused');
    expect(requests.map((request) => request.url)).toEqual(['/redirect.jpeg']);
  });

  it('refuses a body over 5 MB, declared or streamed', async () => {
    expect(await refusal(client().download(`${base}/big-declared.jpeg`))).toBe('refused');
    expect(await refusal(client().download(`${base}/big-chunked.jpeg`))).toBe('refused');
  });

  it('refuses an answer that is not an image', async () => {
    expect(await refusal(client().download(`${base}/page.html`))).toBe('refused');
  });

  it('with the real provider: only https on images.pexels.com, never a private address', async () => {
    const fetched: string[] = [];
    const fetchImpl = (async (url: string | URL) => {
      fetched.push(String(url));
      return new Response(png, { status: 200, headers: { 'content-type': 'image/png' } });
    }) as typeof fetch;
    const resolvingTo = (address: string) =>
      createPexelsStockImages({
        apiKey: 'key',
        fetchImpl,
        lookupImpl: async () => [address],
      });
    const photo = 'https://images.pexels.com/photos/1/pexels-photo-1.jpeg?w=940';

    const image = await resolvingTo('104.18.0.1').download(photo);
    expect(image.data.equals(png)).toBe(true);
    expect(fetched).toEqual([photo]);

    for (const address of ['10.0.0.5', '127.0.0.1', '169.254.169.254', '::1', 'fe80::1']) {
      expect(await refusal(resolvingTo(address).download(photo))).toBe('refused');
    }
    const stockImages = resolvingTo('104.18.0.1');
    for (const url of [
      'http://images.pexels.com/photos/1/a.jpeg',
      'https://images.pexels.com:8443/photos/1/a.jpeg',
      'https://api.pexels.com/v1/search?query=a',
      'https://127.0.0.1/photos/1/a.jpeg',
    ]) {
      expect(await refusal(stockImages.download(url))).toBe('refused');
    }
    expect(fetched).toHaveLength(1);
  });
});

describe('address classification', () => {
  it.each([
    ['8.8.8.8', true],
    ['104.18.0.1', true],
    ['2606:4700::1', true],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['192.168.1.1', false],
    ['127.0.0.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['::1', false],
    ['::', false],
    ['fc00::1', false],
    ['fe80::1', false],
    ['::ffff:10.0.0.1', false],
    ['::ffff:8.8.8.8', true],
  ])('%s public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe('createIntegrations', () => {
  it('enables the stock image search only with an API key (empty counts as unset)', () => {
    expect(createIntegrations({}).stockImages.configured).toBe(false);
    expect(createIntegrations({ STOCK_IMAGES_URL: base }).stockImages.configured).toBe(false);
    expect(createIntegrations({ STOCK_IMAGES_API_KEY: 'k' }).stockImages.configured).toBe(true);
  });
});
