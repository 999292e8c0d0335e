import { vi } from 'vitest';

/*
 * The outside video host's tus upload server for component tests: XMLHttpRequest (what
 * tus-js-client's browser build sends with) answers creation, HEAD, PATCH and termination at any
 * address, recording each request with its whole URL. PATCHes wait for the test (`patches`).
 * Load tus-js-client's browser build in the test:
 *   vi.mock('tus-js-client', () => import('tus-js-client/lib.esm/browser/index.js'));
 */

export type HostRequest = {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Blob | null;
};

export type HeldHostPatch = {
  request: HostRequest;
  /** Reports `bytes` of the body sent. */
  progress(bytes: number): void;
  /** Keeps the whole body and answers 204 with the new offset. */
  accept(): void;
  isAborted: boolean;
};

export function decodeTusMetadata(header: string | undefined): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const pair of (header ?? '').split(',')) {
    const [key, value] = pair.trim().split(' ');
    if (!key) continue;
    metadata[key] = value
      ? new TextDecoder().decode(Uint8Array.from(atob(value), (c) => c.charCodeAt(0)))
      : '';
  }
  return metadata;
}

export class FakeVideoHostServer {
  readonly requests: HostRequest[] = [];
  readonly patches: HeldHostPatch[] = [];
  /** Bytes the host holds, by upload address. */
  readonly offsets = new Map<string, number>();
  private readonly lengths = new Map<string, string>();
  private sequence = 0;

  requestsOf(method: string): HostRequest[] {
    return this.requests.filter((request) => request.method === method);
  }

  install(): this {
    const server = this;
    class FakeXhr {
      upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
      status = 0;
      responseText = '';
      withCredentials = false;
      onload: (() => void) | null = null;
      onerror: ((event: unknown) => void) | null = null;
      private method = 'GET';
      private url = '';
      private readonly headers: Record<string, string> = {};
      private responseHeaders: Record<string, string> = {};
      private held: HeldHostPatch | null = null;
      open(method: string, url: string) {
        this.method = method.toUpperCase();
        this.url = url;
      }
      setRequestHeader(name: string, value: string) {
        this.headers[name.toLowerCase()] = value;
      }
      getResponseHeader(name: string): string | null {
        return this.responseHeaders[name.toLowerCase()] ?? null;
      }
      abort() {
        if (this.held) this.held.isAborted = true;
      }
      send(body: Blob | null = null) {
        const request: HostRequest = {
          method: this.method,
          url: this.url,
          headers: { ...this.headers },
          body,
        };
        server.requests.push(request);
        const respond = (status: number, headers: Record<string, string> = {}) => {
          this.status = status;
          this.responseHeaders = { 'tus-resumable': '1.0.0', ...headers };
          setTimeout(() => this.onload?.(), 0);
        };
        if (request.method === 'POST') {
          server.sequence += 1;
          const location = new URL(`v${server.sequence}`, request.url).toString();
          server.offsets.set(location, 0);
          server.lengths.set(location, request.headers['upload-length'] ?? '');
          respond(201, { location });
          return;
        }
        const offset = server.offsets.get(request.url);
        if (offset === undefined) {
          respond(404);
          return;
        }
        if (request.method === 'HEAD') {
          respond(200, {
            'upload-offset': String(offset),
            'upload-length': server.lengths.get(request.url) ?? '',
          });
          return;
        }
        if (request.method === 'DELETE') {
          server.offsets.delete(request.url);
          respond(204);
          return;
        }
        const held: HeldHostPatch = {
          request,
          isAborted: false,
          progress: (bytes) =>
            this.upload.onprogress?.({ lengthComputable: true, loaded: bytes } as ProgressEvent),
          accept: () => {
            if (held.isAborted) return;
            const next = offset + (body?.size ?? 0);
            server.offsets.set(request.url, next);
            respond(204, { 'upload-offset': String(next) });
          },
        };
        this.held = held;
        server.patches.push(held);
      }
    }
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    return this;
  }
}
