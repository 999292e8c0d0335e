import { vi } from 'vitest';
import type { UploadOutcome } from './use-resumable-upload';

/*
 * A fake of the tus endpoint for component tests: XMLHttpRequest (what tus-js-client's browser
 * build sends with) answers POST/HEAD/PATCH/DELETE /api/uploads as the server does, and fetch
 * answers GET /api/uploads/:id (the outcome); other fetches go to the mockApi installed before.
 *
 * The tests load tus-js-client's browser build (the one Vite bundles) instead of its Node one:
 *   vi.mock('tus-js-client', () => import('tus-js-client/lib.esm/browser/index.js'));
 */

export type FakeTusRequest = {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Blob | null;
};

export type FakeTusAnswer = { status: number; body?: unknown; headers?: Record<string, string> };

export type FakeStoredUpload = {
  id: string;
  length: number;
  offset: number;
  metadata: Record<string, string>;
};

/** A PATCH held by the test (`holdPatches`): progress, then an answer or a cut connection. */
export type HeldPatch = {
  request: FakeTusRequest;
  /** Reports `bytes` of this request's body sent. */
  progress(bytes: number): void;
  /** Stores the body (or its first `bytes`) and answers 204 with the new offset. */
  accept(bytes?: number): void;
  /** The server keeps `bytes` of the body, then the connection dies (no answer). */
  cut(bytes: number): void;
  isAborted: boolean;
};

function decodeMetadata(header: string | undefined): Record<string, string> {
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

const uploadPath = /^\/api\/uploads\/([0-9a-f]{32})$/;

export class FakeTusServer {
  readonly requests: FakeTusRequest[] = [];
  readonly uploads = new Map<string, FakeStoredUpload>();
  readonly heldPatches: HeldPatch[] = [];
  /** PATCHes wait for the test (heldPatches) instead of being accepted at once. */
  holdPatches = false;
  /** Every request fails without an answer, as with no network. */
  isOffline = false;
  /** An answer instead of the protocol's (an error), or undefined to follow the protocol. */
  answer: (request: FakeTusRequest) => FakeTusAnswer | undefined = () => undefined;
  /** The outcome GET /api/uploads/:id answers for a complete upload. */
  outcomeOf: (upload: FakeStoredUpload) => Partial<UploadOutcome> = () => ({
    status: 'completed',
    result: {},
  });
  private sequence = 0;

  /** Ids in creation order: the first upload is `FakeTusServer.idOf(1)`. */
  static idOf(index: number): string {
    return index.toString(16).padStart(32, '0');
  }

  /** Requests of one method (POST, HEAD, PATCH, DELETE). */
  requestsOf(method: string): FakeTusRequest[] {
    return this.requests.filter((request) => request.method === method);
  }

  /** Replaces XMLHttpRequest and wraps the fetch stub installed by mockApi. */
  install(): this {
    const server = this;
    class FakeXhr {
      upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
      status = 0;
      responseText = '';
      onload: (() => void) | null = null;
      onerror: ((event: unknown) => void) | null = null;
      private method = 'GET';
      private url = '';
      private readonly headers: Record<string, string> = {};
      private responseHeaders: Record<string, string> = {};
      private held: HeldPatch | null = null;
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
        const request: FakeTusRequest = {
          method: this.method,
          path: new URL(this.url, 'http://localhost').pathname,
          headers: { ...this.headers },
          body,
        };
        server.requests.push(request);
        if (server.isOffline) {
          setTimeout(() => this.onerror?.(new Error('offline')), 0);
          return;
        }
        const respond = (answer: FakeTusAnswer) => {
          this.status = answer.status;
          this.responseText = answer.body === undefined ? '' : JSON.stringify(answer.body);
          this.responseHeaders = Object.fromEntries(
            Object.entries({ 'tus-resumable': '1.0.0', ...answer.headers }).map(([k, v]) => [
              k.toLowerCase(),
              v,
            ]),
          );
          setTimeout(() => this.onload?.(), 0);
        };
        const injected = server.answer(request);
        if (injected) {
          respond(injected);
          return;
        }
        if (request.method === 'PATCH' && server.holdPatches) {
          const held: HeldPatch = {
            request,
            isAborted: false,
            progress: (bytes) =>
              this.upload.onprogress?.({ lengthComputable: true, loaded: bytes } as ProgressEvent),
            accept: (bytes) => {
              if (held.isAborted) return;
              respond(server.patch(request, bytes));
            },
            cut: (bytes) => {
              server.patch(request, bytes);
              setTimeout(() => this.onerror?.(new Error('connection cut')), 0);
            },
          };
          this.held = held;
          server.heldPatches.push(held);
          return;
        }
        if (request.method === 'PATCH') {
          this.upload.onprogress?.({
            lengthComputable: true,
            loaded: body?.size ?? 0,
          } as ProgressEvent);
        }
        respond(server.handle(request));
      }
    }
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const inner = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(typeof input === 'string' ? input : input.toString(), 'http://localhost');
      const id = url.pathname.match(uploadPath)?.[1];
      if (!id || (init?.method ?? 'GET') !== 'GET') return inner(input, init);
      const upload = this.uploads.get(id);
      if (!upload) {
        return Response.json(
          { error: { code: 'not-found', message: 'Not found' } },
          { status: 404 },
        );
      }
      const isComplete = upload.offset === upload.length;
      return Response.json({
        id,
        purpose: upload.metadata.purpose,
        owner: upload.metadata.owner,
        filename: upload.metadata.filename,
        size: upload.length,
        offset: upload.offset,
        status: isComplete ? 'completed' : 'uploading',
        result: null,
        error: null,
        ...(isComplete ? this.outcomeOf(upload) : {}),
      });
    });
    return this;
  }

  private patch(request: FakeTusRequest, bytes?: number): FakeTusAnswer {
    const id = request.path.match(uploadPath)?.[1] ?? '';
    const upload = this.uploads.get(id);
    if (!upload)
      return { status: 404, body: { error: { code: 'not-found', message: 'Not found' } } };
    const offset = Number(request.headers['upload-offset']);
    if (offset !== upload.offset)
      return { status: 409, headers: { 'upload-offset': String(upload.offset) } };
    upload.offset += Math.min(bytes ?? Number.POSITIVE_INFINITY, request.body?.size ?? 0);
    return { status: 204, headers: { 'upload-offset': String(upload.offset) } };
  }

  private handle(request: FakeTusRequest): FakeTusAnswer {
    if (request.method === 'POST' && request.path === '/api/uploads') {
      this.sequence += 1;
      const id = FakeTusServer.idOf(this.sequence);
      this.uploads.set(id, {
        id,
        length: Number(request.headers['upload-length']),
        offset: 0,
        metadata: decodeMetadata(request.headers['upload-metadata']),
      });
      return { status: 201, headers: { location: `/api/uploads/${id}` } };
    }
    const id = request.path.match(uploadPath)?.[1] ?? '';
    const upload = this.uploads.get(id);
    if (!upload)
      return { status: 404, body: { error: { code: 'not-found', message: 'Not found' } } };
    if (request.method === 'HEAD') {
      return {
        status: 200,
        headers: { 'upload-offset': String(upload.offset), 'upload-length': String(upload.length) },
      };
    }
    if (request.method === 'DELETE') {
      this.uploads.delete(id);
      return { status: 204 };
    }
    return this.patch(request);
  }
}
