import { type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http';
import type {
  HttpRequest,
  HttpResponse,
  HttpStack,
  PreviousUpload,
  UrlStorage,
} from 'tus-js-client';

/** Upload-Metadata as tus encodes it: `key base64(value)` pairs, comma separated. */
export function encodeMetadata(metadata: Record<string, string>): string {
  return Object.entries(metadata)
    .map(([key, value]) => `${key} ${Buffer.from(value, 'utf8').toString('base64')}`)
    .join(',');
}

/** The spec's retry delays (spec 002 §7: 0, 3, 5, 10, 20 s) in milliseconds, as tus-js-client takes them. */
export const specRetryDelays = [0, 3, 5, 10, 20].map((seconds) => seconds * 1000);

/**
 * tus-js-client's URL storage as a browser's localStorage keeps it across a reload: the upload
 * URL by file fingerprint.
 */
export class MemoryUrlStorage implements UrlStorage {
  private readonly entries = new Map<string, PreviousUpload & { fingerprint: string }>();
  private sequence = 0;

  async findAllUploads(): Promise<PreviousUpload[]> {
    return [...this.entries.values()];
  }

  async findUploadsByFingerprint(fingerprint: string): Promise<PreviousUpload[]> {
    return [...this.entries.values()].filter((entry) => entry.fingerprint === fingerprint);
  }

  async removeUpload(urlStorageKey: string): Promise<void> {
    this.entries.delete(urlStorageKey);
  }

  async addUpload(fingerprint: string, upload: PreviousUpload): Promise<string> {
    this.sequence += 1;
    const key = `tus::${fingerprint}::${this.sequence}`;
    this.entries.set(key, { ...upload, urlStorageKey: key, fingerprint });
    return key;
  }
}

class CollectedResponse implements HttpResponse {
  constructor(
    private readonly response: IncomingMessage,
    private readonly body: string,
  ) {}
  getStatus() {
    return this.response.statusCode ?? 0;
  }
  getHeader(header: string) {
    const value = this.response.headers[header.toLowerCase()];
    return Array.isArray(value) ? value.join(', ') : value;
  }
  getBody() {
    return this.body;
  }
  getUnderlyingObject() {
    return this.response;
  }
}

/**
 * An HTTP stack for tus-js-client in Node that cuts the connection when an upload's bytes
 * reach one of `cuts` (absolute offsets in the file): it sends the bytes up to the offset, then
 * destroys the socket, as a network failure would. `onCut` runs just before.
 */
export class CuttingHttpStack implements HttpStack {
  private readonly pending: number[];
  /** Every request sent: method, answer status (null: no answer) and Upload-Offset sent. */
  readonly requests: { method: string; status: number | null; offset: number | null }[] = [];

  constructor(
    cuts: number[],
    private readonly onCut: (offset: number, index: number) => void = () => {},
  ) {
    this.pending = [...cuts].sort((a, b) => a - b);
  }

  get cutsLeft(): number {
    return this.pending.length;
  }

  /** The next cut inside (start, end), removed from the list; null when none. */
  takeCut(start: number, end: number): { offset: number; index: number } | null {
    const next = this.pending[0];
    if (next === undefined || next <= start || next >= end) return null;
    this.pending.shift();
    return { offset: next, index: this.cutCount++ };
  }
  private cutCount = 0;

  createRequest(method: string, url: string): HttpRequest {
    return new CuttingRequest(method, url, this);
  }

  getName() {
    return 'cutting-node-http';
  }

  notifyCut(offset: number, index: number) {
    this.onCut(offset, index);
  }
}

class CuttingRequest implements HttpRequest {
  private readonly headers: Record<string, string> = {};
  private request: ClientRequest | null = null;
  private progress: (bytesSent: number) => void = () => {};

  constructor(
    private readonly method: string,
    private readonly url: string,
    private readonly stack: CuttingHttpStack,
  ) {}

  getMethod() {
    return this.method;
  }
  getURL() {
    return this.url;
  }
  setHeader(header: string, value: string) {
    this.headers[header] = value;
  }
  getHeader(header: string) {
    const found = Object.keys(this.headers).find(
      (name) => name.toLowerCase() === header.toLowerCase(),
    );
    return found ? this.headers[found] : undefined;
  }
  setProgressHandler(handler: (bytesSent: number) => void) {
    this.progress = handler;
  }

  send(body?: Buffer | null): Promise<HttpResponse> {
    const sentOffset = this.getHeader('Upload-Offset');
    const entry = {
      method: this.method,
      status: null as number | null,
      offset: sentOffset === undefined ? null : Number(sentOffset),
    };
    this.stack.requests.push(entry);
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { ...this.headers };
      if (body) headers['Content-Length'] = body.length;
      // One connection a request (no keep-alive): a cut or a restart never reuses a socket.
      const request = httpRequest(this.url, { method: this.method, headers, agent: false });
      this.request = request;
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          entry.status = response.statusCode ?? 0;
          resolve(new CollectedResponse(response, Buffer.concat(chunks).toString('utf8')));
        });
        response.on('error', reject);
      });
      request.on('error', reject);
      if (!body || body.length === 0) {
        request.end();
        return;
      }
      const start = Number(this.getHeader('Upload-Offset') ?? 0);
      const cut = this.stack.takeCut(start, start + body.length);
      const limit = cut ? cut.offset - start : body.length;
      const chunkSize = 256 * 1024;
      let written = 0;
      const writeMore = () => {
        while (written < limit) {
          const chunk = body.subarray(written, Math.min(limit, written + chunkSize));
          written += chunk.length;
          this.progress(written);
          const isLast = written >= limit;
          if (isLast && cut) {
            // Every byte up to the cut handed to the socket, then the connection dies.
            request.write(chunk, () => {
              this.stack.notifyCut(cut.offset, cut.index);
              request.destroy(new Error(`connection cut at ${cut.offset}`));
            });
            return;
          }
          if (!request.write(chunk)) {
            request.once('drain', writeMore);
            return;
          }
        }
        request.end();
      };
      writeMore();
    });
  }

  abort() {
    this.request?.destroy();
    return Promise.resolve();
  }

  getUnderlyingObject() {
    return this.request;
  }
}
