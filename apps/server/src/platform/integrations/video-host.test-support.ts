import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the gcore-style video host on loopback (tests only). It records every request
 * and, unless the test set an answer for `METHOD path` in `answers`, behaves as the host does:
 * - GET /api/video/upload-token?name&path: a new video and Gcore's TUS parameters, its upload
 *   server being this fake (`servers[0].hostname` = 127.0.0.1:<port>);
 * - DELETE /api/video/videos/<id>: 204, or 404 for an unknown video;
 * - GET /api/video/videos/<id>/download-link: `{ link }` on a CDN address, 404 when unknown;
 * - tus 1.0 under /upload/ (creation, HEAD, PATCH, termination), the upload's metadata having
 *   to carry the video's token and id, as Gcore's does. It speaks plain HTTP: the ticket names
 *   `https://…/upload/`, which a test maps to `http://` (toLoopback).
 */
export type FakeAnswer = { status: number; body?: string };

export type FakeVideo = {
  id: string;
  name: string;
  path: string;
  token: string;
  /** The bytes received through tus once the upload is complete; null before. */
  bytes: Buffer | null;
};

type FakeTusUpload = {
  id: string;
  videoId: string;
  length: number;
  metadata: Record<string, string>;
  chunks: Buffer[];
  offset: number;
};

export const fakeClientId = 77;

function decodeMetadata(header: string | undefined): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const pair of (header ?? '').split(',')) {
    const [key, value] = pair.trim().split(' ');
    if (key) metadata[key] = value ? Buffer.from(value, 'base64').toString('utf8') : '';
  }
  return metadata;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export class FakeVideoHost {
  /** VIDEO_HOST_URL of this fake. */
  readonly baseUrl: string;
  /** 127.0.0.1:<port>, the upload server's hostname in the tickets. */
  readonly hostname: string;
  readonly received: { method: string; url: string; authorization?: string }[] = [];
  /** Answers the test sets by `METHOD path` (the path without its query), over the defaults. */
  answers: Record<string, FakeAnswer> = {};
  readonly videos = new Map<string, FakeVideo>();
  readonly uploads = new Map<string, FakeTusUpload>();
  private sequence = 4820;

  private constructor(private readonly server: Server) {
    const { port } = server.address() as AddressInfo;
    this.hostname = `127.0.0.1:${port}`;
    this.baseUrl = `http://${this.hostname}/api/video/`;
  }

  static async start(): Promise<FakeVideoHost> {
    let fake: FakeVideoHost | null = null;
    const server = createServer((request, response) => {
      fake!.handle(request, response).catch(() => {
        if (!response.headersSent) response.writeHead(500);
        response.end();
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    fake = new FakeVideoHost(server);
    return fake;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }

  /** Forgets requests, answers, videos and uploads; the next video is 4821 again. */
  reset(): void {
    this.sequence = 4820;
    this.received.length = 0;
    this.answers = {};
    this.videos.clear();
    this.uploads.clear();
  }

  /** The ticket's https endpoint (or an upload's address) as this plain-HTTP fake serves it. */
  toLoopback(url: string): string {
    return url.replace(`https://${this.hostname}/`, `http://${this.hostname}/`);
  }

  /** The CDN link the fake answers for a video. */
  static linkOf(videoId: string): string {
    return `https://cdn.video.example/videos/${videoId}.mp4`;
  }

  private async handle(request: IncomingMessage, response: ServerResponse) {
    const method = request.method ?? '';
    const url = new URL(request.url ?? '/', 'http://fake');
    this.received.push({
      method,
      url: request.url ?? '',
      authorization: request.headers.authorization,
    });
    const json = (status: number, body?: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(body === undefined ? '' : JSON.stringify(body));
    };
    const answer = this.answers[`${method} ${url.pathname}`];
    if (answer) {
      await readBody(request);
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(answer.body ?? '');
      return;
    }
    if (url.pathname.startsWith('/upload/')) {
      await this.handleTus(method, url.pathname, request, response);
      return;
    }
    await readBody(request);
    if (method === 'GET' && url.pathname === '/api/video/upload-token') {
      this.sequence += 1;
      const video: FakeVideo = {
        id: String(this.sequence),
        name: url.searchParams.get('name') ?? '',
        path: url.searchParams.get('path') ?? '',
        token: `upload-token-${this.sequence}`,
        bytes: null,
      };
      this.videos.set(video.id, video);
      json(200, {
        token: video.token,
        servers: [{ id: 1, hostname: this.hostname }],
        video: { id: this.sequence, name: video.name, client_id: fakeClientId },
      });
      return;
    }
    const videoPath = url.pathname.match(/^\/api\/video\/videos\/([^/]+)(\/download-link)?$/);
    const video = videoPath ? this.videos.get(decodeURIComponent(videoPath[1]!)) : undefined;
    if (method === 'DELETE' && videoPath && !videoPath[2]) {
      if (!video) return json(404, { error: 'not found' });
      this.videos.delete(video.id);
      return json(204);
    }
    if (method === 'GET' && videoPath?.[2]) {
      if (!video) return json(404, { error: 'not found' });
      return json(200, { link: FakeVideoHost.linkOf(video.id) });
    }
    json(404, { error: 'not found' });
  }

  private async handleTus(
    method: string,
    path: string,
    request: IncomingMessage,
    response: ServerResponse,
  ) {
    const tus = { 'tus-resumable': '1.0.0' };
    const end = (status: number, headers: Record<string, string> = {}) => {
      response.writeHead(status, { ...tus, ...headers });
      response.end();
    };
    const body = await readBody(request);
    if (method === 'OPTIONS') {
      return end(204, { 'tus-version': '1.0.0', 'tus-extension': 'creation,termination' });
    }
    if (method === 'POST' && path === '/upload/') {
      const metadata = decodeMetadata(request.headers['upload-metadata'] as string | undefined);
      const video = this.videos.get(metadata.video_id ?? '');
      if (!video || metadata.token !== video.token || metadata.client_id !== String(fakeClientId)) {
        return end(401);
      }
      const length = Number(request.headers['upload-length']);
      if (!Number.isInteger(length) || length < 0) return end(400);
      const id = `${video.id}-${this.uploads.size + 1}`;
      this.uploads.set(id, { id, videoId: video.id, length, metadata, chunks: [], offset: 0 });
      return end(201, { location: `/upload/${id}` });
    }
    const upload = this.uploads.get(path.slice('/upload/'.length));
    if (!upload) return end(404);
    if (method === 'HEAD') {
      return end(200, {
        'upload-offset': String(upload.offset),
        'upload-length': String(upload.length),
        'cache-control': 'no-store',
      });
    }
    if (method === 'DELETE') {
      this.uploads.delete(upload.id);
      return end(204);
    }
    if (method !== 'PATCH') return end(405);
    if (request.headers['content-type'] !== 'application/offset+octet-stream') return end(415);
    if (Number(request.headers['upload-offset']) !== upload.offset) return end(409);
    if (upload.offset + body.length > upload.length) return end(413);
    upload.chunks.push(body);
    upload.offset += body.length;
    if (upload.offset === upload.length) {
      const video = this.videos.get(upload.videoId);
      if (video) video.bytes = Buffer.concat(upload.chunks);
    }
    return end(204, { 'upload-offset': String(upload.offset) });
  }
}
