import { beforeEach, describe, expect, it, vi } from 'vitest';
import source from '../../../public/media-auth.js?raw';
import { setDeviceToken } from '../device/device-token';

/*
 * The service worker's media handler (public/media-auth.js, imported by the generated worker):
 * run here against the app's own IndexedDB (fake-indexeddb) with a stand-in for the worker's
 * global scope and the network.
 */
const origin = 'https://mise.example.com';

type FetchHandler = (event: {
  request: FakeRequest;
  respondWith: (response: Promise<Response>) => void;
}) => void;
type FakeRequest = {
  method: string;
  url: string;
  destination: string;
  headers: Headers;
  signal: AbortSignal;
};

let onFetch: FetchHandler;
let network: ReturnType<typeof vi.fn>;

beforeEach(() => {
  network = vi.fn(async () => new Response('part', { status: 206 }));
  const scope = {
    location: { origin },
    addEventListener: (type: string, handler: FetchHandler) => {
      if (type === 'fetch') onFetch = handler;
    },
  };
  new Function('self', 'fetch', source)(scope, network);
});

function mediaRequest(overrides: Partial<FakeRequest> & { range?: string } = {}): FakeRequest {
  const { range, ...rest } = overrides;
  return {
    method: 'GET',
    url: `${origin}/api/files/stores/00000000-0000-4000-8000-00000000000a/clip.mp4`,
    destination: 'video',
    headers: new Headers(range ? { range } : {}),
    signal: new AbortController().signal,
    ...rest,
  };
}

/** What the handler answers for a request, or null when it leaves it to the browser. */
async function dispatch(request: FakeRequest): Promise<Response | null> {
  let answer: Promise<Response> | null = null;
  onFetch({ request, respondWith: (response) => (answer = response) });
  return answer;
}

describe('media-auth.js (service worker)', () => {
  it("adds the device token to a video's range request and answers the server's 206 as it is", async () => {
    await setDeviceToken('device-token');
    const request = mediaRequest({ range: 'bytes=1000-' });
    const response = await dispatch(request);
    expect(response?.status).toBe(206);
    expect(await response?.text()).toBe('part');
    const [url, init] = network.mock.calls[0] as [string, RequestInit];
    expect(url).toBe(request.url);
    const headers = new Headers(init.headers);
    expect(headers.get('authorization')).toBe('Bearer device-token');
    expect(headers.get('range')).toBe('bytes=1000-');
    expect(init).toMatchObject({
      method: 'GET',
      mode: 'same-origin',
      credentials: 'omit',
      cache: 'no-store',
    });
    expect(init.signal).toBe(request.signal);

    // An audio element's request, and any request of a file with a Range header, too.
    await dispatch(mediaRequest({ destination: 'audio' }));
    await dispatch(mediaRequest({ destination: '', range: 'bytes=0-' }));
    expect(network).toHaveBeenCalledTimes(3);
  });

  it('leaves every other request to the browser', async () => {
    await setDeviceToken('device-token');
    const others = [
      // The app's own fetches: no range, and their own Authorization header.
      mediaRequest({ destination: '' }),
      mediaRequest({ headers: new Headers({ authorization: 'Bearer other' }) }),
      mediaRequest({ method: 'POST' }),
      mediaRequest({ url: `${origin}/api/device/context` }),
      mediaRequest({ url: 'https://videos.example.com/api/files/clip.mp4' }),
      mediaRequest({ url: `${origin}/tablet/assets/clip.mp4` }),
    ];
    for (const request of others) expect(await dispatch(request), request.url).toBeNull();
    expect(network).not.toHaveBeenCalled();
  });

  it('passes the request on unchanged when the tablet is not paired, and never creates the database', async () => {
    const request = mediaRequest({ range: 'bytes=0-' });
    await dispatch(request);
    expect(network).toHaveBeenCalledWith(request);
    const names = (await indexedDB.databases()).map((database) => database.name);
    expect(names).not.toContain('mise-tablet');
  });
});
