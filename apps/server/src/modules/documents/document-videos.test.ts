import { eq } from 'drizzle-orm';
import { Upload } from 'tus-js-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { documents } from '../../db/schema';
import {
  createHttpVideoHost,
  createLocalVideoHost,
  type VideoHost,
} from '../../platform/integrations/video-host';
import { FakeVideoHost, fakeClientId } from '../../platform/integrations/video-host.test-support';
import { buildTwoTenants, testPassword } from '../../test/factories';
import { type Agent, signIn, useTestApp } from '../../test/harness';

/*
 * Videos uploaded in the explorer while an outside video host is configured (spec 002 §3, §7,
 * §8; issue 17): the host is the gcore-style HTTP one, talking to a loopback fake.
 */

const specDelays = [0, 3000, 5000, 10000, 20000];
const megabyte = 1024 * 1024;

const fake = await FakeVideoHost.start();
const logged: { details: Record<string, unknown>; message: string }[] = [];
const httpHost = createHttpVideoHost({
  baseUrl: fake.baseUrl,
  apiKey: 'video-secret',
  log: (details, message) => logged.push({ details, message }),
});
/** The host the server uses: the HTTP one, or the local one for the test that says so. */
let current: VideoHost = httpHost;
const videoHost: VideoHost = {
  get kind() {
    return current.kind;
  },
  uploadToken: (input) => current.uploadToken(input),
  remove: (videoId) => current.remove(videoId),
  downloadLink: (videoId) => current.downloadLink(videoId),
};

const context = useTestApp({ integrations: { videoHost } });

let tenants: Awaited<ReturnType<typeof buildTwoTenants>>;
let customerA: Agent;
let distributorA: Agent;
let managerB: Agent;
let folderId: string;

beforeAll(async () => {
  tenants = await buildTwoTenants(context.db);
  customerA = await signIn(context.app, tenants.a.users.customer.email, testPassword);
  distributorA = await signIn(context.app, tenants.a.users.distributor.email, testPassword);
  managerB = await signIn(context.app, tenants.b.users.manager.email, testPassword);
  const folder = await customerA.inject({
    method: 'POST',
    url: '/api/documents/folders',
    payload: { owner: storeA1(), parent_id: null, name: 'Formations' },
  });
  folderId = folder.json().item.id;
});

afterAll(async () => {
  await fake.close();
});

beforeEach(() => {
  fake.reset();
  logged.length = 0;
  current = httpHost;
});

const storeA1 = () => ({ kind: 'store' as const, id: tenants.a.stores[0]!.id });

function askTicket(
  agent: Agent,
  values: Partial<{ name: string; size: number; content_type: string; parent_id: string | null }>,
) {
  return agent.inject({
    method: 'POST',
    url: '/api/documents/videos',
    payload: {
      owner: storeA1(),
      parent_id: folderId,
      name: 'Nettoyage friteuse.mp4',
      size: 3 * megabyte,
      content_type: 'video/mp4',
      ...values,
    },
  });
}

const rowsNamed = (name: string) =>
  context.db.select().from(documents).where(eq(documents.name, name));

describe('videos sent to an outside video host', () => {
  it('answers the host ticket and records the placeholder with its videoId and link', async () => {
    const response = await askTicket(customerA, { name: 'Accueil client.mp4' });
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json();
    const [video] = [...fake.videos.values()];
    expect(video).toBeDefined();
    const documentId = answer.item.id;

    // The host was asked with the video's name and a path naming the owner and the document.
    expect(fake.received[0]).toEqual({
      method: 'GET',
      url: `/api/video/upload-token?${new URLSearchParams({
        name: 'Accueil client.mp4',
        path: `stores/${storeA1().id}/documents/${documentId}/Accueil-client.mp4`,
      })}`,
      authorization: 'APIKey video-secret',
    });
    expect(answer).toEqual({
      host: 'http',
      item: expect.objectContaining({
        name: 'Accueil client.mp4',
        type: 'file',
        parent_id: folderId,
        isVideo: true,
        videoId: video!.id,
        url: FakeVideoHost.linkOf(video!.id),
        length: 3 * megabyte,
        content_type: 'video/mp4',
      }),
      ticket: {
        endpoint: `https://${fake.hostname}/upload/`,
        metadata: {
          filename: 'Accueil client.mp4',
          token: video!.token,
          video_id: video!.id,
          client_id: String(fakeClientId),
        },
        headers: {},
        retryDelays: specDelays,
      },
    });

    const [row] = await rowsNamed('Accueil client.mp4');
    expect(row).toMatchObject({
      id: documentId,
      is_video: true,
      video_id: video!.id,
      video_url: FakeVideoHost.linkOf(video!.id),
      storage_key: null,
      size: 3 * megabyte,
    });
    // The folder lists it like any file, playing from the host's link.
    const list = await customerA.inject({
      method: 'GET',
      url: `/api/documents?owner_kind=store&owner_id=${storeA1().id}&parent_id=${folderId}`,
    });
    expect(list.json().items).toContainEqual(
      expect.objectContaining({ id: documentId, url: FakeVideoHost.linkOf(video!.id) }),
    );

    // Opening the document's own address goes to a fresh download link at the host.
    const opened = await customerA.inject({
      method: 'GET',
      url: `/api/documents/${documentId}/file`,
    });
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toBe(FakeVideoHost.linkOf(video!.id));
    expect(fake.received.at(-1)?.url).toBe(`/api/video/videos/${video!.id}/download-link`);
    expect(
      (await managerB.inject({ method: 'GET', url: `/api/documents/${documentId}/file` }))
        .statusCode,
    ).toBe(404);

    // Deleting the document removes the video at the host.
    const deleted = await customerA.inject({
      method: 'DELETE',
      url: `/api/documents/${documentId}`,
    });
    expect(deleted.statusCode).toBe(204);
    expect(fake.received.at(-1)).toMatchObject({
      method: 'DELETE',
      url: `/api/video/videos/${video!.id}`,
    });
    expect(fake.videos.size).toBe(0);
    expect(await rowsNamed('Accueil client.mp4')).toEqual([]);
    expect(logged).toEqual([]);
  });

  it('refuses a taken name, 500 MB, a non-video and a folder out of reach before asking the host', async () => {
    await askTicket(customerA, { name: 'Plonge.mp4' });
    expect(fake.received).toHaveLength(2);
    fake.received.length = 0;

    const taken = await askTicket(customerA, { name: 'PLONGE.mp4' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.code).toBe('documents.file-exists');
    const tooBig = await askTicket(customerA, { name: 'Film.mp4', size: 500 * megabyte + 1 });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().error.code).toBe('documents.file-too-big');
    const exactly = await askTicket(customerA, { name: 'Film.mp4', size: 500 * megabyte });
    expect(exactly.statusCode).toBe(200);
    fake.received.length = 0;
    const notVideo = await askTicket(customerA, { name: 'x.pdf', content_type: 'application/pdf' });
    expect(notVideo.statusCode).toBe(415);
    expect((await askTicket(customerA, { name: '../x.mp4' })).json().error.code).toBe(
      'documents.invalid-name',
    );
    expect((await askTicket(managerB, { name: 'Intrus.mp4' })).statusCode).toBe(404);
    expect((await askTicket(distributorA, { name: 'Intrus.mp4' })).statusCode).toBe(404);
    const noSize = await askTicket(customerA, { name: 'Vide.mp4', size: 0 });
    expect(noSize.json().error.code).toBe('validation/invalid-input');
    expect(fake.received).toEqual([]);
    expect(await rowsNamed('Intrus.mp4')).toEqual([]);
  });

  it('a host failure answers documents.video-host-failed and leaves no row', async () => {
    fake.answers['GET /api/video/upload-token'] = { status: 500, body: '{"error":"down"}' };
    const refused = await askTicket(customerA, { name: 'Panne.mp4' });
    expect(refused.statusCode).toBe(502);
    expect(refused.json().error.code).toBe('documents.video-host-failed');
    expect(await rowsNamed('Panne.mp4')).toEqual([]);
    expect(logged.map((entry) => entry.message)).toEqual(['video host answered an error']);

    // A video the host has no link for yet plays through the document's address, which asks
    // the host again; a host that still has none answers the same code.
    delete fake.answers['GET /api/video/upload-token'];
    fake.answers['GET /api/video/videos/4821/download-link'] = { status: 404, body: '{}' };
    const fresh = (await askTicket(customerA, { name: 'Neuve.mp4' })).json();
    expect(fresh.item.videoId).toBe('4821');
    expect(fresh.item.url).toBe(`/api/documents/${fresh.item.id}/file`);
    const [row] = await rowsNamed('Neuve.mp4');
    expect(row!.video_url).toBeNull();
    const opened = await customerA.inject({ method: 'GET', url: fresh.item.url });
    expect(opened.statusCode).toBe(502);
    expect(opened.json().error.code).toBe('documents.video-host-failed');
    delete fake.answers['GET /api/video/videos/4821/download-link'];
    const later = await customerA.inject({ method: 'GET', url: fresh.item.url });
    expect(later.statusCode).toBe(302);
    expect(later.headers.location).toBe(FakeVideoHost.linkOf('4821'));

    // The host refusing the removal is only logged (spec 002 §8): the document goes.
    fake.answers['DELETE /api/video/videos/4821'] = { status: 500, body: '{}' };
    const deleted = await customerA.inject({
      method: 'DELETE',
      url: `/api/documents/${fresh.item.id}`,
    });
    expect(deleted.statusCode).toBe(204);
    expect(await rowsNamed('Neuve.mp4')).toEqual([]);
    expect(logged.map((entry) => entry.message)).toContain('video host refused the removal');
  });

  it('with the local host, tells the client to use the resumable upload and records nothing', async () => {
    expect((await askTicket(customerA, { name: 'Accueil.mp4' })).statusCode).toBe(200);
    current = createLocalVideoHost();
    const response = await askTicket(customerA, { name: 'Locale.mp4' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ host: 'local' });
    expect(await rowsNamed('Locale.mp4')).toEqual([]);
    // The same checks come first.
    const taken = await askTicket(customerA, { name: 'accueil.MP4' });
    expect(taken.json().error.code).toBe('documents.file-exists');
  });

  it('sends a few MB to the ticket through tus-js-client, in chunks, with the ticket metadata', async () => {
    const answer = (
      await askTicket(customerA, { name: 'Formation HACCP.mp4', size: 3 * megabyte })
    ).json();
    const bytes = Buffer.alloc(3 * megabyte);
    for (let index = 0; index < bytes.length; index += 1) bytes[index] = (index * 7) % 251;
    const progress: number[] = [];
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      const upload = new Upload(bytes, {
        // The fake speaks plain HTTP on loopback where the ticket names https.
        endpoint: fake.toLoopback(answer.ticket.endpoint),
        metadata: { ...answer.ticket.metadata, filetype: 'video/mp4' },
        headers: answer.ticket.headers,
        retryDelays: answer.ticket.retryDelays,
        chunkSize: megabyte,
        onProgress: (sent) => progress.push(sent),
        onSuccess: () => resolve(),
        onError: reject,
      });
      upload.start();
    });
    const elapsed = performance.now() - started;
    const video = fake.videos.get(answer.item.videoId);
    expect(video?.bytes?.equals(bytes)).toBe(true);
    const patches = fake.received.filter((request) => request.method === 'PATCH');
    expect(patches).toHaveLength(3);
    expect(progress.at(-1)).toBe(bytes.length);
    // No key of ours ever reaches the upload server.
    expect(
      fake.received
        .filter((request) => request.url.startsWith('/upload/'))
        .every((request) => request.authorization === undefined),
    ).toBe(true);
    expect(elapsed).toBeLessThan(10_000);
  });
});
