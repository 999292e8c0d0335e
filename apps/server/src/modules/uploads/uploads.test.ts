import { createHash, randomBytes, randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import { Readable } from 'node:stream';
import { Upload as StoredUpload } from '@tus/server';
import { eq } from 'drizzle-orm';
import { Upload } from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { elementAttachments } from '../../db/schema';
import { createS3Storage } from '../../platform/storage-s3';
import {
  buildDatabaseElement,
  buildStoreElement,
  buildTwoTenants,
  testPassword,
} from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';
import { startS3Server, type TestS3Server } from '../../test/s3-server';
import { buildDevice } from '../device/test-support';
import { attachmentIdOf } from './element-attachments.purpose';
import {
  CuttingHttpStack,
  encodeMetadata,
  MemoryUrlStorage,
  specRetryDelays,
} from './test-support';
import type { UploadArea } from './upload-area';
import { cleanUpUploads, createUploadArea, uploadDirectories } from './uploads.service';

const megabyte = 1024 * 1024;

/**
 * Every scenario on each storage driver chosen by configuration: the local disk (tus file store
 * in DATA_DIR/uploads), and S3 (STORAGE_DRIVER=s3 and the S3_* variables pointing at a real
 * S3-protocol server on loopback: tus S3 store under uploads/ in the bucket).
 */
const drivers = [{ driver: 'local' as const }, { driver: 's3' as const }];

type ErrorBody = { error: { code: string; message: string; issues?: { path: string }[] } };
const errorOf = async (response: Response) => ((await response.json()) as ErrorBody).error;

type UploadStatus = {
  status: string;
  size: number;
  offset: number;
  result: { attachmentId: string; elementId: string } | null;
  error: { code: string } | null;
};

const pdfMetadata = (owner: string, purpose = 'database-element-attachment') => ({
  purpose,
  owner,
  filename: 'Fiche technique.pdf',
  filetype: 'application/pdf',
});

describe.each(drivers)('resumable uploads (tus) on the $driver driver', ({ driver }) => {
  let s3: TestS3Server | null = null;
  const env: Record<string, string> = {};
  // Registered before the app's hooks: the server's address is known when the app is built.
  beforeAll(async () => {
    if (driver === 's3') {
      s3 = await startS3Server();
      Object.assign(env, s3.env);
    }
  });
  afterAll(async () => {
    await s3?.close();
  });
  const context = useTestApp({ env });

  let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
  let manager: Agent;
  let customer: Agent;
  let port: number;
  let baseUrl: string;

  let area: UploadArea;
  /** What the upload area holds: files in DATA_DIR/uploads/partial, objects under uploads/partial/. */
  const partialFiles = () => area.listPartial();
  /** Multipart uploads the S3 server still holds (none on the local driver). */
  const openMultipartUploads = () =>
    (s3?.storedFiles() ?? []).filter((path) => path.includes('._S3rver_uploads'));

  /** Restarts the server on the same port, DATA_DIR and database (an upload in progress stays). */
  async function restartServer(): Promise<void> {
    await context.app.close();
    const app = await buildApp({
      config: context.config,
      database: context.database,
      logger: false,
      isServingWeb: false,
    });
    await app.listen({ port, host: '127.0.0.1' });
    context.app = app;
  }

  /** A raw tus request to the running server, as a signed-in agent (or nobody). */
  function tus(
    path: string,
    init: { method: string; headers?: Record<string, string>; body?: Buffer; agent?: Agent | null },
  ) {
    const agent = init.agent === undefined ? manager : init.agent;
    return fetch(`${baseUrl}${path}`, {
      method: init.method,
      headers: {
        'tus-resumable': '1.0.0',
        ...(agent ? { cookie: agent.cookie, 'x-csrf-token': agent.csrf } : {}),
        ...init.headers,
      },
      body: init.body ? new Uint8Array(init.body) : undefined,
    });
  }

  const createUpload = (
    metadata: Record<string, string>,
    size: number,
    options: { agent?: Agent | null; headers?: Record<string, string> } = {},
  ) =>
    tus('/api/uploads', {
      method: 'POST',
      agent: options.agent,
      headers: {
        'upload-length': String(size),
        'upload-metadata': encodeMetadata(metadata),
        ...options.headers,
      },
    });

  beforeAll(async () => {
    tenants = await buildTwoTenants(context.db);
    manager = await signIn(context.app, tenants.a.users.manager.email, testPassword);
    customer = await signIn(context.app, tenants.a.users.customer.email, testPassword);
    await context.app.listen({ port: 0, host: '127.0.0.1' });
    const address = context.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    port = address.port;
    baseUrl = `http://127.0.0.1:${port}`;
    area = createUploadArea(context.config);
  });

  it('finishes a 50 MB upload cut three times, across a server restart and a reload', async () => {
    const element = await buildDatabaseElement(context.db, { database_id: tenants.a.database.id });
    // A PDF by its magic bytes, then random bytes: 50 MB.
    const file = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(50 * megabyte - 9)]);
    const original = createHash('sha256').update(file).digest('hex');
    // Three cuts at random offsets, at least 2 MB apart.
    const cuts: number[] = [];
    while (cuts.length < 3) {
      const offset = randomInt(2 * megabyte, 48 * megabyte);
      if (cuts.every((other) => Math.abs(other - offset) >= 2 * megabyte)) cuts.push(offset);
    }
    cuts.sort((a, b) => a - b);
    const urlStorage = new MemoryUrlStorage();
    const events: string[] = [];
    let current: Upload | null = null;
    let restart: Promise<void> | null = null;
    let reload: (() => void) | null = null;

    const started = Date.now();
    let stack: CuttingHttpStack | null = null;
    const uploadUrl = await new Promise<string>((resolve, reject) => {
      stack = new CuttingHttpStack(cuts, (offset, index) => {
        events.push(`cut ${index + 1} at ${offset}`);
        // The second cut takes the server down; tus-js-client retries (0, 3, 5... s) meanwhile.
        if (index === 1) restart = restartServer();
        // The third one is a reload: a new client finds the upload again by its fingerprint.
        if (index === 2 && current) {
          void current.abort();
          setTimeout(() => reload?.(), 50);
        }
      });
      const options = {
        endpoint: `${baseUrl}/api/uploads`,
        metadata: pdfMetadata(element.id),
        headers: { cookie: manager.cookie, 'x-csrf-token': manager.csrf },
        retryDelays: specRetryDelays,
        httpStack: stack,
        urlStorage,
        storeFingerprintForResuming: true,
        removeFingerprintOnSuccess: true,
        onSuccess: () => resolve(current?.url ?? ''),
        onError: (error: Error) => reject(error),
      };
      current = new Upload(file, options);
      reload = () => {
        const upload = new Upload(file, options);
        current = upload;
        upload
          .findPreviousUploads()
          .then((previous) => {
            events.push(`reload found ${previous.length} previous upload(s)`);
            if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
            upload.start();
          })
          .catch(reject);
      };
      current.start();
    });
    await restart;
    const seconds = (Date.now() - started) / 1000;
    console.info(
      `50 MB resumed upload (${driver}): ${seconds.toFixed(1)} s (${events.join(', ')})`,
    );
    // Each cut, then the server down during its restart, failed a request; the client went on.
    const requests = (stack as CuttingHttpStack | null)?.requests ?? [];
    const failed = requests.filter((request) => request.status === null || request.status >= 500);
    expect(failed.length).toBeGreaterThanOrEqual(4);
    expect(requests.filter((request) => request.method === 'POST')).toHaveLength(1);
    expect(requests.at(-1)).toMatchObject({ method: 'PATCH', status: 204 });
    // Each PATCH started where the server had stopped (bytes still in flight at a cut are
    // lost, as on a real network), never back at 0: one creation, one upload resumed.
    const starts = requests.filter((request) => request.method === 'PATCH').map((r) => r.offset!);
    expect(starts.length).toBeGreaterThanOrEqual(4);
    expect(starts[0]).toBe(0);
    for (const [index, start] of starts.entries()) {
      if (index > 0) expect(start).toBeGreaterThanOrEqual(starts[index - 1]!);
    }
    expect(starts.at(-1)).toBeGreaterThan(0);
    expect(starts.at(-1)).toBeLessThanOrEqual(cuts[2]!);
    expect(uploadUrl).toMatch(/\/api\/uploads\/[0-9a-f]{32}$/);
    const id = uploadUrl.split('/').pop()!;

    // The outcome: an attachment of the element, whose bytes are the original's.
    const status = await tus(`/api/uploads/${id}`, { method: 'GET' });
    expect(status.status).toBe(200);
    const outcome = (await status.json()) as UploadStatus;
    expect(outcome).toMatchObject({
      status: 'completed',
      size: file.length,
      offset: file.length,
      result: { attachmentId: attachmentIdOf(id), elementId: element.id },
    });
    const [row] = await context.db
      .select()
      .from(elementAttachments)
      .where(eq(elementAttachments.id, outcome.result!.attachmentId));
    expect(row).toMatchObject({
      database_element_id: element.id,
      name: 'Fiche technique.pdf',
      type: 'pdf',
      size: file.length,
      path: `databases/${tenants.a.database.id}/element_attachments/${element.id}/${row!.id}.pdf`,
    });
    const download = await fetch(`${baseUrl}/api/elementAttachments/${row!.id}/download`, {
      headers: { cookie: manager.cookie },
    });
    expect(download.status).toBe(200);
    const stored = createHash('sha256')
      .update(Buffer.from(await download.arrayBuffer()))
      .digest('hex');
    expect(stored).toBe(original);
    // The partial file and its info left the upload area; a HEAD still says "complete".
    expect((await partialFiles()).filter((name) => name.startsWith(id))).toEqual([]);
    if (s3) {
      // The object in the bucket, read by the S3 client: the original's bytes; nothing left
      // under uploads/partial/ (the only upload so far), no multipart upload still open.
      const object = await createS3Storage(s3.options).get(row!.path);
      const hash = createHash('sha256');
      for await (const chunk of object!.stream) hash.update(chunk as Buffer);
      expect(hash.digest('hex')).toBe(original);
      expect(object!.size).toBe(file.length);
      expect(await partialFiles()).toEqual([]);
      expect(openMultipartUploads()).toEqual([]);
      // Nothing went through the instance's own disk area: another instance could have served
      // any of the requests.
      expect(existsSync(uploadDirectories(context.config.DATA_DIR).partial)).toBe(false);
      expect(existsSync(uploadDirectories(context.config.DATA_DIR).done)).toBe(false);
    }
    const head = await tus(`/api/uploads/${id}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(file.length));
  }, 120_000);

  it('refuses an Upload-Length over 500 MB with 413 documents.file-too-big, storing nothing', async () => {
    const element = await buildDatabaseElement(context.db, { database_id: tenants.a.database.id });
    const before = await partialFiles();
    const response = await createUpload(pdfMetadata(element.id), 501 * megabyte);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({
      error: { code: 'documents.file-too-big', message: 'The file is too big: 500 MB at most.' },
    });
    expect(await partialFiles()).toEqual(before);
    // 500 MB exactly is accepted.
    const atLimit = await createUpload(pdfMetadata(element.id), 500 * megabyte);
    expect(atLimit.status).toBe(201);
    const location = atLimit.headers.get('location')!;
    expect(location).toMatch(/^\/api\/uploads\/[0-9a-f]{32}$/);
    expect((await tus(location, { method: 'DELETE' })).status).toBe(204);
    expect(await partialFiles()).toEqual(before);
  });

  it("refuses another tenant's element (404) and a role that may not write it (403)", async () => {
    const other = await buildDatabaseElement(context.db, { database_id: tenants.b.database.id });
    const foreign = await createUpload(pdfMetadata(other.id), 1000);
    expect(foreign.status).toBe(404);
    expect((await errorOf(foreign)).code).toBe('not-found');
    const unknown = await createUpload(pdfMetadata(crypto.randomUUID()), 1000);
    expect(unknown.status).toBe(404);
    const own = await buildDatabaseElement(context.db, { database_id: tenants.a.database.id });
    // A store owner reads the database's elements but may not change them.
    const denied = await createUpload(pdfMetadata(own.id), 1000, { agent: customer });
    expect(denied.status).toBe(403);
    expect((await errorOf(denied)).code).toBe('permission/denied');
    // At store level, the owner of the store may.
    const storeElement = await buildStoreElement(context.db, {
      store_id: tenants.a.stores[0]!.id,
      name: 'Frigo',
    });
    const allowed = await createUpload(
      pdfMetadata(storeElement.id, 'store-element-attachment'),
      1000,
      { agent: customer },
    );
    expect(allowed.status).toBe(201);
    await tus(allowed.headers.get('location')!, { method: 'DELETE', agent: customer });
  });

  it('answers 401 without a session and 403 for a cookie session without the CSRF token', async () => {
    const element = await buildDatabaseElement(context.db, { database_id: tenants.a.database.id });
    const anonymous = await createUpload(pdfMetadata(element.id), 1000, { agent: null });
    expect(anonymous.status).toBe(401);
    expect((await errorOf(anonymous)).code).toBe('auth/unauthenticated');
    const noCsrf = await fetch(`${baseUrl}/api/uploads`, {
      method: 'POST',
      headers: {
        'tus-resumable': '1.0.0',
        cookie: manager.cookie,
        'upload-length': '1000',
        'upload-metadata': encodeMetadata(pdfMetadata(element.id)),
      },
    });
    expect(noCsrf.status).toBe(403);
    expect((await errorOf(noCsrf)).code).toBe('auth/csrf');

    // Later requests too: a PATCH without the token, a HEAD without the session.
    const created = await createUpload(pdfMetadata(element.id), 1000);
    const location = created.headers.get('location')!;
    const patch = await fetch(`${baseUrl}${location}`, {
      method: 'PATCH',
      headers: {
        'tus-resumable': '1.0.0',
        cookie: manager.cookie,
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body: Buffer.from('%PDF-'),
    });
    expect(patch.status).toBe(403);
    expect((await tus(location, { method: 'HEAD', agent: null })).status).toBe(401);
    const head = await tus(location, { method: 'HEAD' });
    expect(head.headers.get('upload-offset')).toBe('0');
    await tus(location, { method: 'DELETE' });
  });

  it('keeps an upload to its creator: another user neither resumes nor reads it (404)', async () => {
    const element = await buildDatabaseElement(context.db, { database_id: tenants.a.database.id });
    const created = await createUpload(pdfMetadata(element.id), 1000);
    const location = created.headers.get('location')!;
    const admin = await signIn(context.app, tenants.admin.email, testPassword);
    expect((await tus(location, { method: 'HEAD', agent: admin })).status).toBe(404);
    expect((await tus(location, { method: 'GET', agent: admin })).status).toBe(404);
    const patch = await tus(location, {
      method: 'PATCH',
      agent: admin,
      headers: { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: Buffer.from('%PDF-'),
    });
    expect(patch.status).toBe(404);
    expect((await tus(location, { method: 'DELETE', agent: admin })).status).toBe(404);
    expect((await tus(location, { method: 'HEAD' })).headers.get('upload-offset')).toBe('0');
    await tus(location, { method: 'DELETE' });
  });

  it('accepts a tablet by its device token; element attachments refuse it (403)', async () => {
    const element = await buildDatabaseElement(context.db, { database_id: tenants.a.database.id });
    const { token } = await buildDevice(context.db, tenants.a.stores[0]!.id);
    const response = await fetch(`${baseUrl}/api/uploads`, {
      method: 'POST',
      headers: {
        'tus-resumable': '1.0.0',
        authorization: `Bearer ${token}`,
        'upload-length': '1000',
        'upload-metadata': encodeMetadata(pdfMetadata(element.id)),
      },
    });
    expect(response.status).toBe(403);
    expect((await errorOf(response)).code).toBe('permission/denied');
  });

  it('checks the metadata at creation: purpose, type, name and length', async () => {
    const element = await buildDatabaseElement(context.db, { database_id: tenants.a.database.id });
    const unknownPurpose = await createUpload(pdfMetadata(element.id, 'anything'), 1000);
    expect(unknownPurpose.status).toBe(400);
    expect((await errorOf(unknownPurpose)).issues?.[0]?.path).toBe('Upload-Metadata.purpose');
    const executable = await createUpload(
      { ...pdfMetadata(element.id), filetype: 'application/x-msdownload' },
      1000,
    );
    expect(executable.status).toBe(415);
    expect((await errorOf(executable)).code).toBe('file/unsupported-type');
    const noName = await createUpload({ ...pdfMetadata(element.id), filename: '' }, 1000);
    expect(noName.status).toBe(400);
    const deferred = await tus('/api/uploads', {
      method: 'POST',
      headers: {
        'upload-defer-length': '1',
        'upload-metadata': encodeMetadata(pdfMetadata(element.id)),
      },
    });
    expect(deferred.status).toBe(400);
    expect((await errorOf(deferred)).issues?.[0]?.path).toBe('Upload-Length');
  });

  it('refuses at the end a file whose bytes do not match its type (415), keeping nothing', async () => {
    const element = await buildDatabaseElement(context.db, { database_id: tenants.a.database.id });
    const body = Buffer.from('MZ not a PDF at all, an executable in disguise');
    const created = await createUpload(pdfMetadata(element.id), body.length);
    const location = created.headers.get('location')!;
    const id = location.split('/').pop()!;
    const patch = await tus(location, {
      method: 'PATCH',
      headers: { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body,
    });
    expect(patch.status).toBe(415);
    expect((await errorOf(patch)).code).toBe('file/unsupported-type');
    const status = (await (await tus(location, { method: 'GET' })).json()) as UploadStatus;
    expect(status).toMatchObject({ status: 'failed', error: { code: 'file/unsupported-type' } });
    expect((await partialFiles()).filter((name) => name.startsWith(id))).toEqual([]);
    const rows = await context.db
      .select()
      .from(elementAttachments)
      .where(eq(elementAttachments.database_element_id, element.id));
    expect(rows).toEqual([]);
  });

  it('keeps a complete upload readable in the upload area until removed', async () => {
    // What a purpose reads and moves: 9 MB (two parts on S3), straight through the datastore.
    const id = randomBytes(16).toString('hex');
    const bytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(9 * megabyte)]);
    const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
    const key = area.keyOf(id);
    await area.datastore.create(
      new StoredUpload({ id: key, size: bytes.length, offset: 0, metadata: { purpose: 'test' } }),
    );
    expect(await area.findUpload(id)).toMatchObject({ size: bytes.length, offset: 0 });
    await area.datastore.write(Readable.from([bytes]), key, 0);
    expect(await area.findUpload(id)).toEqual({
      size: bytes.length,
      offset: bytes.length,
      metadata: { purpose: 'test' },
    });
    expect(await area.head(id, 5)).toEqual(Buffer.from('%PDF-'));
    const read: Buffer[] = [];
    for await (const chunk of area.open(id)) read.push(chunk as Buffer);
    expect(sha256(Buffer.concat(read))).toBe(sha256(bytes));

    const storage = context.app.deps.storage;
    const target = `databases/${tenants.a.database.id}/element_attachments/area/${id}.pdf`;
    expect(await area.moveTo(id, target, storage)).toEqual({ size: bytes.length });
    const stored = await storage.get(target);
    const copied: Buffer[] = [];
    for await (const chunk of stored!.stream) copied.push(chunk as Buffer);
    expect(sha256(Buffer.concat(copied))).toBe(sha256(bytes));
    // Still there until removed (a failing purpose retries from it); then nothing is left.
    expect((await partialFiles()).some((name) => name.startsWith(id))).toBe(true);
    await area.remove(id);
    expect((await partialFiles()).filter((name) => name.startsWith(id))).toEqual([]);
    expect(await area.findUpload(id)).toBeNull();
    expect(openMultipartUploads()).toEqual([]);
    await storage.delete(target);
  });

  it('removes unfinished uploads once expired, and old outcomes', async () => {
    const element = await buildDatabaseElement(context.db, { database_id: tenants.a.database.id });
    // A finished upload (refused by its purpose): its outcome is kept for a day.
    const refused = await createUpload(pdfMetadata(element.id), 5);
    const refusedUrl = refused.headers.get('location')!;
    await tus(refusedUrl, {
      method: 'PATCH',
      headers: { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: Buffer.from('MZ...'),
    });
    expect((await tus(refusedUrl, { method: 'GET' })).status).toBe(200);
    const created = await createUpload(pdfMetadata(element.id), 1000);
    const id = created.headers.get('location')!.split('/').pop()!;
    // Its info (`<id>.json` on the disk, `<id>.info` in the bucket, beside the open multipart
    // upload), kept while it has not expired.
    const isKept = async () => (await partialFiles()).some((name) => name.startsWith(id));
    expect(await isKept()).toBe(true);
    if (s3) expect(openMultipartUploads()).not.toEqual([]);
    expect(await cleanUpUploads(context.config)).toBe(0);
    expect(await isKept()).toBe(true);
    await cleanUpUploads(context.config, Date.now() + 25 * 60 * 60 * 1000);
    expect(await partialFiles()).toEqual([]);
    // On S3 the multipart upload is aborted too (its parts freed).
    expect(openMultipartUploads()).toEqual([]);
    expect((await tus(`/api/uploads/${id}`, { method: 'HEAD' })).status).toBe(404);
    expect((await tus(refusedUrl, { method: 'GET' })).status).toBe(404);
  });
});
